#include "sim/fluid_sharing.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/free_slots.hpp"

namespace p3s::sim {
namespace {

constexpr double kInfinite = std::numeric_limits<double>::infinity();

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

void FluidSharing::level_of(Resource id, double now) {
  ResourceState& r = resources_[id];
  if (!r.shared) return level_of_fatpipe(r, id);
  r.forming = false;
  r.even = keeps_even_share(id);
  if (r.even) return;
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
    r.even = true;
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
  f.finish = f.rate > 0 ? f.last + f.remaining / f.rate : kInfinite;
  move_entry(f.heap_index, f.finish);
}

void FluidSharing::move_entry(std::size_t index, double finish) {
  const double before = heap_[index].finish;
  heap_[index].finish = finish;
  if (finish < before) {
    sift_up(index);
  } else {
    sift_down(index);
  }
}

FluidSharing::Flow FluidSharing::start(double now, double amount, double bound, double penalty,
                                       std::span<const Use> uses) {
  const Flow id = take_slot(flows_, free_);
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
  f.rated = rating_;  // the next pass rates it
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
    ++rating_;
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
    for (const auto& [other, neighbour] : groups_[r.group].neighbours)
      note_caps_moved(other, r.level);
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
        note_caps_moved(u.resource, r.level);
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
  // A rider's group clock rates it; a flow rated in this pass has its rate by these levels.
  if (f.group != kNoGroup || f.rated == rating_) return;
  f.rated = rating_;
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

}  // namespace p3s::sim
