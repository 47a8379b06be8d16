#pragma once
// A simulation result as a table a person reads: per phase (per-phase mode) or the whole run
// (full mode), then the PET and what the simulation cost.
#include "sim/sim_result.hpp"

namespace p3s::cli {

void print_simulation_table(const sim::SimResult& result);

}  // namespace p3s::cli
