#pragma once
// Which world ranks make up each communicator the program uses, and its id in the trace.
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace p3s::trace {

class TraceWriter;

using WorldRanks = std::vector<std::int32_t>;

struct CommunicatorInfo {
  std::int32_t id = -1;      // id in this rank's trace (0 world, 1 self)
  std::int32_t my_rank = 0;  // this process's rank in the communicator
  std::int32_t my_world_rank = 0;
  std::int32_t local_size = 0;
  bool inter = false;
  // False when a member is outside MPI_COMM_WORLD (dynamic processes): the trace cannot name
  // it, so calls on this communicator are not recorded.
  bool recordable = true;
  // World rank of each rank a call on this communicator can name: its members, or for an
  // intercommunicator the remote group. Shared with wildcard receives still in flight, which
  // name their actual source from it at completion, even after the communicator is freed.
  std::shared_ptr<const WorldRanks> peers;

  std::int32_t peer_count() const { return static_cast<std::int32_t>(peers->size()); }
  // The world rank of `rank` as given to an MPI call on this communicator: MPI_ANY_SOURCE
  // becomes core::kAnySource, MPI_PROC_NULL (or a rank the tracer cannot name) core::kNone.
  std::int32_t world_rank(int rank) const;
};

// Communicators by handle. Those created by wrapped calls are added when created; any other
// (MPI_Intercomm_create, MPI_Comm_idup, ...) is described on first use. Either way its comm
// line goes to the trace when it gets its id, before the event that uses it.
class CommunicatorTable {
 public:
  CommunicatorTable();
  // Defines MPI_COMM_WORLD (id 0) and MPI_COMM_SELF (id 1).
  void start(TraceWriter& writer);
  // Most calls use the same communicator as the call before (usually the world), so the last
  // answer is kept at hand.
  const CommunicatorInfo& lookup(MPI_Comm comm) {
    if (comm == last_handle_) return *last_info_;
    return lookup_slow(comm);
  }
  // A communicator a wrapped call just created: gives it the next id and writes its line.
  const CommunicatorInfo& add(MPI_Comm comm);
  // The program frees the communicator; Open MPI may reuse its handle for a new one.
  void forget(MPI_Comm comm);

 private:
  const CommunicatorInfo& lookup_slow(MPI_Comm comm);
  // The members of `group` as world ranks (MPI_UNDEFINED for processes outside the world).
  WorldRanks world_ranks_of(MPI_Group group) const;

  TraceWriter* writer_ = nullptr;
  MPI_Group world_group_ = MPI_GROUP_NULL;
  std::unordered_map<MPI_Comm, CommunicatorInfo> by_handle_;
  std::int32_t next_id_ = 0;
  // Starts at MPI_COMM_NULL, whose answer is a communicator that is not recorded.
  MPI_Comm last_handle_ = MPI_COMM_NULL;
  const CommunicatorInfo* last_info_;
};

}  // namespace p3s::trace
