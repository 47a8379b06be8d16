#include "model/trace_consistency.hpp"

#include <fmt/core.h>

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

}  // namespace

ConsistencyReport check_consistency(const core::ScaledTrace& trace, std::size_t reported) {
  ConsistencyReport report;
  auto problem = [&](std::string text) {
    if (report.problems.size() < reported) report.problems.push_back(std::move(text));
    ++report.problem_count;
  };
  const int n = trace.nprocs();
  std::vector<core::Event> events;
  for (int p = 0; p < static_cast<int>(trace.phases().size()); ++p) {
    const std::string& name = trace.phases()[static_cast<std::size_t>(p)].name;
    // +1 per send, -1 per matching receive: what is left over is unmatched.
    std::map<Message, std::int64_t> balance;
    std::vector<CollectiveCall> world_calls;
    for (int r = 0; r < n; ++r) {
      events.clear();
      trace.phase_events(p, r, events);
      std::vector<CollectiveCall> calls;
      for (const core::Event& e : events) {
        if (core::op_kind(e.op) == core::OpKind::Collective) {
          if (e.comm != 0) continue;  // sub-communicators: not produced by the model yet
          calls.push_back({e.op, e.root});
          continue;
        }
        if (core::op_kind(e.op) != core::OpKind::PointToPoint) continue;
        if (e.dst >= n || e.src >= n) {
          problem(fmt::format("{}: rank {} names a peer outside 0..{}", name, r, n - 1));
          continue;
        }
        if (e.dst >= 0) ++balance[{r, e.dst, e.tag, e.bytes}];
        if (e.src >= 0) --balance[{e.src, r, e.rtag, e.rbytes}];
      }
      if (r == 0) {
        world_calls = calls;
      } else if (calls != world_calls) {
        problem(
            fmt::format("{}: rank {} makes different collective calls on the world than "
                        "rank 0",
                        name, r));
      }
    }
    for (const auto& [m, count] : balance) {
      if (count == 0) continue;
      problem(fmt::format("{}: {} message(s) {} -> {} (tag {}, {} bytes) {}", name, std::abs(count),
                          m.from, m.to, m.tag, m.bytes,
                          count > 0 ? "sent but never received" : "received but never sent"));
    }
  }
  return report;
}

}  // namespace p3s::model
