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

// Where the problems go: the report, which keeps the first `reported` of them in full and
// counts them all.
class ProblemList {
 public:
  ProblemList(ConsistencyReport& report, std::size_t reported)
      : report_(report), reported_(reported) {}

  void add(std::string text) {
    if (report_.problems.size() < reported_) report_.problems.push_back(std::move(text));
    ++report_.problem_count;
  }
  // Problems counted without their text.
  void count(std::size_t more) { report_.problem_count += more; }
  std::size_t reported() const { return reported_; }

 private:
  ConsistencyReport& report_;
  std::size_t reported_;
};

// Each unmatched message of a phase (sends minus receives of one sender, receiver, tag and
// size) is found once: from its sender when it was sent, else from its receiver. They are
// reported after the phase's other problems, in message order, so only the first `reported`
// of them are kept, whatever N.
class UnmatchedMessages {
 public:
  explicit UnmatchedMessages(std::size_t kept) : kept_(kept) {}

  // `count` > 0: sent that many times more than received; < 0: received more than sent.
  void add(const Message& m, std::int64_t count) {
    ++count_;
    unmatched_.emplace(m, count);
    if (unmatched_.size() > kept_) unmatched_.erase(std::prev(unmatched_.end()));
  }

  void report(const std::string& phase, ProblemList& problems) const {
    for (const auto& [m, count] : unmatched_) {
      problems.add(fmt::format("{}: {} message(s) {} -> {} (tag {}, {} bytes) {}", phase,
                               std::abs(count), m.from, m.to, m.tag, m.bytes,
                               count > 0 ? "sent but never received" : "received but never sent"));
    }
    // The ones not kept still count.
    problems.count(count_ - unmatched_.size());
  }

 private:
  std::size_t kept_;
  std::map<Message, std::int64_t> unmatched_;
  std::size_t count_ = 0;
};

// Rank r's collective calls on each sub-communicator it is not the lowest member of, to be
// held against that member's calls on the same members.
using SubCommunicatorCalls =
    std::vector<std::pair<std::vector<std::int32_t>, std::vector<CollectiveCall>>>;

SubCommunicatorCalls sub_communicator_calls(const std::vector<core::Event>& events,
                                            const std::vector<core::Communicator>& comms, int r) {
  SubCommunicatorCalls sub_calls;
  for (const core::Communicator& c : comms) {
    if (c.id == 0 || c.members.empty() || c.members.front() == r) continue;
    sub_calls.emplace_back(c.members, calls_on(events, comms, c.members));
  }
  return sub_calls;
}

// One rank's events of a phase sorted out: its collective calls on the world and the
// messages it sends and receives. A peer outside the world is a problem of its own.
struct RankTraffic {
  std::vector<CollectiveCall> world_calls;
  std::map<Message, std::int64_t> sends;     // from r
  std::map<Message, std::int64_t> receives;  // at r
};

RankTraffic rank_traffic(const std::vector<core::Event>& events, int r, int n,
                         const std::string& phase, ProblemList& problems) {
  RankTraffic traffic;
  for (const core::Event& e : events) {
    if (core::op_kind(e.op) == core::OpKind::Collective) {
      if (e.comm != 0) continue;  // sub-communicators: not produced by the model yet
      traffic.world_calls.push_back({e.op, e.root});
      continue;
    }
    if (core::is_nonblocking(e.op) && e.req == core::kNone) {
      problems.add(
          fmt::format("{}: rank {} makes an {} without a request, which nothing can "
                      "complete",
                      phase, r, core::op_name(e.op)));
    }
    if (core::op_kind(e.op) != core::OpKind::PointToPoint) continue;
    if (!matchable(e, n)) {
      problems.add(fmt::format("{}: rank {} names a peer outside 0..{}", phase, r, n - 1));
      continue;
    }
    if (e.dst >= 0) ++traffic.sends[{r, e.dst, e.tag, e.bytes}];
    if (e.src >= 0) ++traffic.receives[{e.src, r, e.rtag, e.rbytes}];
  }
  return traffic;
}

// Each sub-communicator's calls of rank r against its lowest member's.
void check_sub_communicator_calls(const core::ScaledTrace& trace, RankEventCache& cache, int r,
                                  const SubCommunicatorCalls& sub_calls, const std::string& phase,
                                  ProblemList& problems) {
  for (const auto& [members, mine] : sub_calls) {
    const int lowest = members.front();
    if (calls_on(cache.events(lowest), trace.communicators(lowest), members) != mine) {
      problems.add(fmt::format(
          "{}: rank {} makes different collective calls on its sub-communicator than rank {}",
          phase, r, lowest));
    }
  }
}

// Rank r's messages against its peers' events: every send received as often, every receive
// sent at least once.
void match_messages(RankEventCache& cache, int n, int r, const RankTraffic& traffic,
                    UnmatchedMessages& unmatched) {
  for (const auto& [m, count] : traffic.sends) {
    const std::int64_t matched = matching(cache.events(m.to), n, true, r, m.tag, m.bytes);
    if (count != matched) unmatched.add(m, count - matched);
  }
  for (const auto& [m, count] : traffic.receives) {
    if (matching(cache.events(m.from), n, false, r, m.tag, m.bytes) == 0) unmatched.add(m, -count);
  }
}

// One phase, rank by rank: its calls on the world against rank 0's, on each
// sub-communicator against the lowest member's, its messages against its peers'.
void check_phase(const core::ScaledTrace& trace, int p, ProblemList& problems) {
  const int n = trace.nprocs();
  const std::string& name = trace.phases()[static_cast<std::size_t>(p)].name;
  RankEventCache cache(trace, p);
  UnmatchedMessages unmatched(problems.reported());
  std::vector<CollectiveCall> rank0_world_calls;
  for (int r = 0; r < n; ++r) {
    // Read before any other rank is asked of the cache, which may evict it.
    const std::vector<core::Event>& events = cache.events(r);
    const SubCommunicatorCalls sub_calls =
        sub_communicator_calls(events, trace.communicators(r), r);
    const RankTraffic traffic = rank_traffic(events, r, n, name, problems);
    if (r == 0) {
      rank0_world_calls = traffic.world_calls;
    } else if (traffic.world_calls != rank0_world_calls) {
      problems.add(
          fmt::format("{}: rank {} makes different collective calls on the world than "
                      "rank 0",
                      name, r));
    }
    check_sub_communicator_calls(trace, cache, r, sub_calls, name, problems);
    match_messages(cache, n, r, traffic, unmatched);
  }
  unmatched.report(name, problems);
}

}  // namespace

ConsistencyReport check_consistency(const core::ScaledTrace& trace, std::size_t reported) {
  ConsistencyReport report;
  ProblemList problems(report, reported);
  for (int p = 0; p < static_cast<int>(trace.phases().size()); ++p) {
    check_phase(trace, p, problems);
  }
  return report;
}

}  // namespace p3s::model
