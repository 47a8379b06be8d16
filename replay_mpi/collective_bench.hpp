#pragma once
// The collectives' times at N when a step cannot load all their members: every launched
// process takes part in measuring each collective shape the phases make on communicators of
// the sizes sample_sizes(R) gives, then the fit (collective_fit.hpp) is evaluated at N.
#include <map>
#include <vector>

#include "replay_mpi/collective_call.hpp"
#include "replay_mpi/replay_result.hpp"

namespace p3s::replay {

// Collective; every process calls it with the same shapes. Returns, on every process, each
// shape's time at N; `results` (process 0 only) gets the measurements and fits.
std::map<CollectiveShape, double> measure_collectives(const std::vector<CollectiveShape>& shapes,
                                                      int repetitions,
                                                      std::vector<CollectiveResult>& results);

}  // namespace p3s::replay
