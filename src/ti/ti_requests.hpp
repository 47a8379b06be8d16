#pragma once
// The requests one rank of a TI trace has started and not yet seen complete.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/event.hpp"

namespace p3s::ti {

// How TI wait and test lines name a request: source, destination and tag as SMPI writes them
// (world ranks, kTiUndefinedPeer, kTiAnyTag).
struct TiRequestKey {
  std::int64_t src = 0;
  std::int64_t dst = 0;
  std::int64_t tag = 0;
};

struct TiPendingRequest {
  TiRequestKey key;
  // A non-blocking collective. Its wait names it by an internal negative tag and peers that
  // vary from rank to rank, so it is matched by that tag alone.
  bool collective = false;
  // A started persistent receive: TI names only its destination (this rank), so any source
  // matches, and the wait that completes it names the source.
  bool source_unknown = false;
  core::RequestRecord record;            // the completion record, as far as the start tells it
  std::optional<std::size_t> tested_by;  // event index of the last test that named it
};

// Kept in the order the rank started them, so that requests with the same key complete first
// come, first served, as MPI orders messages of one source and tag.
class TiPendingRequests {
 public:
  void add(TiPendingRequest request) { pending_.push_back(request); }
  // Index of the oldest pending request a wait or test line names.
  std::optional<std::size_t> find(const TiRequestKey& key) const;
  TiPendingRequest& at(std::size_t index) { return pending_.at(index); }
  TiPendingRequest take(std::size_t index);
  std::vector<TiPendingRequest> take_all();
  bool empty() const { return pending_.empty(); }

 private:
  std::vector<TiPendingRequest> pending_;
};

}  // namespace p3s::ti
