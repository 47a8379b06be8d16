// A phase whose pattern no rule reproduces (each rank isends to a shuffled peer, irecvs from
// whoever sends to it, and waits for both) is carried with --carry-nearest: the largest run's
// pattern tiled over N. Its non-blocking calls must come with requests that its waitall
// completes, as a traced run's do, so that the ST4NP is consistent and could run.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "model/slt_builder.hpp"
#include "model/slt_scaled_trace.hpp"
#include "model/trace_consistency.hpp"

namespace p3s::model {
namespace {

using signature::EventToken;

// Rank r sends 1 KiB to p[r] and receives from the rank that sends to it; p a shuffle of 0..n-1
// drawn afresh for each n, so no rule in n and r gives the peers.
LogicalRun shuffled_run(std::int64_t n) {
  std::vector<std::int32_t> p(static_cast<std::size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  std::mt19937 draw(static_cast<unsigned>(n * 7919));
  std::shuffle(p.begin(), p.end(), draw);
  std::vector<std::int32_t> from(p.size());
  for (std::size_t r = 0; r < p.size(); ++r)
    from[static_cast<std::size_t>(p[r])] = static_cast<std::int32_t>(r);
  LogicalRun run;
  run.n = n;
  LogicalPhase phase;
  for (std::int64_t r = 0; r < n; ++r) {
    const auto relative = [&](std::int32_t peer) {
      return static_cast<std::int32_t>((peer - r + n) % n);
    };
    EventToken receive;
    receive.op = core::Op::Irecv;
    receive.src = relative(from[static_cast<std::size_t>(r)]);
    receive.rtag = 0;
    receive.rbytes = 1024;
    EventToken send;
    send.op = core::Op::Isend;
    send.dst = relative(p[static_cast<std::size_t>(r)]);
    send.tag = 0;
    send.bytes = 1024;
    EventToken wait;
    wait.op = core::Op::Waitall;
    wait.requests = 2;
    LogicalRankPhase rank;
    rank.events = {receive, send, wait};
    rank.weight = 10;
    rank.cpu_ns = 1e5;
    rank.slot_cpu_ns = {rank.cpu_ns, 0, 0};
    rank.share = 0.5;
    phase.ranks.push_back(std::move(rank));
  }
  run.phases.push_back(std::move(phase));
  return run;
}

TEST(CarriedPattern, ItsNonBlockingCallsHaveRequestsItsWaitallCompletes) {
  SltInputs inputs;
  inputs.runs = {shuffled_run(4), shuffled_run(6), shuffled_run(8), shuffled_run(12)};
  const Slt slt = build_slt(inputs).slt;
  ASSERT_EQ(slt.phases.size(), 1u);
  ASSERT_FALSE(slt.phases[0].pattern_modelled) << "the shuffle must not be modelled";
  ASSERT_TRUE(slt.phases[0].carried.has_value());
  InstantiateOptions carry;
  carry.carry_nearest = true;
  const SltScaledTrace trace(slt, 48, carry);
  const ConsistencyReport report = check_consistency(trace);
  EXPECT_TRUE(report.consistent()) << (report.problems.empty() ? "" : report.problems.front());
  for (int r = 0; r < trace.nprocs(); ++r) {
    std::vector<core::Event> events;
    trace.phase_events(0, r, events);
    ASSERT_EQ(events.size(), 3u) << "rank " << r;
    EXPECT_EQ(events[0].req, 0) << "rank " << r;
    EXPECT_EQ(events[1].req, 1) << "rank " << r;
    ASSERT_EQ(events[2].requests.size(), 2u) << "rank " << r;
    EXPECT_EQ(events[2].requests[0].req, 0);
    EXPECT_FALSE(events[2].requests[0].send);
    EXPECT_EQ(events[2].requests[1].req, 1);
    EXPECT_TRUE(events[2].requests[1].send);
    EXPECT_EQ(events[2].requests[1].peer, events[1].dst);
  }
}

}  // namespace
}  // namespace p3s::model
