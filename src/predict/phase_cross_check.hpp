#pragma once
// The two predictors set against each other phase by phase (p3s predict --replay-launcher):
// SimGrid's PhaseET and the Synthetic Signature's, their difference, and for a phase where they
// differ by more than the tolerance, its cause from evidence: what the replay measured against
// what the simulation assumed, branch by branch.
//
// - compute: the compute the replay emulated (its slowest rank's, per repetition, as measured)
//   against the model's compute as the simulation ran it (divided by --cpu-speedup);
// - point-to-point: each size and link of the messages the replay received, the fastest it
//   measured, against the platform's time for one such message (a two-rank exchange simulated
//   on the same platform), times how many of them a rank receives per repetition;
// - collective: what compute and messages leave of the difference, in a phase with collectives;
//   beside it each collective the replay fitted at N against the platform's time for it alone
//   (simulated with N members on the same platform and options).
//
// A branch is a cause when what it moves per repetition is at least half the tolerance of the
// simulated PhaseET; the causes are named, the largest first, with their numbers. A phase on
// which the replay itself gave a verdict has that as its one cause (replay_verdict).
#include <optional>
#include <string>
#include <vector>

#include "model/slt_scaled_trace.hpp"
#include "replay_mpi/replay_result.hpp"
#include "report/scaling_prediction.hpp"
#include "sim/sim_options.hpp"
#include "sim/sim_result.hpp"

namespace p3s::predict {

// What one branch of a phase moves, per repetition, replayed against simulated.
struct CauseEvidence {
  std::string branch;  // "compute", "point-to-point" or "collective"
  double seconds = 0;  // replayed minus simulated, per repetition
  std::string text;    // the measurements it rests on, in words
};

// The replay's own word that a phase's PhaseET is no evidence to weigh: `replay-not-held` when
// it does not hold the phase at its R (replay_mpi/forwarding_cycle.hpp; the PhaseET is a lower
// bound), else `replay-collective-unfitted` when a collective's time at N came from a fit that
// misses its own measurements (the PhaseET rests on a guess). None when it gave neither.
struct ReplayVerdict {
  std::string cause;  // the branch name
  std::string text;   // why, in words
  bool lower_bound = false;
};
std::optional<ReplayVerdict> replay_verdict(const replay::PhaseResult& phase);

// The two PhaseETs differ beyond `tolerance` (a fraction of the simulated one); a phase the
// simulation gives no time and the replay some differs by any amount.
bool phase_times_differ(double simulated, double replayed, double tolerance);

// The causes among `evidence` (at least half the tolerance of `simulated_et`), largest first.
std::vector<CauseEvidence> causes_of(std::vector<CauseEvidence> evidence, double simulated_et,
                                     double tolerance);

// The phases both give (by name, in the simulation's order), flagged above `tolerance` (a
// fraction), each flagged one with its causes. `options` are the simulation's: the platform
// the evidence is measured against. Empty when the simulation has no per-phase times (full
// mode).
std::vector<report::PhaseCheck> cross_check_phases(const model::SltScaledTrace& trace,
                                                   const sim::SimResult& simulated,
                                                   const replay::ReplayResult& replayed,
                                                   double tolerance,
                                                   const sim::SimOptions& options);

}  // namespace p3s::predict
