#include "sim/sim_options.hpp"

#include <stdexcept>
#include <string>

namespace p3s::sim {

SimMode mode_from_name(std::string_view name) {
  if (name == "per-phase") return SimMode::PerPhase;
  if (name == "full") return SimMode::Full;
  throw std::invalid_argument("unknown mode '" + std::string(name) + "' (per-phase or full)");
}

std::string_view mode_name(SimMode mode) {
  return mode == SimMode::PerPhase ? "per-phase" : "full";
}

}  // namespace p3s::sim
