#pragma once
// A rank's unmatched receives, or the sends to it not yet received: matched as MPI matches
// them, the first entry of the same (communicator, other rank, tag) first. Usually a handful,
// kept in a list; a rank that a linear collective's N messages reach holds N, and the list is
// then indexed by that triple, so that matching stays O(1) instead of O(N) per message.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

#include "sim/message_port.hpp"

namespace p3s::sim {

template <typename Posted>
class FluidMatchQueue {
 public:
  void push(const MessageStream& key, const Posted& posted) {
    ++size_;
    if (!indexed_) {
      list_.push_back({key, posted});
      if (list_.size() > kListLimit) index();
      return;
    }
    index_[key].push_back(posted);
  }

  // Takes the first entry of `key` out into `found`.
  bool take(const MessageStream& key, Posted& found) {
    if (!indexed_) {
      for (auto it = list_.begin(); it != list_.end(); ++it) {
        if (it->key == key) {
          found = it->posted;
          list_.erase(it);
          --size_;
          return true;
        }
      }
      return false;
    }
    const auto it = index_.find(key);
    if (it == index_.end()) return false;
    found = it->second.front();
    it->second.pop_front();
    if (it->second.empty()) index_.erase(it);
    if (--size_ == 0) {
      indexed_ = false;
      index_ = {};
    }
    return true;
  }

  std::size_t size() const { return size_; }

 private:
  static constexpr std::size_t kListLimit = 32;
  struct Entry {
    MessageStream key;
    Posted posted;
  };

  void index() {
    for (const Entry& e : list_) index_[e.key].push_back(e.posted);
    list_ = {};
    indexed_ = true;
  }

  std::vector<Entry> list_;
  std::unordered_map<MessageStream, std::deque<Posted>, MessageStreamHash> index_;
  bool indexed_ = false;
  std::size_t size_ = 0;
};

}  // namespace p3s::sim
