#include "sim/fluid_sharing.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace p3s::sim {
namespace {

constexpr double kInfinite = std::numeric_limits<double>::infinity();
// A group's clock is rebased once it passes this many times the least amount joined since it
// last was: a rider's virtual finish less the clock then keeps its amount to about 1e-10.
constexpr double kRebaseRatio = 1 << 20;

}  // namespace

FluidSharing::Resource FluidSharing::add_resource(double capacity, bool shared) {
  ResourceState r;
  r.capacity = capacity;
  r.shared = shared;
  r.level = capacity;
  resources_.push_back(std::move(r));
  return static_cast<Resource>(resources_.size() - 1);
}

void FluidSharing::add_weight(ResourceState& r, double weight) {
  const auto it = std::find_if(r.weights.begin(), r.weights.end(),
                               [weight](const auto& w) { return w.first == weight; });
  if (it == r.weights.end()) {
    r.weights.emplace_back(weight, 1);
  } else {
    ++it->second;
  }
}

void FluidSharing::remove_weight(ResourceState& r, double weight) {
  const auto it = std::find_if(r.weights.begin(), r.weights.end(),
                               [weight](const auto& w) { return w.first == weight; });
  if (--it->second == 0) r.weights.erase(it);
}

double FluidSharing::cap_elsewhere(const FlowState& f, Resource except) const {
  double cap = f.bound;
  for (const Use& u : f.uses) {
    if (u.resource == except) continue;
    const ResourceState& r = resources_[u.resource];
    cap = std::min(cap, r.level / f.penalty);
  }
  return cap;
}

double FluidSharing::current_rate(const FlowState& f) const {
  return f.group == kNoGroup ? f.rate : groups_[f.group].level / f.penalty;
}

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

void FluidSharing::level_of(Resource id, double now) {
  ResourceState& r = resources_[id];
  if (!r.shared) return level_of_fatpipe(r, id);
  r.forming = false;
  if (keeps_even_share(id)) return;
  // Water-filling: the level t where the sum over members of a * min(cap, t / p) is the
  // capacity, a member's cap being the least it may take elsewhere (its bound, its other
  // resources' levels): members held back elsewhere are served first and leave the rest.
  std::erase_if(r.members, [this](const Member& m) { return !runs(m); });
  scratch_.clear();
  double weight = 0;
  r.load = 0;
  for (const Member& m : r.members) {
    const FlowState& f = flows_[m.flow];
    const double w = m.coefficient / f.penalty;
    weight += w;
    r.load += m.coefficient * current_rate(f);
    scratch_.emplace_back(cap_elsewhere(f, id) * f.penalty, w);
  }
  // The riders of a group take an even share of its resource, the least of their levels
  // elsewhere: here they count as one member of their summed weight.
  for (const RiderShare& share : r.shares) {
    const Group& g = groups_[share.group];
    weight += share.weight;
    r.load += share.weight * g.level;
    scratch_.emplace_back(resources_[g.resource].level, share.weight);
  }
  if (weight <= 0) {
    dissolve(now, id);
    r.level = kInfinite;
    return;
  }
  // A flow alone on a resource may take all of it, whatever it may take elsewhere: its rate
  // is the least of the two either way, and a level that does not follow its other resources
  // need not be levelled again when they move (the N senders to one root each alone on their
  // own link).
  if (r.running == 1) {
    dissolve(now, id);
    r.level = r.capacity / weight;
    return;
  }
  // Most often every member can take an even share: no sort then, and a group once they are
  // enough.
  const double even = r.capacity / weight;
  const double floor = std::min_element(scratch_.begin(), scratch_.end())->first;
  if (floor >= even) {
    r.level = even;
    if (r.group != kNoGroup) {
      Group& g = groups_[r.group];
      g.weight = weight;
      g.floor = floor;
      g.caps_moved = false;
      g.unchecked = 0;
      g.recheck.clear();
    } else if (r.running >= kGroupMin) {
      r.forming = true;
      forming_.push_back(id);
    }
    return;
  }
  dissolve(now, id);
  std::sort(scratch_.begin(), scratch_.end());
  double left = r.capacity;
  for (const auto& [saturation, w] : scratch_) {
    if (left / weight <= saturation) break;
    left -= w * saturation;
    weight -= w;
  }
  r.level = weight > 0 ? left / weight : kInfinite;
}

// SimGrid's maximum constraint: each flow's own use at most the capacity, the level rising
// until the heaviest flow not yet held back elsewhere reaches it.
void FluidSharing::level_of_fatpipe(ResourceState& r, Resource id) {
  if (r.weights.size() <= 1) {
    // One weight: the level it sets holds whatever the flows may take elsewhere.
    r.level = r.weights.empty() ? kInfinite : r.capacity / r.weights.front().first;
    return;
  }
  std::erase_if(r.members, [this](const Member& m) { return !runs(m); });
  r.level = kInfinite;
  // A flow that reaches the capacity here as it reaches its limit elsewhere still sets the
  // level, as the constraints saturate together in SimGrid's solver.
  for (const Member& m : r.members) {
    const FlowState& f = flows_[m.flow];
    if (m.coefficient * cap_elsewhere(f, id) >= r.capacity * (1 - kRateTolerance))
      r.level = std::min(r.level, r.capacity * f.penalty / m.coefficient);
  }
}

double FluidSharing::rate_of(const FlowState& f) const {
  return cap_elsewhere(f, kNoResource);
}

std::uint32_t& FluidSharing::heap_index(Flow entry) {
  return (entry & kGroupTag) != 0 ? groups_[entry & ~kGroupTag].heap_index
                                  : flows_[entry].heap_index;
}

void FluidSharing::place(std::size_t index, HeapEntry entry) {
  heap_[index] = entry;
  heap_index(entry.flow) = static_cast<std::uint32_t>(index);
}

void FluidSharing::push_entry(HeapEntry entry) {
  heap_.push_back(entry);
  sift_up(heap_.size() - 1);
}

void FluidSharing::remove_entry(std::size_t index) {
  const HeapEntry last = heap_.back();
  heap_.pop_back();
  if (index == heap_.size()) return;
  place(index, last);
  sift_up(index);
  sift_down(heap_index(last.flow));
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
  f.bound = std::isfinite(bound) && bound > 0 ? bound : std::numeric_limits<double>::infinity();
  f.penalty = penalty > 0 ? penalty : 1.0;
  f.uses = uses;
  f.running = true;
  f.finish = kInfinite;
  f.group = kNoGroup;
  push_entry({kInfinite, id});
  ++f.generation;
  ++running_;
  // The most it may ever take: its bound, and no resource's capacity exceeded by it alone.
  double ceiling = f.bound;
  for (const Use& u : uses)
    ceiling = std::min(ceiling, resources_[u.resource].capacity / u.coefficient);
  // A flow rides one group at most: of the groups it would join, all but the first end.
  bool grouped = false;
  for (const Use& u : uses) {
    ResourceState& r = resources_[u.resource];
    if (r.group != kNoGroup && grouped) dissolve(now, u.resource);
    if (unfilled(r)) r.arriving += u.coefficient * ceiling;
    const bool followed = follows_caps(r);
    if (!r.shared) add_weight(r, u.coefficient / f.penalty);
    if (r.group != kNoGroup) {
      grouped = true;
      groups_[r.group].weight += u.coefficient / f.penalty;
      ++groups_[r.group].unchecked;
    }
    // Members of ended flows go when they outnumber the running ones: a resource that is
    // not levelled again (unfilled, or FATPIPE) drops none otherwise.
    if (r.members.size() > 2 * static_cast<std::size_t>(r.running) + 16)
      std::erase_if(r.members, [this](const Member& m) { return !runs(m); });
    r.members.push_back({id, f.generation, u.coefficient});
    ++r.running;
    if (live_groups_ > 0 && follows_caps(r) != followed) neighbours_change(u.resource, 1);
  }
  mark_dirty(uses);
  unrated_.push_back(id);
  return id;
}

void FluidSharing::mark_dirty(std::span<const Use> uses) {
  for (const Use& u : uses) {
    ResourceState& r = resources_[u.resource];
    if (r.dirty) continue;
    r.dirty = true;
    dirty_.push_back(u.resource);
  }
}

void FluidSharing::settle(double now) {
  if (dirty_.empty() && unrated_.empty()) return;
  // A resource its flows do not fill (its level infinite, as the links back of a linear
  // reduce's N messages, which carry 5 % of them) is not levelled again when their other
  // resources move: it stays so while what they take fits. Once the flows are rated, one
  // that no longer fits is levelled, and the levels are settled again from there.
  do {
    level_until_fixed(now);
    // The flows of every resource whose level moved are rated by the levels reached (a
    // group's by its clock); the others keep their rates (a level that did not move gives
    // what it gave), but for the flows started now, whatever their resources: a flow on a
    // grouped resource rides its group.
    for (const Resource id : moved_) {
      const ResourceState& r = resources_[id];
      if (r.group != kNoGroup) {
        follow_level(now, r.group);
        continue;
      }
      for (const Member& m : r.members) {
        if (runs(m)) rerate(now, flows_[m.flow]);
      }
    }
    moved_.clear();
    for (const Flow id : unrated_) {
      const FlowState& f = flows_[id];
      if (!f.running || f.group != kNoGroup) continue;
      const auto grouped = std::find_if(f.uses.begin(), f.uses.end(), [this](const Use& u) {
        return resources_[u.resource].group != kNoGroup;
      });
      if (grouped == f.uses.end()) {
        rerate(now, flows_[id]);
      } else {
        join(now, resources_[grouped->resource].group, id);
      }
    }
    unrated_.clear();
  } while (fills_again());
}

void FluidSharing::level_until_fixed(double now) {
  // The resources whose members changed are levelled again. A resource whose level changed
  // changes what its flows may take elsewhere, so their other resources are levelled in turn,
  // and so on until no level changes: max-min's fixed point. (Stopping short of it leaves
  // levels that do not agree, and rates far off: +96 % on a fat tree.) Where the levels do not
  // move, as around a stencil's exchange, it stops at the flows' own links.
  work_.clear();
  for (const Resource id : filled_) enqueue(id);
  filled_.clear();
  // (A group ended while levelling marks its riders' resources dirty: they are taken too.)
  for (std::size_t next = 0;; ++next) {
    take_dirty();
    if (next == work_.size()) break;
    const Resource id = work_[next];
    ResourceState& r = resources_[id];
    r.queued = false;
    const double before = r.level;
    level_of(id, now);
    // (A level that became infinite moved, however near the tolerance's product with it.)
    if (r.level == before ||
        (r.level != kInfinite && std::abs(r.level - before) <= kRateTolerance * r.level))
      continue;
    moved_.push_back(id);
    spread_move(id);
  }
  for (const Resource id : forming_) {
    if (resources_[id].forming && resources_[id].group == kNoGroup) form_group(now, id);
    resources_[id].forming = false;
  }
  forming_.clear();
}

void FluidSharing::spread_move(Resource id) {
  const ResourceState& r = resources_[id];
  if (r.group != kNoGroup) {
    for (const auto& [other, neighbour] : groups_[r.group].neighbours) note_caps_moved(other);
    return;
  }
  // A group whose riders cross it sees their saturation fall to its level, at most: it is
  // levelled again if that is below what it last saw.
  for (const RiderShare& share : r.shares) {
    Group& g = groups_[share.group];
    if (r.level >= g.floor) continue;
    g.floor = r.level;
    enqueue(g.resource);
  }
  for (const Member& m : r.members) {
    if (!runs(m)) continue;
    for (const Use& u : flows_[m.flow].uses) {
      if (u.resource == id) continue;
      // A member of a grouped resource that does not ride it started now (a sender's own
      // link moves as its message starts): the group checks it again, not all its riders.
      ResourceState& other = resources_[u.resource];
      if (other.group == kNoGroup) {
        note_caps_moved(u.resource);
      } else {
        groups_[other.group].recheck.push_back(m.flow);
        enqueue(u.resource);
      }
    }
  }
}

void FluidSharing::take_dirty() {
  for (const Resource id : dirty_) {
    ResourceState& r = resources_[id];
    r.dirty = false;
    // Still unfilled if the flows started on it cannot fill it, whatever their rates, and
    // more than one runs (a lone flow's link is not unfilled).
    if (!unfilled(r) || r.running == 1 || r.load + r.arriving >= r.capacity * (1 - kUnfilledMargin))
      enqueue(id);
    r.arriving = 0;
  }
  dirty_.clear();
}

void FluidSharing::rerate(double now, FlowState& f) {
  if (f.group != kNoGroup) return;  // its group's clock rates it
  const double rate = rate_of(f);
  if (f.rate != 0 && std::abs(rate - f.rate) <= kRateTolerance * rate) return;
  add_load(f, rate - f.rate);
  f.remaining = std::max(0.0, f.remaining - f.rate * (now - f.last));
  f.last = now;
  f.rate = rate;
  schedule(f);
}

void FluidSharing::add_load(const FlowState& f, double change) {
  for (const Use& u : f.uses) {
    ResourceState& r = resources_[u.resource];
    if (!r.shared) continue;
    r.load += u.coefficient * change;
    // A resource its flows do not fill that they take more of may fill now (settle()).
    if (change > 0 && unfilled(r) && !r.growing) {
      r.growing = true;
      growing_.push_back(u.resource);
    }
  }
}

bool FluidSharing::fills_again() {
  for (const Resource id : growing_) {
    ResourceState& r = resources_[id];
    r.growing = false;
    if (unfilled(r) && r.load >= r.capacity * (1 - kUnfilledMargin)) filled_.push_back(id);
  }
  growing_.clear();
  return !filled_.empty();
}

void FluidSharing::enqueue(Resource id) {
  ResourceState& r = resources_[id];
  if (r.queued) return;
  r.queued = true;
  work_.push_back(id);
}

std::optional<std::pair<double, FluidSharing::Flow>> FluidSharing::next_finish() const {
  if (heap_.empty() || heap_.front().finish == kInfinite) return std::nullopt;
  const Flow entry = heap_.front().flow;
  const Flow flow =
      (entry & kGroupTag) != 0 ? groups_[entry & ~kGroupTag].riders.front().flow : entry;
  return std::make_pair(heap_.front().finish, flow);
}

void FluidSharing::finish(Flow id) {
  FlowState& f = flows_[id];
  if (f.group == kNoGroup) {
    remove_entry(f.heap_index);
  } else {
    // The first rider to reach its finish on the group's clock.
    const std::uint32_t group = f.group;
    Group& g = groups_[group];
    pop_rider(g);
    for (const Use& u : f.uses) {
      if (u.resource != g.resource) share(f, u, -1);
    }
    f.rate = g.level / f.penalty;
    f.group = kNoGroup;
    if (g.riders.empty()) {
      g.clock = 0;
      g.smallest = kInfinite;
    }
    schedule_group(group);
  }
  f.running = false;
  --running_;
  add_load(f, -f.rate);
  for (const Use& u : f.uses) {
    ResourceState& r = resources_[u.resource];
    const bool followed = follows_caps(r);
    if (!r.shared) remove_weight(r, u.coefficient / f.penalty);
    if (r.group != kNoGroup) {
      Group& g = groups_[r.group];
      g.weight = r.running > 1 ? g.weight - u.coefficient / f.penalty : 0;
    }
    --r.running;
    if (live_groups_ > 0 && follows_caps(r) != followed) neighbours_change(u.resource, -1);
  }
  mark_dirty(f.uses);
  free_.push_back(id);
}

void FluidSharing::advance(double now, Group& g) {
  g.clock += g.level * (now - g.clock_at);
  g.clock_at = now;
}

void FluidSharing::form_group(double now, Resource id) {
  // A flow rides one group: a resource that riders of another cross stays without one.
  if (!resources_[id].shares.empty()) return;
  std::uint32_t group = 0;
  if (free_groups_.empty()) {
    groups_.emplace_back();
    group = static_cast<std::uint32_t>(groups_.size() - 1);
  } else {
    group = free_groups_.back();
    free_groups_.pop_back();
  }
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
  HeapEntry& entry = heap_[g.heap_index];
  const double before = entry.finish;
  entry.finish = finish;
  if (finish < before) {
    sift_up(g.heap_index);
  } else {
    sift_down(g.heap_index);
  }
}

void FluidSharing::push_rider(Group& g, Rider rider) {
  std::size_t index = g.riders.size();
  g.riders.push_back(rider);
  while (index > 0) {
    const std::size_t parent = (index - 1) / 2;
    if (!(rider.finish < g.riders[parent].finish)) break;
    g.riders[index] = g.riders[parent];
    index = parent;
  }
  g.riders[index] = rider;
}

void FluidSharing::pop_rider(Group& g) {
  const Rider last = g.riders.back();
  g.riders.pop_back();
  if (g.riders.empty()) return;
  std::size_t index = 0;
  for (;;) {
    std::size_t child = 2 * index + 1;
    if (child >= g.riders.size()) break;
    if (child + 1 < g.riders.size() && g.riders[child + 1].finish < g.riders[child].finish) ++child;
    if (!(g.riders[child].finish < last.finish)) break;
    g.riders[index] = g.riders[child];
    index = child;
  }
  g.riders[index] = last;
}

void FluidSharing::rebase(Group& g) {
  // Subtracting the clock from every finish keeps their order.
  for (Rider& rider : g.riders) rider.finish -= g.clock;
  g.clock = 0;
  g.smallest = kInfinite;
}

}  // namespace p3s::sim
