#pragma once
// The PET's interval at one N (p3s predict): for the simulation, the SLT with every fit at the
// low and at the high end of its predictive band at N (model/slt_bounds) simulated as the
// nominal one was, on the same platform and options; for the replay, the spread of its
// measured repetitions.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "generate/instantiation.hpp"
#include "model/slt.hpp"
#include "model/slt_bounds.hpp"
#include "replay_mpi/replay_result.hpp"
#include "report/scaling_prediction.hpp"
#include "sim/sim_options.hpp"

namespace p3s::predict {

// [low, high] at N from simulating the SLT with its fits at both ends of their bands at
// `level`; nothing, with "N = ..: no interval: why" in `warnings`, when a fit has no band (an
// SLT written without its training runs), when a bound cannot be instantiated, checked or
// simulated at N, or leaves out other phases than `phases` (the nominal trace's, by name): an
// interval over other phases would not bracket the PET. The nominal PET is not forced inside:
// a bound below it would be a finding, not something to hide.
std::optional<report::Interval> simulated_interval(const model::Slt& slt, std::int64_t n,
                                                   double level, const generate::Policy& policy,
                                                   const sim::SimOptions& options,
                                                   const std::vector<std::string>& phases,
                                                   std::vector<std::string>& warnings);

// The PET with every fit at `bound` of its band at N, simulated as the nominal one was, and
// why not (in its warnings) when it cannot be: one half of simulated_interval, for a caller
// that runs the two side by side.
struct BoundPet {
  std::optional<double> pet;
  std::vector<std::string> warnings;
};
BoundPet simulated_bound(const model::Slt& slt, model::FitBound bound, std::int64_t n, double level,
                         const generate::Policy& policy, const sim::SimOptions& options,
                         const std::vector<std::string>& phases);

// The interval the two bounds make, their warnings appended to `warnings` as simulating them
// one after the other would: the high bound's only where the low one stands.
std::optional<report::Interval> interval_of(const BoundPet& low, const BoundPet& high,
                                            std::vector<std::string>& warnings);

// The names of a trace's phases, which a bound must keep.
std::vector<std::string> phase_names(const model::SltScaledTrace& trace);

// The replayed PET's interval: every phase at its fastest and at its slowest measured
// repetition (the slowest rank's time in each), the fastest less the time by which the replay
// says the phase may be long (overlap_allowance), weighted, widened to hold the replayed PET.
report::Interval replayed_interval(const replay::ReplayResult& replayed);

}  // namespace p3s::predict
