#include "trace/requests.hpp"

#include <utility>

namespace p3s::trace {

std::int64_t RequestTable::add(MPI_Request handle, RequestInfo info) {
  info.id = next_id_++;
  std::int64_t id = info.id;
  if (by_handle_.contains(handle)) {
    sharing_handle_[handle].push_back(std::move(info));
    ++queued_;
    return id;
  }
  if (spare_nodes_.empty()) {
    by_handle_.emplace(handle, std::move(info));
    return id;
  }
  Map::node_type node = std::move(spare_nodes_.back());
  spare_nodes_.pop_back();
  node.key() = handle;
  node.mapped() = std::move(info);
  by_handle_.insert(std::move(node));
  return id;
}

RequestInfo* RequestTable::find(MPI_Request handle) {
  auto found = by_handle_.find(handle);
  return found == by_handle_.end() ? nullptr : &found->second;
}

void RequestTable::forget(MPI_Request handle) {
  auto found = by_handle_.find(handle);
  if (found == by_handle_.end()) return;
  if (queued_ != 0) {
    // Emptied queues stay, with their storage, for the next window of such requests.
    if (auto queue = sharing_handle_.find(handle);
        queue != sharing_handle_.end() && !queue->second.empty()) {
      found->second = std::move(queue->second.front());
      queue->second.pop_front();
      --queued_;
      return;
    }
  }
  spare_nodes_.push_back(by_handle_.extract(found));
  // The node keeps no reference to a communicator's ranks while it waits for reuse.
  spare_nodes_.back().mapped().wildcard_peers.reset();
}

}  // namespace p3s::trace
