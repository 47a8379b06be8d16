#include "replay_mpi/forwarding_cycle.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "core/rank_program.hpp"
#include "replay_mpi/event_peers.hpp"

namespace p3s::replay {
namespace {

using Hop = std::pair<std::int32_t, std::int32_t>;  // (sender, receiver)

struct MessageGraph {
  std::vector<std::vector<std::int32_t>> receivers;  // by sender, distinct
  std::vector<Hop> forwarded;  // receives followed by a send of the receiver in the repetition
};

MessageGraph message_graph(const core::ScaledTrace& trace, int phase) {
  const auto n = static_cast<std::size_t>(trace.nprocs());
  MessageGraph g;
  g.receivers.resize(n);
  std::vector<core::Event> events;
  std::vector<std::pair<std::int32_t, std::int64_t>> sent;
  std::vector<std::int32_t> received;
  for (std::int32_t r = 0; r < static_cast<std::int32_t>(n); ++r) {
    events.clear();
    trace.phase_events(phase, r, events);
    const core::RankProgram program = core::compile_rank_program(events, 1.0);
    std::size_t last_send = 0;
    bool sends = false;
    for (std::size_t i = 0; i < program.steps.size(); ++i) {
      sent.clear();
      sent_messages(program, program.steps[i], sent);
      if (!sent.empty()) {
        last_send = i;
        sends = true;
      }
    }
    for (std::size_t i = 0; i < program.steps.size(); ++i) {
      received.clear();
      received_peers(program, program.steps[i], received);
      for (const std::int32_t from : received) {
        if (from == r) continue;
        g.receivers[static_cast<std::size_t>(from)].push_back(r);
        if (sends && i < last_send) g.forwarded.emplace_back(from, r);
      }
    }
  }
  for (auto& to : g.receivers) {
    std::sort(to.begin(), to.end());
    to.erase(std::unique(to.begin(), to.end()), to.end());
  }
  std::sort(g.forwarded.begin(), g.forwarded.end());
  g.forwarded.erase(std::unique(g.forwarded.begin(), g.forwarded.end()), g.forwarded.end());
  return g;
}

// Strongly connected components by Tarjan's algorithm, without recursion (N can be millions).
class Components {
 public:
  explicit Components(const std::vector<std::vector<std::int32_t>>& next)
      : next_(next),
        index_(next.size(), -1),
        low_(next.size(), 0),
        of_(next.size(), -1),
        on_stack_(next.size(), 0) {
    for (std::size_t v = 0; v < next.size(); ++v) {
      if (index_[v] < 0) visit_from(static_cast<std::int32_t>(v));
    }
  }
  // The component of every vertex.
  const std::vector<std::int32_t>& of() const { return of_; }

 private:
  void enter(std::int32_t v) {
    const auto sv = static_cast<std::size_t>(v);
    index_[sv] = low_[sv] = counter_++;
    stack_.push_back(v);
    on_stack_[sv] = 1;
    calls_.emplace_back(v, 0);
  }

  // Pops v's component when v is its root.
  void close(std::int32_t v) {
    const auto sv = static_cast<std::size_t>(v);
    if (low_[sv] != index_[sv]) return;
    std::int32_t w = -1;
    do {
      w = stack_.back();
      stack_.pop_back();
      on_stack_[static_cast<std::size_t>(w)] = 0;
      of_[static_cast<std::size_t>(w)] = found_;
    } while (w != v);
    ++found_;
  }

  void visit_from(std::int32_t start) {
    enter(start);
    while (!calls_.empty()) {
      auto& [v, edge] = calls_.back();
      const auto sv = static_cast<std::size_t>(v);
      if (edge < next_[sv].size()) {
        const std::int32_t w = next_[sv][edge++];
        const auto sw = static_cast<std::size_t>(w);
        if (index_[sw] < 0) {
          enter(w);
        } else if (on_stack_[sw]) {
          low_[sv] = std::min(low_[sv], index_[sw]);
        }
        continue;
      }
      const std::int32_t done = v;
      close(done);
      calls_.pop_back();
      if (!calls_.empty()) {
        const auto parent = static_cast<std::size_t>(calls_.back().first);
        low_[parent] = std::min(low_[parent], low_[static_cast<std::size_t>(done)]);
      }
    }
  }

  const std::vector<std::vector<std::int32_t>>& next_;
  std::vector<std::int32_t> index_, low_, of_;
  std::vector<char> on_stack_;
  std::vector<std::int32_t> stack_;
  std::vector<std::pair<std::int32_t, std::size_t>> calls_;  // (vertex, next edge to follow)
  std::int32_t counter_ = 0, found_ = 0;
};

// Breadth-first searches for the fewest messages from one rank to another, within the
// component of the second, on a budget of ranks visited over all searches.
class ShortestChain {
 public:
  struct Found {
    std::int64_t messages = 0;  // on the shortest chain; 0: not found
    std::int64_t searched = 0;  // chains up to this many messages were all looked at
  };

  ShortestChain(const MessageGraph& g, const std::vector<std::int32_t>& component,
                std::size_t budget)
      : g_(g), component_(component), seen_(g.receivers.size(), 0), budget_(budget) {}

  Found search(std::int32_t from, std::int32_t to) {
    ++stamp_;
    frontier_.assign(1, from);
    seen_[static_cast<std::size_t>(from)] = stamp_;
    const std::int32_t within = component_[static_cast<std::size_t>(to)];
    Found f;
    for (std::int64_t depth = 1; !frontier_.empty(); ++depth) {
      next_.clear();
      for (const std::int32_t v : frontier_) {
        for (const std::int32_t w : g_.receivers[static_cast<std::size_t>(v)]) {
          const auto sw = static_cast<std::size_t>(w);
          if (seen_[sw] == stamp_ || component_[sw] != within) continue;
          if (w == to) {
            f.messages = depth;
            return f;
          }
          seen_[sw] = stamp_;
          if (budget_ == 0) return f;
          --budget_;
          next_.push_back(w);
        }
      }
      f.searched = depth;
      frontier_.swap(next_);
    }
    return f;
  }

 private:
  const MessageGraph& g_;
  const std::vector<std::int32_t>& component_;
  std::vector<std::uint32_t> seen_;
  std::uint32_t stamp_ = 0;
  std::size_t budget_;
  std::vector<std::int32_t> frontier_, next_;
};

}  // namespace

std::optional<ForwardingCycle> unloadable_forwarding_cycle(const core::ScaledTrace& trace,
                                                           int phase, int measurable) {
  if (measurable >= trace.nprocs()) return std::nullopt;
  const MessageGraph g = message_graph(trace, phase);
  const Components components(g.receivers);
  const std::vector<std::int32_t>& component = components.of();
  // Enough to follow a ring of millions of ranks once; where the graph fans out, the searches
  // stop there and the phase is taken as held.
  ShortestChain chain(g, component, std::size_t{1} << 24);
  for (const auto& [from, rank] : g.forwarded) {
    if (component[static_cast<std::size_t>(from)] != component[static_cast<std::size_t>(rank)])
      continue;  // on no cycle
    const auto& back = g.receivers[static_cast<std::size_t>(rank)];
    if (std::binary_search(back.begin(), back.end(), from)) continue;  // a cycle of two
    // A cycle through the hop crosses one rank per message: those back to `from`, and `from`.
    const ShortestChain::Found f = chain.search(rank, from);
    if (f.messages > 0 && f.messages + 1 > measurable) {
      return ForwardingCycle{from, rank, f.messages + 1};
    }
    if (f.messages == 0 && f.searched + 1 >= measurable) return ForwardingCycle{from, rank, 0};
  }
  return std::nullopt;
}

std::string describe(const ForwardingCycle& cycle, int measurable) {
  const std::string size = cycle.ranks > 0 ? fmt::format("a cycle of {} ranks", cycle.ranks)
                                           : std::string("a cycle too long to follow");
  return fmt::format(
      "rank {} sends on, within each repetition, what rank {} has just sent it, and the "
      "messages through that hop close {}, more than the {} a step loads: black holes, which "
      "answer at once, cut that cycle, so the replay times the chain they feed, not the cycle "
      "that paces the application (its PhaseET is a lower bound)",
      cycle.rank, cycle.from, size, measurable);
}

}  // namespace p3s::replay
