// The ST4NP consistency check on hand-built scaled traces whose faults are known: a
// consistent ring passes, and each fault planted in it (a lost receive, a wrong size or tag, a
// rank skipping a collective, a peer outside the world) is reported naming phase and ranks.
#include <gtest/gtest.h>

#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "core/scaled_trace.hpp"
#include "model/trace_consistency.hpp"

namespace p3s::model {
namespace {

using core::Event;
using core::Op;

// A fault planted into one rank's events of one phase; the identity leaves it consistent.
using Fault = std::function<void(int phase, int rank, std::vector<Event>& events)>;

// Two phases on n ranks. "ring": each rank sends 64 bytes with tag 7 to r + 1 (mod n) and
// receives them from r - 1, then an allreduce of 8 bytes. "halo": a non-periodic line, each
// rank exchanging 32 bytes (tag 3) with each neighbour it has, by isend/irecv and a waitall.
class RingTrace final : public core::ScaledTrace {
 public:
  RingTrace(int n, Fault fault = {}) : n_(n), fault_(std::move(fault)) {}

  int nprocs() const override { return n_; }
  const std::vector<core::ScaledPhase>& phases() const override { return phases_; }

  void phase_events(int phase, int rank, std::vector<Event>& out) const override {
    std::vector<Event> events;
    if (phase == 0) {
      events.push_back(send(Op::Send, (rank + 1) % n_, 7, 64));
      events.push_back(receive(Op::Recv, (rank + n_ - 1) % n_, 7, 64));
      Event all;
      all.op = Op::Allreduce;
      all.bytes = 8;
      all.rbytes = 8;
      events.push_back(all);
    } else {
      Event wait;
      wait.op = Op::Waitall;
      for (int peer : {rank - 1, rank + 1}) {
        if (peer < 0 || peer >= n_) continue;
        events.push_back(receive(Op::Irecv, peer, 3, 32));
        events.push_back(send(Op::Isend, peer, 3, 32));
      }
      // Each request its own id, all completed by the waitall.
      for (std::size_t i = 0; i < events.size(); ++i) {
        events[i].req = static_cast<std::int64_t>(i);
        wait.requests.push_back({events[i].req, events[i].op == Op::Isend,
                                 events[i].op == Op::Isend ? events[i].dst : events[i].src, 3, 32});
      }
      events.push_back(wait);
    }
    if (fault_) fault_(phase, rank, events);
    out.insert(out.end(), events.begin(), events.end());
  }

  std::vector<core::Communicator> communicators(int) const override {
    core::Communicator world;
    world.members.resize(static_cast<std::size_t>(n_));
    std::iota(world.members.begin(), world.members.end(), 0);
    return {world};
  }

 private:
  static Event send(Op op, int peer, int tag, std::int64_t bytes) {
    Event e;
    e.op = op;
    e.dst = peer;
    e.tag = tag;
    e.bytes = bytes;
    return e;
  }
  static Event receive(Op op, int peer, int tag, std::int64_t bytes) {
    Event e;
    e.op = op;
    e.src = peer;
    e.rtag = tag;
    e.rbytes = bytes;
    return e;
  }

  int n_;
  Fault fault_;
  std::vector<core::ScaledPhase> phases_ = {{"ring", 10}, {"halo", 5}};
};

// Every reported problem, joined, for failure messages.
std::string all_problems(const ConsistencyReport& report) {
  std::string text;
  for (const std::string& p : report.problems) text += p + "\n";
  return text;
}

bool mentions(const ConsistencyReport& report, const std::string& part) {
  for (const std::string& p : report.problems) {
    if (p.find(part) != std::string::npos) return true;
  }
  return false;
}

TEST(TraceConsistency, ConsistentTracePasses) {
  for (int n : {1, 2, 3, 16}) {
    const ConsistencyReport report = check_consistency(RingTrace(n));
    EXPECT_TRUE(report.consistent()) << "n = " << n << "\n" << all_problems(report);
    EXPECT_TRUE(report.problems.empty());
  }
}

TEST(TraceConsistency, ANonBlockingCallWithoutARequestIsReported) {
  // Rank 2's irecv from rank 1 has lost its request: nothing could complete it.
  const RingTrace trace(4, [](int phase, int rank, std::vector<Event>& events) {
    if (phase == 1 && rank == 2) events.front().req = core::kNone;
  });
  const ConsistencyReport report = check_consistency(trace);
  ASSERT_EQ(report.problem_count, 1u) << all_problems(report);
  EXPECT_EQ(report.problems.front(),
            "halo: rank 2 makes an irecv without a request, which nothing can complete");
}

TEST(TraceConsistency, SendWithoutReceiveNamesPhaseAndRanks) {
  // Rank 5 never posts its receive from rank 4 in the ring.
  const RingTrace trace(8, [](int phase, int rank, std::vector<Event>& events) {
    if (phase == 0 && rank == 5) events.erase(events.begin() + 1);
  });
  const ConsistencyReport report = check_consistency(trace);
  EXPECT_FALSE(report.consistent());
  ASSERT_EQ(report.problem_count, 1u) << all_problems(report);
  EXPECT_EQ(report.problems.front(),
            "ring: 1 message(s) 4 -> 5 (tag 7, 64 bytes) sent but never received");
}

TEST(TraceConsistency, ReceiveWithoutSendIsReported) {
  // Rank 2 of the line does not send to its left neighbour (rank 1) in the halo phase.
  const RingTrace trace(4, [](int phase, int rank, std::vector<Event>& events) {
    if (phase == 1 && rank == 2) events.erase(events.begin() + 1);
  });
  const ConsistencyReport report = check_consistency(trace);
  ASSERT_EQ(report.problem_count, 1u) << all_problems(report);
  EXPECT_EQ(report.problems.front(),
            "halo: 1 message(s) 2 -> 1 (tag 3, 32 bytes) received but never sent");
}

TEST(TraceConsistency, MismatchedBytesAreBothSidesOfOneMessage) {
  const RingTrace trace(6, [](int phase, int rank, std::vector<Event>& events) {
    if (phase == 0 && rank == 3) events[0].bytes = 65;
  });
  const ConsistencyReport report = check_consistency(trace);
  ASSERT_EQ(report.problem_count, 2u) << all_problems(report);
  EXPECT_TRUE(mentions(report, "ring: 1 message(s) 3 -> 4 (tag 7, 65 bytes) sent but never"))
      << all_problems(report);
  EXPECT_TRUE(mentions(report, "ring: 1 message(s) 3 -> 4 (tag 7, 64 bytes) received but never"))
      << all_problems(report);
}

TEST(TraceConsistency, MismatchedTagIsReported) {
  const RingTrace trace(6, [](int phase, int rank, std::vector<Event>& events) {
    if (phase == 1 && rank == 0) events[1].tag = 4;  // its isend to rank 1
  });
  const ConsistencyReport report = check_consistency(trace);
  ASSERT_EQ(report.problem_count, 2u) << all_problems(report);
  EXPECT_TRUE(mentions(report, "halo: 1 message(s) 0 -> 1 (tag 4, 32 bytes) sent but never"))
      << all_problems(report);
  EXPECT_TRUE(mentions(report, "halo: 1 message(s) 0 -> 1 (tag 3, 32 bytes) received but never"))
      << all_problems(report);
}

TEST(TraceConsistency, CollectiveMissingAMemberNamesTheRank) {
  const RingTrace trace(5, [](int phase, int rank, std::vector<Event>& events) {
    if (phase == 0 && rank == 3) events.pop_back();  // its allreduce
  });
  const ConsistencyReport report = check_consistency(trace);
  ASSERT_EQ(report.problem_count, 1u) << all_problems(report);
  EXPECT_NE(report.problems.front().find("ring: rank 3 "), std::string::npos)
      << all_problems(report);
  EXPECT_NE(report.problems.front().find("collective"), std::string::npos) << all_problems(report);
}

TEST(TraceConsistency, CollectiveWithAnotherRootIsReported) {
  const RingTrace trace(4, [](int phase, int rank, std::vector<Event>& events) {
    if (phase != 0) return;
    events.back().op = Op::Reduce;
    events.back().root = rank == 2 ? 1 : 0;  // rank 2 disagrees on the root
  });
  const ConsistencyReport report = check_consistency(trace);
  ASSERT_EQ(report.problem_count, 1u) << all_problems(report);
  EXPECT_NE(report.problems.front().find("ring: rank 2 "), std::string::npos)
      << all_problems(report);
}

TEST(TraceConsistency, PeerOutsideTheWorldIsReported) {
  const RingTrace trace(4, [](int phase, int rank, std::vector<Event>& events) {
    if (phase == 0 && rank == 3) events[0].dst = 4;  // instead of wrapping to 0
  });
  const ConsistencyReport report = check_consistency(trace);
  // The send to 4 is dropped as out of range, so rank 0's receive from 3 is unmatched.
  ASSERT_EQ(report.problem_count, 2u) << all_problems(report);
  EXPECT_EQ(report.problems[0], "ring: rank 3 names a peer outside 0..3");
  EXPECT_EQ(report.problems[1],
            "ring: 1 message(s) 3 -> 0 (tag 7, 64 bytes) received but never sent");
}

TEST(TraceConsistency, CountsEveryProblemButKeepsTheFirstFewInOrder) {
  // Every ring send carries tag 8: each of the n messages is unmatched on both sides.
  const int n = 10;
  const RingTrace trace(n, [](int phase, int, std::vector<Event>& events) {
    if (phase == 0) events[0].tag = 8;
  });
  const ConsistencyReport report = check_consistency(trace, 3);
  EXPECT_EQ(report.problem_count, 2u * n);
  // Reported by sender, receiver, tag and bytes: rank 0's message first, tag 7 before tag 8.
  ASSERT_EQ(report.problems.size(), 3u);
  EXPECT_EQ(report.problems[0],
            "ring: 1 message(s) 0 -> 1 (tag 7, 64 bytes) received but never sent");
  EXPECT_EQ(report.problems[1],
            "ring: 1 message(s) 0 -> 1 (tag 8, 64 bytes) sent but never received");
  EXPECT_EQ(report.problems[2],
            "ring: 1 message(s) 1 -> 2 (tag 7, 64 bytes) received but never sent");
}

TEST(TraceConsistency, RepeatedMessagesAreCounted) {
  // Rank 1 sends its ring message twice; rank 2 receives it once.
  const RingTrace trace(4, [](int phase, int rank, std::vector<Event>& events) {
    if (phase == 0 && rank == 1) events.insert(events.begin(), events.front());
  });
  const ConsistencyReport report = check_consistency(trace);
  ASSERT_EQ(report.problem_count, 1u) << all_problems(report);
  EXPECT_EQ(report.problems.front(),
            "ring: 1 message(s) 1 -> 2 (tag 7, 64 bytes) sent but never received");
}

}  // namespace
}  // namespace p3s::model
