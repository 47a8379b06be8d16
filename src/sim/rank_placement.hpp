#pragma once
// Which host each rank runs on.
#include <string>
#include <vector>

#include "sim/sim_options.hpp"

namespace p3s::sim {

// Orders host names as people number them: "node-2" before "node-10".
bool natural_less(const std::string& a, const std::string& b);

// The host index (into a list of `hosts` hosts) of every rank, `ranks_per_host` ranks on each
// of the first ceil(nprocs / ranks_per_host) hosts. Throws when the hosts are too few.
std::vector<int> place_ranks(int nprocs, int hosts, int ranks_per_host, Mapping mapping);

}  // namespace p3s::sim
