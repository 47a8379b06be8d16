// FluidSharing's groups: a shared resource's flows on one virtual clock (fluid_sharing.hpp).
#include <algorithm>
#include <functional>
#include <limits>

#include "sim/fluid_sharing.hpp"
#include "sim/free_slots.hpp"

namespace p3s::sim {
namespace {

constexpr double kInfinite = std::numeric_limits<double>::infinity();
// A group's clock is rebased once it passes this many times the least amount joined since it
// last was: a rider's virtual finish less the clock then keeps its amount to about 1e-10.
constexpr double kRebaseRatio = 1 << 20;

}  // namespace

bool FluidSharing::keeps_even_share(Resource id) {
  ResourceState& r = resources_[id];
  if (r.group == kNoGroup || groups_[r.group].caps_moved || r.running <= 1) return false;
  // Only flows came and went, and none of their other resources moved: the riders may
  // still take an even share if the least any of them may take elsewhere, and what the new
  // ones may, allow it.
  Group& g = groups_[r.group];
  const double even = r.capacity / g.weight;
  double floor = g.floor;
  const auto check = [&](const FlowState& f) {
    floor = std::min(floor, cap_elsewhere(f, id) * f.penalty);
  };
  const std::size_t n = r.members.size();
  for (std::size_t i = n - std::min<std::size_t>(g.unchecked, n); i < n; ++i) {
    if (runs(r.members[i])) check(flows_[r.members[i].flow]);
  }
  for (const Flow flow : g.recheck) {
    if (flows_[flow].running) check(flows_[flow]);
  }
  g.unchecked = 0;
  g.recheck.clear();
  if (floor < even) return false;
  r.level = even;
  g.floor = floor;
  return true;
}

void FluidSharing::advance(double now, Group& g) {
  g.clock += g.level * (now - g.clock_at);
  g.clock_at = now;
}

void FluidSharing::form_group(double now, Resource id) {
  // A flow rides one group: a resource that riders of another cross stays without one.
  if (!resources_[id].shares.empty()) return;
  const std::uint32_t group = take_slot(groups_, free_groups_);
  ResourceState& r = resources_[id];
  r.group = group;
  ++live_groups_;
  Group& g = groups_[group];
  g.resource = id;
  g.clock = 0;
  g.clock_at = now;
  g.level = r.level;
  g.smallest = kInfinite;
  // The members all take an even share: what each may take elsewhere is at least the level.
  g.floor = r.level;
  g.weight = 0;
  g.unchecked = 0;
  g.caps_moved = false;
  // Entering gives each member a new entry here: the old ones go first.
  std::erase_if(r.members, [this](const Member& m) { return !runs(m); });
  forming_members_.swap(r.members);
  r.members.clear();
  for (const Member& m : forming_members_) {
    g.weight += m.coefficient / flows_[m.flow].penalty;
    remove_entry(flows_[m.flow].heap_index);
    enter(now, g, group, m.flow);
  }
  forming_members_.clear();
  schedule_group(group);
}

void FluidSharing::join(double now, std::uint32_t group, Flow flow) {
  Group& g = groups_[group];
  advance(now, g);
  remove_entry(flows_[flow].heap_index);
  if (g.clock > kRebaseRatio * g.smallest) rebase(g);
  enter(now, g, group, flow);
  schedule_group(group);
}

void FluidSharing::enter(double now, Group& g, std::uint32_t group, Flow flow) {
  FlowState& f = flows_[flow];
  f.remaining = std::max(0.0, f.remaining - f.rate * (now - f.last));
  f.last = now;
  const double rate = g.level / f.penalty;
  add_load(f, rate - f.rate);
  f.rate = rate;
  f.group = group;
  const double amount = f.remaining * f.penalty;
  if (amount > 0) g.smallest = std::min(g.smallest, amount);
  push_rider(g, {g.clock + amount, flow});
  // Its entries elsewhere go: on its other shared resources it counts by its group's share.
  ++f.generation;
  for (const Use& u : f.uses) {
    ResourceState& r = resources_[u.resource];
    if (u.resource == g.resource || !r.shared)
      r.members.push_back({flow, f.generation, u.coefficient});
    if (u.resource != g.resource) share(f, u, 1);
  }
}

void FluidSharing::dissolve(double now, Resource id) {
  ResourceState& r = resources_[id];
  if (r.group == kNoGroup) return;
  const std::uint32_t group = r.group;
  Group& g = groups_[group];
  advance(now, g);
  if (g.queued) {
    remove_entry(g.heap_index);
    g.queued = false;
  }
  // Each rider becomes a flow of its own, a member of each of its resources again: they are
  // levelled again, and it is rated again.
  for (const Rider& rider : g.riders) {
    FlowState& f = flows_[rider.flow];
    for (const Use& u : f.uses) {
      if (u.resource != id) share(f, u, -1);
    }
    f.group = kNoGroup;
    ++f.generation;
    for (const Use& u : f.uses)
      resources_[u.resource].members.push_back({rider.flow, f.generation, u.coefficient});
    mark_dirty(f.uses);
    f.rate = g.level / f.penalty;
    f.remaining = std::max(0.0, (rider.finish - g.clock) / f.penalty);
    f.last = now;
    f.finish = now + f.remaining / f.rate;
    push_entry({f.finish, rider.flow});
    unrated_.push_back(rider.flow);
  }
  g.riders.clear();
  g.neighbours.clear();
  r.group = kNoGroup;
  --live_groups_;
  free_groups_.push_back(group);
}

void FluidSharing::follow_level(double now, std::uint32_t group) {
  Group& g = groups_[group];
  advance(now, g);
  const double change = resources_[g.resource].level - g.level;
  if (change == 0) return;
  g.level += change;
  for (const auto& [id, neighbour] : g.neighbours) {
    ResourceState& r = resources_[id];
    if (!r.shared) continue;
    r.load += neighbour.weight * change;
    if (change > 0 && unfilled(r) && !r.growing) {
      r.growing = true;
      growing_.push_back(id);
    }
  }
  schedule_group(group);
}

void FluidSharing::share(const FlowState& f, const Use& use, int sign) {
  ResourceState& r = resources_[use.resource];
  const double weight = use.coefficient / f.penalty;
  if (follows_caps(r)) add_neighbour(f.group, use.resource, weight, 1, sign);
  if (!r.shared) return;  // a FATPIPE link keeps its riders as members
  const auto it = std::find_if(r.shares.begin(), r.shares.end(),
                               [&f](const RiderShare& s) { return s.group == f.group; });
  if (sign > 0) {
    if (it == r.shares.end()) {
      r.shares.push_back({f.group, 1, weight});
    } else {
      ++it->riders;
      it->weight += weight;
    }
  } else if (--it->riders == 0) {
    r.shares.erase(it);
  } else {
    it->weight -= weight;
  }
}

void FluidSharing::add_neighbour(std::uint32_t group, Resource id, double weight,
                                 std::uint32_t riders, int sign) {
  Group& g = groups_[group];
  if (sign > 0) {
    Neighbour& n = g.neighbours[id];
    n.weight += weight;
    n.riders += riders;
    return;
  }
  const auto it = g.neighbours.find(id);
  it->second.riders -= riders;
  if (it->second.riders == 0) {
    g.neighbours.erase(it);
  } else {
    it->second.weight -= weight;
  }
}

void FluidSharing::neighbours_change(Resource id, int sign) {
  const ResourceState& r = resources_[id];
  for (const RiderShare& share : r.shares)
    add_neighbour(share.group, id, share.weight, share.riders, sign);
  if (r.shared) return;
  for (const Member& m : r.members) {
    if (!runs(m)) continue;
    const FlowState& f = flows_[m.flow];
    if (f.group != kNoGroup) add_neighbour(f.group, id, m.coefficient / f.penalty, 1, sign);
  }
}

void FluidSharing::schedule_group(std::uint32_t group) {
  Group& g = groups_[group];
  if (g.riders.empty()) {
    if (g.queued) remove_entry(g.heap_index);
    g.queued = false;
    return;
  }
  const double finish = g.clock_at + std::max(0.0, g.riders.front().finish - g.clock) / g.level;
  if (!g.queued) {
    g.queued = true;
    push_entry({finish, group | kGroupTag});
    return;
  }
  move_entry(g.heap_index, finish);
}

// The riders' heap puts the least finish first.
bool FluidSharing::Rider::operator>(const Rider& other) const {
  return finish > other.finish;
}

void FluidSharing::push_rider(Group& g, Rider rider) {
  g.riders.push_back(rider);
  std::push_heap(g.riders.begin(), g.riders.end(), std::greater<>());
}

void FluidSharing::pop_rider(Group& g) {
  std::pop_heap(g.riders.begin(), g.riders.end(), std::greater<>());
  g.riders.pop_back();
}

void FluidSharing::rebase(Group& g) {
  // Subtracting the clock from every finish keeps their order.
  for (Rider& rider : g.riders) rider.finish -= g.clock;
  g.clock = 0;
  g.smallest = kInfinite;
}

}  // namespace p3s::sim
