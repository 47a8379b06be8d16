#include "model/trace_consistency.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <map>
#include <tuple>

namespace p3s::model {
namespace {

struct Message {
  std::int32_t from = 0;
  std::int32_t to = 0;
  std::int32_t tag = 0;
  std::int64_t bytes = 0;
  auto operator<=>(const Message&) const = default;
};

struct CollectiveCall {
  core::Op op;
  std::int32_t root;
  auto operator<=>(const CollectiveCall&) const = default;
};

// Point-to-point events whose peers are inside the world; the others are reported once, by
// the rank that names them, and take no part in matching.
bool matchable(const core::Event& e, int n) {
  return core::op_kind(e.op) == core::OpKind::PointToPoint && e.dst < n && e.src < n;
}

// One phase's events of the ranks looked at last. Matching looks at each rank's peers, which
// are near it in most patterns (a ring, a stencil's rows), so a small direct-mapped cache
// regenerates few of them and memory does not grow with N. Its size is prime so that peers at
// a power-of-two distance (a grid's row above, a butterfly's partner) do not evict the rank.
class RankEventCache {
 public:
  RankEventCache(const core::ScaledTrace& trace, int phase) : trace_(trace), phase_(phase) {}

  const std::vector<core::Event>& events(int rank) {
    Entry& entry = entries_[static_cast<std::size_t>(rank) % entries_.size()];
    if (entry.rank != rank) {
      entry.rank = rank;
      entry.events.clear();
      trace_.phase_events(phase_, rank, entry.events);
    }
    return entry.events;
  }

 private:
  struct Entry {
    int rank = -1;
    std::vector<core::Event> events;
  };
  const core::ScaledTrace& trace_;
  int phase_;
  std::vector<Entry> entries_ = std::vector<Entry>(1021);
};

// Messages in `events` (one rank's) that this rank receives from `peer` with this tag and
// size (receive_side), or sends to `peer`.
std::int64_t matching(const std::vector<core::Event>& events, int n, bool receive_side,
                      std::int32_t peer, std::int32_t tag, std::int64_t bytes) {
  std::int64_t count = 0;
  for (const core::Event& e : events) {
    count += matchable(e, n) && (receive_side ? e.src == peer && e.rtag == tag && e.rbytes == bytes
                                              : e.dst == peer && e.tag == tag && e.bytes == bytes);
  }
  return count;
}

// The collective calls of `events` on the communicator whose members are `members`, among the
// rank's `comms`.
std::vector<CollectiveCall> calls_on(const std::vector<core::Event>& events,
                                     const std::vector<core::Communicator>& comms,
                                     const std::vector<std::int32_t>& members) {
  std::vector<std::int32_t> ids;
  for (const core::Communicator& c : comms) {
    if (c.id != 0 && c.members == members) ids.push_back(c.id);
  }
  std::vector<CollectiveCall> calls;
  for (const core::Event& e : events) {
    if (core::op_kind(e.op) == core::OpKind::Collective &&
        std::find(ids.begin(), ids.end(), e.comm) != ids.end()) {
      calls.push_back({e.op, e.root});
    }
  }
  return calls;
}

}  // namespace

ConsistencyReport check_consistency(const core::ScaledTrace& trace, std::size_t reported) {
  ConsistencyReport report;
  auto problem = [&](std::string text) {
    if (report.problems.size() < reported) report.problems.push_back(std::move(text));
    ++report.problem_count;
  };
  const int n = trace.nprocs();
  for (int p = 0; p < static_cast<int>(trace.phases().size()); ++p) {
    const std::string& name = trace.phases()[static_cast<std::size_t>(p)].name;
    RankEventCache cache(trace, p);
    // Each unmatched message (sends minus receives of one sender, receiver, tag and size) is
    // found once: from its sender when it was sent, else from its receiver. They are reported
    // after the phase's other problems, in message order, so only the first `reported` of
    // them are kept, whatever N.
    std::map<Message, std::int64_t> unmatched;
    std::size_t unmatched_count = 0;
    auto imbalance = [&](const Message& m, std::int64_t count) {
      ++unmatched_count;
      unmatched.emplace(m, count);
      if (unmatched.size() > reported) unmatched.erase(std::prev(unmatched.end()));
    };
    std::vector<CollectiveCall> world_calls;
    for (int r = 0; r < n; ++r) {
      // Read before any other rank is asked of the cache, which may evict it.
      const std::vector<core::Event>& events = cache.events(r);
      // Each sub-communicator's calls, held against its lowest member's on the same members.
      const std::vector<core::Communicator> comms = trace.communicators(r);
      std::vector<std::pair<std::vector<std::int32_t>, std::vector<CollectiveCall>>> sub_calls;
      for (const core::Communicator& c : comms) {
        if (c.id == 0 || c.members.empty() || c.members.front() == r) continue;
        sub_calls.emplace_back(c.members, calls_on(events, comms, c.members));
      }
      std::vector<CollectiveCall> calls;
      std::map<Message, std::int64_t> sends;     // from r
      std::map<Message, std::int64_t> receives;  // at r
      for (const core::Event& e : events) {
        if (core::op_kind(e.op) == core::OpKind::Collective) {
          if (e.comm != 0) continue;  // sub-communicators: not produced by the model yet
          calls.push_back({e.op, e.root});
          continue;
        }
        if (core::op_kind(e.op) != core::OpKind::PointToPoint) continue;
        if (!matchable(e, n)) {
          problem(fmt::format("{}: rank {} names a peer outside 0..{}", name, r, n - 1));
          continue;
        }
        if (e.dst >= 0) ++sends[{r, e.dst, e.tag, e.bytes}];
        if (e.src >= 0) ++receives[{e.src, r, e.rtag, e.rbytes}];
      }
      if (r == 0) {
        world_calls = calls;
      } else if (calls != world_calls) {
        problem(
            fmt::format("{}: rank {} makes different collective calls on the world than "
                        "rank 0",
                        name, r));
      }
      for (const auto& [members, mine] : sub_calls) {
        const int lowest = members.front();
        if (calls_on(cache.events(lowest), trace.communicators(lowest), members) != mine) {
          problem(fmt::format(
              "{}: rank {} makes different collective calls on its sub-communicator than rank {}",
              name, r, lowest));
        }
      }
      for (const auto& [m, count] : sends) {
        const std::int64_t matched = matching(cache.events(m.to), n, true, r, m.tag, m.bytes);
        if (count != matched) imbalance(m, count - matched);
      }
      for (const auto& [m, count] : receives) {
        if (matching(cache.events(m.from), n, false, r, m.tag, m.bytes) == 0) imbalance(m, -count);
      }
    }
    for (const auto& [m, count] : unmatched) {
      problem(fmt::format("{}: {} message(s) {} -> {} (tag {}, {} bytes) {}", name, std::abs(count),
                          m.from, m.to, m.tag, m.bytes,
                          count > 0 ? "sent but never received" : "received but never sent"));
    }
    // The ones not kept still count.
    report.problem_count += unmatched_count - unmatched.size();
  }
  return report;
}

}  // namespace p3s::model
