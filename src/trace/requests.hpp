#pragma once
// The requests the program has in flight, with the message each carries.
#include <mpi.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

#include "core/event.hpp"
#include "trace/communicators.hpp"

namespace p3s::trace {

struct RequestInfo {
  std::int64_t id = core::kNone;  // the id the trace names it by
  // Sends and non-blocking collectives: their completion reports the message as posted.
  bool send = false;
  bool persistent = false;
  // A persistent request is active from its start to its completion; others always are.
  bool active = true;
  std::int32_t comm = 0;
  std::int32_t peer = core::kNone;  // world rank; core::kAnySource for a wildcard receive
  std::int32_t tag = core::kNone;
  std::int64_t bytes = 0;  // posted size
  // A wildcard receive names its actual source at completion through these.
  std::shared_ptr<const WorldRanks> wildcard_peers = nullptr;
};

// Requests by handle value. Ids count up from 0 per rank.
//
// Several live requests can share one handle: Open MPI returns the same predefined, already
// complete request for every small send it could finish at once (ob1's inline sends). Such
// requests queue behind the handle and are matched to completions oldest first, the order in
// which programs usually wait for them.
//
// The map's nodes are recycled, so a steady stream of requests (isend/irecv/wait in a loop)
// does not allocate.
class RequestTable {
 public:
  // Registers a request the program just created; returns its id.
  std::int64_t add(MPI_Request handle, RequestInfo info);
  // The oldest live request with this handle, or nullptr.
  RequestInfo* find(MPI_Request handle);
  // Forgets the oldest live request with this handle.
  void forget(MPI_Request handle);

 private:
  using Map = std::unordered_map<MPI_Request, RequestInfo>;
  Map by_handle_;
  std::vector<Map::node_type> spare_nodes_;
  // Requests behind the one in by_handle_ that share its handle, oldest first.
  std::unordered_map<MPI_Request, std::deque<RequestInfo>> sharing_handle_;
  std::size_t queued_ = 0;  // requests waiting in sharing_handle_: none, no lookup there
  std::int64_t next_id_ = 0;
};

}  // namespace p3s::trace
