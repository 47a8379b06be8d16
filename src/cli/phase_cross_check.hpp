#pragma once
// The two predictors set against each other phase by phase (p3s predict --replay-launcher):
// SimGrid's PhaseET and the Synthetic Signature's, their difference, and for a phase where they
// differ by more than the tolerance, the likely cause in words, from what the phase does at N.
#include <string>
#include <vector>

#include "model/slt_scaled_trace.hpp"
#include "replay_mpi/replay_result.hpp"
#include "report/scaling_prediction.hpp"
#include "sim/sim_result.hpp"

namespace p3s::cli {

// The phases both give (by name, in the simulation's order), flagged above `tolerance` (a
// fraction). Empty when the simulation has no per-phase times (full mode).
std::vector<report::PhaseCheck> cross_check_phases(const model::SltScaledTrace& trace,
                                                   const sim::SimResult& simulated,
                                                   const replay::ReplayResult& replayed,
                                                   double tolerance);

}  // namespace p3s::cli
