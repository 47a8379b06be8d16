#include "sim/sim_options.hpp"

#include <stdexcept>
#include <string>

namespace p3s::sim {

Mapping mapping_from_name(std::string_view name) {
  if (name == "block") return Mapping::Block;
  if (name == "cyclic") return Mapping::Cyclic;
  throw std::invalid_argument("unknown mapping '" + std::string(name) + "' (block or cyclic)");
}

std::string_view mapping_name(Mapping mapping) {
  return mapping == Mapping::Block ? "block" : "cyclic";
}

SimMode mode_from_name(std::string_view name) {
  if (name == "per-phase") return SimMode::PerPhase;
  if (name == "full") return SimMode::Full;
  throw std::invalid_argument("unknown mode '" + std::string(name) + "' (per-phase or full)");
}

std::string_view mode_name(SimMode mode) {
  return mode == SimMode::PerPhase ? "per-phase" : "full";
}

}  // namespace p3s::sim
