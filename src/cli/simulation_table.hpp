#pragma once
// A simulation result as a table a person reads: per phase (per-phase mode) or the whole run
// (full mode), then the PET and what the simulation cost.
#include <vector>

#include "sim/sim_result.hpp"

namespace p3s::cli {

void print_simulation_table(const sim::SimResult& result);
// The per-phase part of it (PhaseET, spread over ranks, share of the PET), for `p3s replay` too.
void print_phase_table(const std::vector<sim::PhaseTime>& phases, double pet, int nprocs,
                       int repetitions);

}  // namespace p3s::cli
