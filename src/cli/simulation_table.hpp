#pragma once
// A simulation result as a table a person reads: per phase (per-phase mode) or the whole run
// (full mode), then the PET and what the simulation cost; and as the JSON the CLI writes.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/sim_result.hpp"

namespace p3s::cli {

void print_simulation_table(const sim::SimResult& result);
// The per-phase part of it (PhaseET, spread over ranks, share of the PET), for `p3s replay` too.
void print_phase_table(const std::vector<sim::PhaseTime>& phases, double pet, int nprocs,
                       int repetitions);

// "p3s-simulation 1" with the model simulated and what was carried instead of modelled.
nlohmann::json simulation_json(const sim::SimResult& result, const std::string& slt,
                               const std::vector<std::string>& warnings);

}  // namespace p3s::cli
