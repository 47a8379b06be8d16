#pragma once
// Oversubscribed hosts: when a host runs more ranks than it has cores, MPI ranks that wait poll
// and yield, so every communication round costs each rank turns of the OS scheduler, which
// SimGrid's sharing of cores between computing actors does not model. A host property
// (kSharedCoreRound, seconds per round per extra rank per core) makes each rank sleep after its
// blocking MPI calls: rounds x kSharedCoreRound x (R / C - 1) on a host of C cores and R ranks.
#include <cstdint>
#include <map>
#include <vector>

#include "core/op.hpp"
#include "core/rank_program.hpp"

namespace simgrid::s4u {
class Host;
}

namespace p3s::sim {

// How many of the ranks (`host_of`: each rank's index into `hosts`) each host holds; a host
// listed twice in `hosts` (a host file naming it per slot) is one host.
std::map<const simgrid::s4u::Host*, int> ranks_on_hosts(
    const std::vector<simgrid::s4u::Host*>& hosts, const std::vector<int>& host_of);

// Per rank, the seconds one round of its blocking calls costs: kSharedCoreRound x (R / C - 1)
// on a host whose R ranks (of `host_of`, the host of every rank) outnumber its C cores and that
// has the property, else 0. A host listed twice in `hosts` (a host file naming it per slot) is
// one host. Throws std::runtime_error naming a host whose property is no number of seconds.
std::vector<double> shared_core_round_delays(const std::vector<simgrid::s4u::Host*>& hosts,
                                             const std::vector<int>& host_of);

// The communication rounds of a call: 1 for blocking point-to-point calls and for waits that
// complete `completed` > 0 requests, ceil(log2 `comm_size`) for blocking collectives, 0 for
// anything that returns without waiting (non-blocking calls, tests, probes, peers that are
// MPI_PROC_NULL). `has_peer`: the point-to-point call names a real rank.
std::int64_t blocking_rounds(core::Op op, bool has_peer, std::uint32_t completed, int comm_size);
// The rounds of a program step's call; `comm_size`: its communicator's size for a collective.
std::int64_t step_rounds(const core::ProgramStep& step, int comm_size);

}  // namespace p3s::sim
