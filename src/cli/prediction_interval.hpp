#pragma once
// The PET's interval at one N (p3s predict): for the simulation, the SLT's low and high
// instantiations (model/slt_bounds) simulated as the nominal one was, on the same platform and
// options; for the replay, the spread of its measured repetitions.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "generate/instantiation.hpp"
#include "model/slt.hpp"
#include "replay_mpi/replay_result.hpp"
#include "report/scaling_prediction.hpp"
#include "sim/sim_options.hpp"

namespace p3s::cli {

// The SLT at both bounds, made once for every N.
struct BoundSlts {
  model::Slt low;
  model::Slt high;
  explicit BoundSlts(const model::Slt& slt);
};

// [low, high] around `pet` (the nominal PET at N, which it always contains) from simulating
// both bounds; nothing, with "N = ..: no interval: why" in `warnings`, when a bound cannot be
// instantiated, checked or simulated at N, or leaves out other phases than `phases` (the
// nominal trace's, by name): an interval over other phases would not bracket the PET.
std::optional<report::Interval> simulated_interval(const BoundSlts& bounds, std::int64_t n,
                                                   const generate::Policy& policy,
                                                   const sim::SimOptions& options, double pet,
                                                   const std::vector<std::string>& phases,
                                                   std::vector<std::string>& warnings);

// The replayed PET's interval: every phase at its fastest and at its slowest measured
// repetition (the slowest rank's time in each), weighted, widened to hold the replayed PET.
report::Interval replayed_interval(const replay::ReplayResult& replayed);

}  // namespace p3s::cli
