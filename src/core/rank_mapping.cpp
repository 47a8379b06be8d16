#include "core/rank_mapping.hpp"

#include <stdexcept>
#include <string>

namespace p3s::core {

Mapping mapping_from_name(std::string_view name) {
  if (name == "block") return Mapping::Block;
  if (name == "cyclic") return Mapping::Cyclic;
  throw std::invalid_argument("unknown mapping '" + std::string(name) + "' (block or cyclic)");
}

std::string_view mapping_name(Mapping mapping) {
  return mapping == Mapping::Block ? "block" : "cyclic";
}

std::int64_t nodes_used(std::int64_t nprocs, std::int64_t per_node) {
  // Rounded up without nprocs + per_node - 1, which overflows for a huge per_node.
  return nprocs / per_node + (nprocs % per_node != 0 ? 1 : 0);
}

std::int64_t node_of_rank(std::int64_t rank, std::int64_t nprocs, std::int64_t per_node,
                          Mapping mapping) {
  return mapping == Mapping::Block ? rank / per_node : rank % nodes_used(nprocs, per_node);
}

}  // namespace p3s::core
