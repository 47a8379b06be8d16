#pragma once
// A rank's requests in the fluid engine: started, then done, then waited for. Usually a
// handful, kept in a list; a linear collective's root has N at once, and they are then indexed
// by id, so that completing and waiting stay O(1) instead of O(N) each.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace p3s::sim {

struct FluidRequest {
  std::int64_t req = 0;
  bool done = false;
  bool eager = false;     // a receive whose message came eagerly
  double eager_recv = 0;  // smpi/or for it
};

class FluidRequests {
 public:
  void add(std::int64_t req) {
    if (index_) {
      index_->emplace(req, FluidRequest{req});
      return;
    }
    list_.push_back({req});
    if (list_.size() > kListLimit) {
      index_ = std::make_unique<std::unordered_map<std::int64_t, FluidRequest>>();
      for (const FluidRequest& r : list_) index_->emplace(r.req, r);
      list_ = {};
    }
  }

  FluidRequest* find(std::int64_t req) {
    if (index_) {
      const auto it = index_->find(req);
      return it == index_->end() ? nullptr : &it->second;
    }
    for (FluidRequest& r : list_) {
      if (r.req == req) return &r;
    }
    return nullptr;
  }

  void remove(std::int64_t req) {
    if (index_) {
      index_->erase(req);
      if (index_->empty()) index_.reset();
      return;
    }
    for (FluidRequest& r : list_) {
      if (r.req != req) continue;
      r = list_.back();
      list_.pop_back();
      return;
    }
  }

  bool empty() const { return index_ ? index_->empty() : list_.empty(); }
  // Some request still here (for an error message).
  std::int64_t any() const { return index_ ? index_->begin()->first : list_.front().req; }

 private:
  static constexpr std::size_t kListLimit = 32;
  std::vector<FluidRequest> list_;
  std::unique_ptr<std::unordered_map<std::int64_t, FluidRequest>> index_;
};

}  // namespace p3s::sim
