#include "sim/fluid_sharing.hpp"

#include <algorithm>
#include <limits>

namespace p3s::sim {
namespace {

constexpr double kInfinite = std::numeric_limits<double>::infinity();

}  // namespace

FluidSharing::Resource FluidSharing::add_resource(double capacity, bool shared) {
  resources_.push_back({capacity, shared, capacity, {}});
  return static_cast<Resource>(resources_.size() - 1);
}

void FluidSharing::level_of(ResourceState& r) {
  // Water-filling: the level t where sum over members of a * min(bound, t / p) = capacity;
  // members whose bound is below their share are served first and leave the rest.
  double weight = 0;
  for (const Member& m : r.members) weight += m.coefficient / flows_[m.flow].penalty;
  if (weight <= 0) {
    r.level = kInfinite;
    return;
  }
  double level = r.capacity / weight;
  bool all_above = true;
  for (const Member& m : r.members) {
    const FlowState& f = flows_[m.flow];
    if (f.bound * f.penalty < level) {
      all_above = false;
      break;
    }
  }
  if (all_above) {
    r.level = level;
    return;
  }
  scratch_.clear();
  for (const Member& m : r.members) {
    const FlowState& f = flows_[m.flow];
    scratch_.emplace_back(f.bound * f.penalty, m.coefficient / f.penalty);
  }
  std::sort(scratch_.begin(), scratch_.end());
  double left = r.capacity;
  for (const auto& [saturation, w] : scratch_) {
    if (left / weight <= saturation) break;
    left -= w * saturation;
    weight -= w;
  }
  r.level = weight > 0 ? left / weight : kInfinite;
}

double FluidSharing::rate_of(const FlowState& f) const {
  double rate = f.bound;
  for (const Use& u : f.uses) {
    const ResourceState& r = resources_[u.resource];
    rate = std::min(rate, r.shared ? r.level / f.penalty : r.capacity);
  }
  return rate;
}

void FluidSharing::place(std::size_t index, HeapEntry entry) {
  heap_[index] = entry;
  flows_[entry.flow].heap_index = static_cast<std::uint32_t>(index);
}

void FluidSharing::sift_up(std::size_t index) {
  const HeapEntry entry = heap_[index];
  while (index > 0) {
    const std::size_t parent = (index - 1) / 2;
    if (!(entry.finish < heap_[parent].finish)) break;
    place(index, heap_[parent]);
    index = parent;
  }
  place(index, entry);
}

void FluidSharing::sift_down(std::size_t index) {
  const HeapEntry entry = heap_[index];
  for (;;) {
    std::size_t child = 2 * index + 1;
    if (child >= heap_.size()) break;
    if (child + 1 < heap_.size() && heap_[child + 1].finish < heap_[child].finish) ++child;
    if (!(heap_[child].finish < entry.finish)) break;
    place(index, heap_[child]);
    index = child;
  }
  place(index, entry);
}

void FluidSharing::schedule(FlowState& f) {
  const double before = f.finish;
  f.finish = f.rate > 0 ? f.last + f.remaining / f.rate : kInfinite;
  heap_[f.heap_index].finish = f.finish;
  if (f.finish < before) {
    sift_up(f.heap_index);
  } else {
    sift_down(f.heap_index);
  }
}

FluidSharing::Flow FluidSharing::start(double now, double amount, double bound, double penalty,
                                       std::span<const Use> uses) {
  Flow id = 0;
  if (free_.empty()) {
    flows_.emplace_back();
    id = static_cast<Flow>(flows_.size() - 1);
  } else {
    id = free_.back();
    free_.pop_back();
  }
  FlowState& f = flows_[id];
  f.remaining = amount;
  f.rate = 0;
  f.last = now;
  f.bound = bound > 0 ? bound : kInfinite;
  f.penalty = penalty > 0 ? penalty : 1.0;
  f.uses = uses;
  f.running = true;
  f.finish = kInfinite;
  heap_.push_back({kInfinite, id});
  f.heap_index = static_cast<std::uint32_t>(heap_.size() - 1);
  ++running_;
  for (const Use& u : uses) resources_[u.resource].members.push_back({id, u.coefficient});
  rerate_around(now, uses);
  return id;
}

void FluidSharing::rerate_around(double now, std::span<const Use> uses) {
  ++stamp_;
  for (const Use& u : uses) {
    ResourceState& r = resources_[u.resource];
    if (r.shared) level_of(r);
  }
  for (const Use& u : uses) {
    for (const Member& m : resources_[u.resource].members) {
      FlowState& f = flows_[m.flow];
      if (f.stamp == stamp_) continue;
      f.stamp = stamp_;
      const double rate = rate_of(f);
      if (rate == f.rate) continue;
      f.remaining = std::max(0.0, f.remaining - f.rate * (now - f.last));
      f.last = now;
      f.rate = rate;
      schedule(f);
    }
  }
}

std::optional<std::pair<double, FluidSharing::Flow>> FluidSharing::next_finish() {
  if (heap_.empty() || heap_.front().finish == kInfinite) return std::nullopt;
  return std::make_pair(heap_.front().finish, heap_.front().flow);
}

void FluidSharing::finish(double now, Flow id) {
  FlowState& f = flows_[id];
  const std::size_t index = f.heap_index;
  place(index, heap_.back());
  heap_.pop_back();
  if (index < heap_.size()) {
    sift_up(index);
    sift_down(flows_[heap_[index].flow].heap_index);
  }
  f.running = false;
  --running_;
  for (const Use& u : f.uses) {
    std::vector<Member>& members = resources_[u.resource].members;
    const auto it = std::find_if(members.begin(), members.end(),
                                 [id](const Member& m) { return m.flow == id; });
    *it = members.back();
    members.pop_back();
  }
  rerate_around(now, f.uses);
  free_.push_back(id);
}

}  // namespace p3s::sim
