#include "model/slot_feeding.hpp"

#include <map>
#include <stdexcept>
#include <utility>

namespace p3s::model {
namespace {

// A point-to-point send of one rank: its slot, tag and destination (a world rank).
struct Sent {
  std::int32_t slot;
  std::int32_t tag;
  std::int64_t to;
};

// Each rank's point-to-point sends, in the order it makes them.
std::vector<std::vector<Sent>> sends_by_rank(const AlignedRun& run) {
  const auto n = static_cast<std::size_t>(run.n);
  std::vector<std::vector<Sent>> sends(n);
  for (std::size_t r = 0; r < n; ++r) {
    for (std::int32_t slot : run.order[r]) {
      const auto& e = run.slot_events[static_cast<std::size_t>(slot)][r];
      if (e && e->dst >= 0 && core::is_point_to_point(e->op)) {
        sends[r].push_back(
            {slot, e->tag, absolute_peer(e->dst, static_cast<std::int64_t>(r), run.n)});
      }
    }
  }
  return sends;
}

// The slot of the k-th of `sends` that goes to rank `to` with `tag`, if there is one.
std::optional<std::int32_t> kth_send(const std::vector<Sent>& sends, std::int64_t to,
                                     std::int32_t tag, std::size_t k) {
  std::size_t seen = 0;
  for (const Sent& sent : sends) {
    if (sent.to != to || sent.tag != tag) continue;
    if (seen++ == k) return sent.slot;
  }
  return std::nullopt;
}

// The send slots whose rule at n sends to every rank the receive slot `s`'s rule receives
// from (an empty list when a rule is undefined at n).
std::vector<std::int32_t> feeders_at(const PhaseModel& phase, std::size_t s, std::int64_t n) {
  std::vector<std::int32_t> found;
  const SlotModel& receive = phase.slots[s];
  const PeerMap from = phase.src_rules->rules[s].at(n, static_cast<std::int64_t>(s));
  for (std::size_t t = 0; t < phase.slots.size(); ++t) {
    const SlotModel& send = phase.slots[t];
    if (!send.sends || send.tag != receive.rtag || !core::is_point_to_point(send.op)) continue;
    const PeerMap to = phase.dst_rules->rules[t].at(n, static_cast<std::int64_t>(t));
    bool feeds = true;
    for (std::int64_t r = 0; r < n && feeds; ++r) {
      const std::int64_t p = from(r);
      feeds = p == kNoPeer || to(p) == r;
    }
    if (feeds) found.push_back(static_cast<std::int32_t>(t));
  }
  return found;
}

}  // namespace

std::vector<std::optional<std::int32_t>> feeding_slots(const AlignedRun& run,
                                                       std::size_t slot_count) {
  const std::vector<std::vector<Sent>> sends = sends_by_rank(run);
  std::vector<std::optional<std::int32_t>> feeder(slot_count);
  std::vector<bool> mixed(slot_count, false);
  for (std::size_t r = 0; r < sends.size(); ++r) {
    std::map<std::pair<std::int64_t, std::int32_t>, std::size_t> taken;  // (peer, tag) -> count
    for (std::int32_t slot : run.order[r]) {
      const auto& e = run.slot_events[static_cast<std::size_t>(slot)][r];
      if (!e || e->src < 0 || !core::is_point_to_point(e->op)) continue;
      const std::int64_t from = absolute_peer(e->src, static_cast<std::int64_t>(r), run.n);
      const std::size_t k = taken[{from, e->rtag}]++;
      const std::optional<std::int32_t> source =
          kth_send(sends[static_cast<std::size_t>(from)], static_cast<std::int64_t>(r), e->rtag, k);
      const auto s = static_cast<std::size_t>(slot);
      if (!source || (feeder[s] && *feeder[s] != *source)) mixed[s] = true;
      feeder[s] = source;
    }
  }
  for (std::size_t s = 0; s < slot_count; ++s) {
    if (mixed[s]) feeder[s].reset();
  }
  return feeder;
}

void decide_feeders_by_rules(const PhaseModel& phase, std::int64_t largest,
                             std::vector<std::optional<std::int32_t>>& feeder) {
  if (!phase.dst_rules || !phase.src_rules) return;
  for (const std::int64_t n : {2 * largest, 3 * largest, 4 * largest}) {
    try {
      for (std::size_t s = 0; s < phase.slots.size(); ++s) {
        if (!phase.slots[s].receives || !core::is_point_to_point(phase.slots[s].op)) continue;
        const std::vector<std::int32_t> found = feeders_at(phase, s, n);
        if (found.size() == 1) feeder[s] = found.front();
      }
      return;
    } catch (const std::domain_error&) {
      continue;  // a rule undefined at that n: try the next
    }
  }
}

}  // namespace p3s::model
