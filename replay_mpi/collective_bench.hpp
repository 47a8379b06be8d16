#pragma once
// The collectives' times at N when a step cannot load all their members: every launched
// process takes part in measuring each collective shape the phases make on communicators of
// the sizes sample_sizes(R) gives, then the fit (collective_fit.hpp) is evaluated at N.
#include <map>
#include <vector>

#include "core/scaled_trace.hpp"
#include "replay_mpi/collective_call.hpp"
#include "replay_mpi/replay_result.hpp"

namespace p3s::replay {

// The world collectives of `phases`, as distinct shapes. Throws std::invalid_argument naming
// the phase, rank and call of a collective on a sub-communicator (the replay runs none).
std::vector<CollectiveShape> collective_shapes(const core::ScaledTrace& trace,
                                               const std::vector<int>& phases);

// Collective; every process calls it with the same shapes. Returns, on every process, each
// shape's time at N; `results` (process 0 only) gets the measurements and fits.
std::map<CollectiveShape, double> measure_collectives(const std::vector<CollectiveShape>& shapes,
                                                      int repetitions,
                                                      std::vector<CollectiveResult>& results);

// The replay's verdicts on each phase of `result` that took its collectives' times from fits:
// - a fit that does not follow its own measurements (CollectiveFit::follows_points) marks the
//   phase (PhaseResult::collective_fit_misses) with a warning: its PhaseET rests on a guess of
//   the collective's time at N;
// - the time by which its PhaseET may be long (PhaseResult::overlap_allowance): the steps start
//   the exchanges that follow a collective with every loaded rank together, where at N its
//   members leave it spread over exit_spread_at_n, and a member that leaves late finds its
//   neighbours' messages there.
void judge_fitted_phases(const core::ScaledTrace& trace, const std::vector<int>& phases,
                         ReplayResult& result);

}  // namespace p3s::replay
