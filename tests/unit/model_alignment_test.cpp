// Relating phases across ranks and runs on synthetic signatures whose truth is built in: a
// loop split by its warm-up is one logical phase, ranks' phases are related by position, a
// phase some ranks or some runs lack is reported, and the slots of a phase are the same
// communication at every n (border ranks lacking theirs).
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

#include "model/logical_phases.hpp"
#include "model/phase_alignment.hpp"
#include "model/phase_matching.hpp"
#include "model/slot_templates.hpp"
#include "model/slt_builder.hpp"
#include "model/slt_scaled_trace.hpp"
#include "model/trace_consistency.hpp"
#include "signature/phase_relation.hpp"

namespace p3s::model {
namespace {

using signature::EventToken;

// A point-to-point token to the world rank `peer` from `rank` among n, relative as the
// signature writes it.
EventToken isend(std::int64_t rank, std::int64_t peer, std::int64_t n, std::int32_t tag = 1) {
  EventToken t;
  t.op = core::Op::Isend;
  t.dst = signature::relative_rank(static_cast<std::int32_t>(peer), static_cast<std::int32_t>(rank),
                                   static_cast<std::int32_t>(n));
  t.tag = tag;
  t.bytes = 64;
  return t;
}

EventToken collective(core::Op op) {
  EventToken t;
  t.op = op;
  if (op != core::Op::Barrier) {
    t.bytes = 8;
    t.rbytes = 8;
  }
  return t;
}

// One rank's phase: `weight` repetitions of `cpu_ns` each, starting at trace event `first`.
signature::RankPhase rank_phase(std::vector<EventToken> events, std::int64_t weight,
                                std::size_t first, double cpu_ns) {
  signature::RankPhase p;
  p.events = std::move(events);
  p.slots.resize(p.events.size());
  p.weight = weight;
  p.first_event = first;
  for (std::int64_t i = 0; i < weight; ++i) p.cpu_ns.add(cpu_ns);
  p.total_ns = static_cast<std::int64_t>(cpu_ns) * weight;
  return p;
}

signature::Signature signature_of(std::int64_t n, std::vector<signature::RankPhases> ranks) {
  signature::Signature sig;
  sig.run.nprocs = static_cast<std::int32_t>(n);
  sig.ranks = std::move(ranks);
  for (auto& r : sig.ranks) r.run_ns = 1'000'000;
  return sig;
}

// A run of n ranks with a setup phase (one barrier) and a loop (10 allreduces of 100 ns), its
// ranks' phases related as the signature relates them.
signature::Signature setup_and_loop(std::int64_t n) {
  std::vector<signature::RankPhases> ranks;
  for (std::int64_t r = 0; r < n; ++r) {
    signature::RankPhases rank;
    rank.rank = static_cast<std::int32_t>(r);
    rank.nprocs = static_cast<std::int32_t>(n);
    rank.events = 11;
    rank.phases.push_back(rank_phase({collective(core::Op::Barrier)}, 1, 0, 50));
    rank.phases.push_back(rank_phase({collective(core::Op::Allreduce)}, 10, 1, 100));
    ranks.push_back(std::move(rank));
  }
  signature::Signature sig = signature_of(n, std::move(ranks));
  signature::relate_phases(sig);
  return sig;
}

TEST(LogicalPhases, EveryRunPhaseHoldsEveryRanksPart) {
  const LogicalRun run = logical_phases(setup_and_loop(3));
  EXPECT_EQ(run.n, 3);
  ASSERT_EQ(run.phases.size(), 2u);
  ASSERT_EQ(run.phases[0].ranks.size(), 3u);
  for (const LogicalRankPhase& r : run.phases[0].ranks) {
    ASSERT_EQ(r.events.size(), 1u);
    EXPECT_EQ(r.events[0].op, core::Op::Barrier);
    EXPECT_EQ(r.weight, 1);
  }
  for (const LogicalRankPhase& r : run.phases[1].ranks) {
    ASSERT_EQ(r.events.size(), 1u);
    EXPECT_EQ(r.events[0].op, core::Op::Allreduce);
    EXPECT_EQ(r.weight, 10);
    EXPECT_EQ(r.first_event, 1u);
    EXPECT_DOUBLE_EQ(r.cpu_ns, 100.0);
  }
  EXPECT_EQ(run.phases[1].common_weight(), 10);
}

TEST(LogicalPhases, APhaseSomeRanksLackIsEmptyOnThem) {
  signature::Signature sig = setup_and_loop(4);
  // Ranks 0 and 2 lose the loop; relating again, the loop is still one phase of the run.
  for (std::size_t r : {0u, 2u}) {
    std::erase_if(sig.ranks[r].phases,
                  [](const auto& p) { return p.events[0].op == core::Op::Allreduce; });
  }
  signature::relate_phases(sig);
  const LogicalRun run = logical_phases(sig);
  ASSERT_EQ(run.phases.size(), 2u);
  const LogicalPhase& loop = run.phases[1];
  EXPECT_FALSE(loop.ranks[0].present());
  EXPECT_TRUE(loop.ranks[0].events.empty());
  EXPECT_TRUE(loop.ranks[1].present());
  EXPECT_FALSE(loop.ranks[2].present());
  EXPECT_EQ(loop.common_weight(), 10);
  EXPECT_EQ(loop.fullest_rank(), 1u);
}

TEST(LogicalPhases, RelevanceIsTheLargestShareOfAnyRank) {
  LogicalPhase phase;
  phase.ranks.resize(3);
  phase.ranks[0].share = 0.001;
  phase.ranks[1].share = 0.4;
  phase.ranks[2].share = 0.02;
  EXPECT_DOUBLE_EQ(phase.relevance(), 0.4);
}

LogicalRun with_share(LogicalRun run) {
  for (auto& phase : run.phases) {
    for (auto& r : phase.ranks) {
      r.share = 0.4;
      r.total_ns = 400'000;
    }
  }
  return run;
}

TEST(PhaseRelation, RunsAreRelatedByContentAndAPhaseSomeRunsLackIsModelledFromTheOthers) {
  // n = 6 has only the setup phase: the loop is in two runs of three.
  signature::Signature short_run = setup_and_loop(6);
  for (auto& rank : short_run.ranks) {
    std::erase_if(rank.phases, [](const auto& p) { return p.events[0].op == core::Op::Allreduce; });
  }
  signature::relate_phases(short_run);
  const std::vector<LogicalRun> runs = {with_share(logical_phases(setup_and_loop(4))),
                                        with_share(logical_phases(short_run)),
                                        with_share(logical_phases(setup_and_loop(8)))};
  ASSERT_EQ(runs[1].phases.size(), 1u);
  const Slt slt = build_slt(runs);
  ASSERT_EQ(slt.phases.size(), 2u);
  EXPECT_EQ(slt.phases[0].runs_n, (std::vector<std::int64_t>{4, 6, 8}));
  ASSERT_FALSE(slt.phases[0].slots.empty());
  EXPECT_EQ(slt.phases[0].slots[0].op, core::Op::Barrier);
  EXPECT_EQ(slt.phases[1].runs_n, (std::vector<std::int64_t>{4, 8}));
  EXPECT_EQ(slt.phases[1].slots[0].op, core::Op::Allreduce);
  EXPECT_EQ(slt.phases[1].weight.at(64), 10.0);
  ASSERT_EQ(slt.coverage.size(), 3u);
  for (const RunCoverage& c : slt.coverage) EXPECT_NEAR(c.modelled, c.n == 6 ? 0.4 : 0.8, 1e-9);
}

// A non-periodic sqrt(n) x sqrt(n) grid: each rank isends to its north, west, east and south
// neighbours (tags 1..4), those it has.
PhaseRun stencil(std::int64_t q) {
  PhaseRun run;
  run.n = q * q;
  for (std::int64_t r = 0; r < run.n; ++r) {
    const std::int64_t i = r / q;
    const std::int64_t j = r % q;
    std::vector<EventToken> events;
    if (i > 0) events.push_back(isend(r, r - q, run.n));
    if (j > 0) events.push_back(isend(r, r - 1, run.n));
    if (j < q - 1) events.push_back(isend(r, r + 1, run.n));
    if (i < q - 1) events.push_back(isend(r, r + q, run.n));
    run.ranks.push_back(std::move(events));
  }
  return run;
}

// The slot of `run` in which `rank` sends to world rank `peer`.
std::optional<std::size_t> slot_to(const AlignedRun& run, std::int64_t rank, std::int64_t peer) {
  for (std::size_t s = 0; s < run.slot_events.size(); ++s) {
    const auto& e = run.slot_events[s][static_cast<std::size_t>(rank)];
    if (e && absolute_peer(e->dst, rank, run.n) == peer) return s;
  }
  return std::nullopt;
}

// Signed offsets, because on a non-periodic grid north and south can be the same distance
// modulo n (both are 2 at n = 4), which centered offsets could not tell apart.
TEST(PhaseAlignment, SameDirectionIsTheSameSlotAtEveryN) {
  const std::vector<PhaseRun> runs = {stencil(2), stencil(3), stencil(5)};
  {
    const Alignment a = align_phase(runs, AlignmentMethod::Signed);
    ASSERT_TRUE(a.aligned()) << a.failure;
    ASSERT_EQ(a.runs.size(), 3u);
    // The largest run's four directions are the slots of every run.
    for (const AlignedRun& run : a.runs) EXPECT_EQ(run.slot_events.size(), 4u);
    // Seen from rank 0 (north-west corner) east and south; from the last rank north and west.
    const AlignedRun& big = a.runs[2];
    const auto east = slot_to(big, 0, 1);
    const auto south = slot_to(big, 0, 5);
    const auto north = slot_to(big, 24, 19);
    const auto west = slot_to(big, 24, 23);
    ASSERT_TRUE(east && south && north && west);
    for (const AlignedRun& run : a.runs) {
      const std::int64_t q = run.n == 4 ? 2 : run.n == 9 ? 3 : 5;
      const std::int64_t last = run.n - 1;
      EXPECT_EQ(slot_to(run, 0, 1), east) << "n = " << run.n;
      EXPECT_EQ(slot_to(run, 0, q), south) << "n = " << run.n;
      EXPECT_EQ(slot_to(run, last, last - q), north) << "n = " << run.n;
      EXPECT_EQ(slot_to(run, last, last - 1), west) << "n = " << run.n;
      // Corners lack the directions they have no neighbour in: null communications.
      EXPECT_FALSE(run.slot_events[*north][0].has_value());
      EXPECT_FALSE(run.slot_events[*west][0].has_value());
      EXPECT_FALSE(run.slot_events[*east][static_cast<std::size_t>(last)].has_value());
      EXPECT_FALSE(run.slot_events[*south][static_cast<std::size_t>(last)].has_value());
      // Each rank's order lists the slots it uses, in its call order.
      EXPECT_EQ(run.order[0], (std::vector<std::int32_t>{static_cast<std::int32_t>(*east),
                                                         static_cast<std::int32_t>(*south)}));
    }
  }
}

// A V-cycle on a periodic 4 x 2 grid (rank = 2 i + j), n = 8: halos at levels 0, 1, 1, 0, each
// an exchange along j (with j + 1, the same rank at both levels) then along i (i + 1 at level
// 0, i + 2 at level 1, where only even i hold points): irecv, send, waitall with one tag per
// dimension. Ranks with odd i make level 0's halos only.
PhaseRun v_cycle() {
  PhaseRun run;
  run.n = 8;
  for (std::int64_t r = 0; r < run.n; ++r) {
    const std::int64_t i = r / 2;
    const std::int64_t j = r % 2;
    std::vector<EventToken> events;
    std::vector<std::vector<std::int32_t>> completes;
    for (const int level : {0, 1, 1, 0}) {
      if (level == 1 && i % 2 != 0) continue;
      const std::int64_t along_j = 2 * i + (j + 1) % 2;
      const std::int64_t along_i = 2 * ((i + (level == 0 ? 1 : 2)) % 4) + j;
      for (const auto& [peer, tag] : {std::pair{along_j, 0}, {along_i, 1}}) {
        EventToken receive = isend(r, peer, run.n, tag);
        receive.op = core::Op::Irecv;
        std::swap(receive.src, receive.dst);
        std::swap(receive.rtag, receive.tag);
        std::swap(receive.rbytes, receive.bytes);
        events.push_back(receive);
        EventToken send = isend(r, peer, run.n, tag);
        send.op = core::Op::Send;
        events.push_back(send);
        events.push_back(collective(core::Op::Waitall));
        events.back().bytes = events.back().rbytes = 0;
        completes.resize(events.size());
        completes.back() = {static_cast<std::int32_t>(events.size() - 3)};
      }
    }
    completes.resize(events.size());
    run.ranks.push_back(std::move(events));
    run.completes.push_back(std::move(completes));
  }
  return run;
}

// Rank 2 (i = 1) lacks the two level-1 halos, in the middle of its calls. Its last halo's
// exchange along j is alike at both levels: it belongs with the rest of its halo, at level 0.
TEST(PhaseAlignment, ARankIdleOnCoarseLevelsLacksTheirHalosWhole) {
  const std::vector<PhaseRun> runs = {v_cycle()};
  const Alignment a = align_phase(runs, AlignmentMethod::Position);
  ASSERT_TRUE(a.aligned()) << a.failure;
  const AlignedRun& run = a.runs.front();
  ASSERT_EQ(run.slot_events.size(), 24u);
  std::vector<std::int32_t> expected(6);
  std::iota(expected.begin(), expected.end(), 0);
  for (std::int32_t s = 18; s < 24; ++s) expected.push_back(s);
  EXPECT_EQ(run.order[2], expected);
  for (std::size_t s = 6; s < 18; ++s) EXPECT_FALSE(run.slot_events[s][2].has_value()) << s;
}

// A periodic ring, each rank isending to r + 1 then r - 1 (mod n): centered offsets +1 and -1.
PhaseRun ring(std::int64_t n) {
  PhaseRun run;
  run.n = n;
  for (std::int64_t r = 0; r < n; ++r)
    run.ranks.push_back({isend(r, (r + 1) % n, n), isend(r, (r + n - 1) % n, n)});
  return run;
}

TEST(PhaseAlignment, CenteredOffsetsRelateAPeriodicRingAcrossRuns) {
  const std::vector<PhaseRun> runs = {ring(3), ring(5), ring(8)};
  const Alignment a = align_phase(runs, AlignmentMethod::Centered);
  ASSERT_TRUE(a.aligned()) << a.failure;
  EXPECT_EQ(a.method, AlignmentMethod::Centered);
  const auto right = slot_to(a.runs[0], 0, 1);
  const auto left = slot_to(a.runs[0], 0, 2);
  ASSERT_TRUE(right && left);
  EXPECT_NE(*right, *left);
  for (const AlignedRun& run : a.runs) {
    ASSERT_EQ(run.slot_events.size(), 2u);
    for (std::int64_t r = 0; r < run.n; ++r) {
      EXPECT_EQ(slot_to(run, r, (r + 1) % run.n), right) << "n = " << run.n << " rank " << r;
      EXPECT_EQ(slot_to(run, r, (r + run.n - 1) % run.n), left) << "n = " << run.n;
    }
  }
}

TEST(PhaseAlignment, PositionNeedsTheSameCallsOnEveryRank) {
  PhaseRun same;
  same.n = 3;
  for (int r = 0; r < 3; ++r) same.ranks.push_back({isend(r, (r + 1) % 3, 3)});
  const Alignment ok = align_phase(std::vector<PhaseRun>{same}, AlignmentMethod::Position);
  ASSERT_TRUE(ok.aligned()) << ok.failure;
  ASSERT_EQ(ok.runs[0].slot_events.size(), 1u);
  EXPECT_EQ(ok.method, AlignmentMethod::Position);

  // A rank that makes fewer of the fullest rank's calls has null slots where it skips them.
  PhaseRun fewer = same;
  fewer.ranks[0].push_back(collective(core::Op::Barrier));
  fewer.ranks[1].push_back(collective(core::Op::Barrier));
  const Alignment nulls = align_phase(std::vector<PhaseRun>{fewer}, AlignmentMethod::Position);
  ASSERT_TRUE(nulls.aligned()) << nulls.failure;
  ASSERT_EQ(nulls.runs[0].slot_events.size(), 2u);
  EXPECT_TRUE(nulls.runs[0].slot_events[1][0].has_value());
  EXPECT_FALSE(nulls.runs[0].slot_events[1][2].has_value());

  // Other calls than the fullest rank's are not nulls.
  PhaseRun different = same;
  different.ranks[2] = {collective(core::Op::Barrier)};
  const Alignment refused =
      align_phase(std::vector<PhaseRun>{different}, AlignmentMethod::Position);
  EXPECT_FALSE(refused.aligned());
  EXPECT_EQ(refused.failure, "at n = 3 ranks 0 and 2 make different calls (not only fewer)");

  // The same operations with other tags are said to be so.
  PhaseRun retagged = fewer;
  for (EventToken& e : retagged.ranks[2]) e.tag += 100;
  retagged.ranks[2].push_back(collective(core::Op::Barrier));
  const Alignment tags = align_phase(std::vector<PhaseRun>{retagged}, AlignmentMethod::Position);
  EXPECT_FALSE(tags.aligned());
  EXPECT_EQ(tags.failure,
            "at n = 3 ranks 0 and 2 make different calls (the same operations, with other tags)");
}

TEST(PhaseAlignment, ACallTheLargestRunLacksIsAFailure) {
  PhaseRun small = stencil(2);
  small.ranks[0].push_back(isend(0, 1, small.n, 9));  // a tag the largest run never uses
  const std::vector<PhaseRun> runs = {small, stencil(3)};
  const Alignment a = align_phase(runs, AlignmentMethod::Centered);
  EXPECT_FALSE(a.aligned());
  EXPECT_NE(a.failure.find("at n = 4"), std::string::npos) << a.failure;
  EXPECT_NE(a.failure.find("isend"), std::string::npos) << a.failure;
}

TEST(PhaseAlignment, AbsolutePeerUndoesTheRelativeOne) {
  EXPECT_EQ(absolute_peer(signature::relative_rank(2, 5, 8), 5, 8), 2);
  EXPECT_EQ(absolute_peer(signature::relative_rank(7, 0, 8), 0, 8), 7);
  EXPECT_EQ(absolute_peer(core::kNone, 3, 8), -1);
}

}  // namespace
}  // namespace p3s::model

namespace p3s::model {
namespace {

// A run of one phase whose every rank makes `events_of(rank)`, `weight` times, 90 % of its run.
LogicalRun one_phase_run(std::int64_t n, std::int64_t weight,
                         const std::function<std::vector<EventToken>(std::int64_t)>& events_of) {
  LogicalRun run;
  run.n = n;
  LogicalPhase phase;
  for (std::int64_t r = 0; r < n; ++r) {
    LogicalRankPhase rank;
    rank.events = events_of(r);
    rank.weight = weight;
    rank.share = 0.9;
    rank.total_ns = 900;
    phase.ranks.push_back(std::move(rank));
    run.rank_run_ns.push_back(1000);
  }
  run.phases.push_back(std::move(phase));
  return run;
}

// An FFT-like loop: an alltoall, then one sendrecv per bit of n with rank r XOR 2^k, then an
// allreduce, 30 times; n a power of two.
LogicalRun alltoall_then_exchanges(std::int64_t n) {
  return one_phase_run(n, 30, [n](std::int64_t r) {
    std::vector<EventToken> events;
    EventToken alltoall = collective(core::Op::Alltoall);
    alltoall.bytes = alltoall.rbytes = 65536;
    events.push_back(alltoall);
    for (std::int64_t k = 0; (std::int64_t{1} << k) < n; ++k) {
      const std::int64_t peer = r ^ (std::int64_t{1} << k);
      EventToken exchange = isend(r, peer, n);
      exchange.op = core::Op::Sendrecv;
      exchange.src = exchange.dst;
      exchange.rtag = exchange.tag;
      exchange.rbytes = exchange.bytes;
      events.push_back(exchange);
    }
    events.push_back(collective(core::Op::Allreduce));
    return events;
  });
}

TEST(SlotLayout, AGrowingBlockBetweenFixedCallsIsModelled) {
  const Slt slt = build_slt({alltoall_then_exchanges(2), alltoall_then_exchanges(4),
                             alltoall_then_exchanges(8), alltoall_then_exchanges(16)});
  ASSERT_EQ(slt.phases.size(), 1u);
  const PhaseModel& phase = slt.phases[0];
  ASSERT_TRUE(phase.pattern_modelled) << phase.failures.front();
  ASSERT_EQ(phase.layout.blocks.size(), 1u);
  EXPECT_EQ(phase.layout.templates, 3);
  EXPECT_EQ(phase.layout.blocks[0].first, 1);
  EXPECT_EQ(phase.layout.blocks[0].count.text(), "log2(n)");
  EXPECT_EQ(phase.slots[0].op, core::Op::Alltoall);
  EXPECT_EQ(phase.slots[2].op, core::Op::Allreduce);
  // At N = 256: the alltoall, 8 exchanges with r XOR 2^k, the allreduce, on every rank.
  const SltScaledTrace trace(slt, 256);
  EXPECT_TRUE(check_consistency(trace).consistent());
  std::vector<core::Event> events;
  trace.phase_events(0, 37, events);
  ASSERT_EQ(events.size(), 10u);
  EXPECT_EQ(events.front().op, core::Op::Alltoall);
  for (int k = 0; k < 8; ++k) EXPECT_EQ(events[1 + k].dst, 37 ^ (1 << k)) << k;
  EXPECT_EQ(events.back().op, core::Op::Allreduce);
}

// A pipeline on a periodic ring, as an ADI sweep runs one: n - 1 stages forward, each sending
// to r + 1 with the stage's tag 100 + s and receiving from r - 1, then n - 1 stages back, from
// the last cell's stage down (tags 200 + n - 1 to 201), sending to r - 1; then an allreduce.
LogicalRun forward_and_back(std::int64_t n) {
  auto stage = [n](std::int64_t r, std::int64_t ahead, std::int32_t tag,
                   std::vector<EventToken>& events) {
    events.push_back(isend(r, (r + ahead + n) % n, n, tag));
    EventToken receive = isend(r, (r - ahead + n) % n, n, -1);
    receive.op = core::Op::Irecv;
    receive.src = receive.dst;
    receive.dst = core::kNone;
    receive.rtag = tag;
    receive.rbytes = receive.bytes;
    receive.bytes = 0;
    events.push_back(receive);
  };
  return one_phase_run(n, 10, [n, &stage](std::int64_t r) {
    std::vector<EventToken> events;
    for (std::int32_t s = 0; s + 1 < n; ++s) stage(r, 1, 100 + s, events);
    for (auto s = static_cast<std::int32_t>(n - 1); s > 0; --s) stage(r, -1, 200 + s, events);
    events.push_back(collective(core::Op::Allreduce));
    return events;
  });
}

TEST(SlotLayout, ABackwardSweepsTagsStartAtTheLastStageWhereverNPutsIt) {
  const Slt slt = build_slt(
      {forward_and_back(2), forward_and_back(3), forward_and_back(4), forward_and_back(5)});
  ASSERT_EQ(slt.phases.size(), 1u);
  const PhaseModel& phase = slt.phases[0];
  ASSERT_TRUE(phase.pattern_modelled) << phase.failures.front();
  ASSERT_EQ(phase.layout.blocks.size(), 2u) << phase.layout.blocks_text();
  EXPECT_EQ(phase.layout.blocks[0].count.text(), "n - 1");
  EXPECT_EQ(phase.layout.blocks[1].count.text(), "n - 1");
  // At N = 12, rank 5: 11 stages forward (tags 100 to 110, to rank 6), 11 back (tags 211 down
  // to 201, to rank 4), the allreduce.
  const SltScaledTrace trace(slt, 12);
  EXPECT_TRUE(check_consistency(trace).consistent());
  std::vector<core::Event> events;
  trace.phase_events(0, 5, events);
  ASSERT_EQ(events.size(), 45u);
  for (int s = 0; s < 11; ++s) {
    EXPECT_EQ(events[2 * s].dst, 6) << s;
    EXPECT_EQ(events[2 * s].tag, 100 + s) << s;
    EXPECT_EQ(events[22 + 2 * s].dst, 4) << s;
    EXPECT_EQ(events[22 + 2 * s].tag, 211 - s) << s;
    EXPECT_EQ(events[23 + 2 * s].src, 6) << s;
  }
  EXPECT_EQ(events.back().op, core::Op::Allreduce);
}

}  // namespace
}  // namespace p3s::model

namespace p3s::model {
namespace {

// A run whose phases are given as (operation, weight, share of the run) on every rank.
LogicalRun run_of(std::int64_t n,
                  const std::vector<std::tuple<core::Op, std::int64_t, double>>& phases) {
  LogicalRun run;
  run.n = n;
  run.rank_run_ns.assign(static_cast<std::size_t>(n), 1000);
  for (const auto& [op, weight, share] : phases) {
    LogicalPhase phase;
    phase.id = static_cast<std::int32_t>(run.phases.size());
    for (std::int64_t r = 0; r < n; ++r) {
      LogicalRankPhase rank;
      rank.events = {collective(op)};
      rank.weight = weight;
      rank.share = share;
      rank.total_ns = static_cast<std::int64_t>(share * 1000);
      phase.ranks.push_back(rank);
    }
    run.phases.push_back(std::move(phase));
  }
  return run;
}

TEST(PhaseMatching, TheLoopIsMatchedFirstAndALookalikeOneOffCannotTakeItsPlace) {
  // At n = 4 a one-off allreduce comes before the loop of allreduces; the other runs have no
  // such one-off. By position it would be paired with the loop of n = 8 and 16.
  const std::vector<LogicalRun> runs = {
      run_of(4, {{core::Op::Allreduce, 1, 0.05}, {core::Op::Allreduce, 100, 0.9}}),
      run_of(8, {{core::Op::Allreduce, 100, 0.9}}), run_of(16, {{core::Op::Allreduce, 100, 0.9}})};
  std::vector<const LogicalRun*> sorted;
  for (const LogicalRun& r : runs) sorted.push_back(&r);
  const std::vector<PhaseFamily> families = match_phases(sorted);
  ASSERT_EQ(families.size(), 2u);
  // In logical order: the one-off, found in the n = 4 run only, then the loop in all three.
  EXPECT_EQ(families[0].runs_present(), 1u);
  ASSERT_TRUE(families[0].members[0].has_value());
  EXPECT_EQ(families[0].members[0]->phase, 0u);
  EXPECT_EQ(families[1].runs_present(), 3u);
  ASSERT_TRUE(families[1].members[0].has_value());
  EXPECT_EQ(families[1].members[0]->phase, 1u);
  EXPECT_NE(families[1].members[0]->reason.find("same weight"), std::string::npos)
      << families[1].members[0]->reason;
  EXPECT_EQ(families[1].members[2]->reason, "reference");

  const Slt slt = build_slt(runs);
  ASSERT_EQ(slt.phases.size(), 1u);  // the one-off: one run cannot show how it scales
  EXPECT_EQ(slt.phases[0].runs_n, (std::vector<std::int64_t>{4, 8, 16}));
  EXPECT_EQ(slt.phases[0].weight.at(1024), 100.0);
  ASSERT_FALSE(slt.coverage[0].missing.empty());
  EXPECT_NE(slt.coverage[0].missing[0].why.find("appears only at n = 4"), std::string::npos);
}

TEST(PhaseMatching, AnOrderThatCrossesAnotherPairingIsNotAllowed) {
  // Two loops, A (barrier) then B (allreduce); at n = 4 B looks more like the reference's A by
  // weight, but pairing it would cross the order the runs share.
  const std::vector<LogicalRun> runs = {
      run_of(4, {{core::Op::Barrier, 50, 0.3}, {core::Op::Allreduce, 100, 0.6}}),
      run_of(8, {{core::Op::Barrier, 100, 0.3}, {core::Op::Allreduce, 100, 0.6}})};
  std::vector<const LogicalRun*> sorted = {&runs[0], &runs[1]};
  const std::vector<PhaseFamily> families = match_phases(sorted);
  ASSERT_EQ(families.size(), 2u);
  EXPECT_EQ(families[0].members[0]->phase, 0u);
  EXPECT_EQ(families[1].members[0]->phase, 1u);
}

// LAMMPS's timestep on a 1 x 2 x 2 grid (n = 4) swaps with 4 neighbours, on 2 x 2 x 2 and
// larger with 6: a block of (irecv, send, wait) repeats 8 times at n = 4 and 12 times after.
// No formula in n says that, and the failure names the one run that breaks the agreement.
TEST(SlotTemplates, ABlockCountOnlyOneRunBreaksNamesThatRun) {
  Alignment alignment;
  for (const auto& [n, swaps] : {std::pair{4, 8}, {8, 12}, {12, 12}, {16, 12}}) {
    AlignedRun run;
    run.n = n;
    for (int s = 0; s < swaps; ++s) {
      for (const core::Op op : {core::Op::Irecv, core::Op::Send, core::Op::Wait}) {
        signature::EventToken t;
        t.op = op;
        run.slot_events.push_back({t});
      }
    }
    alignment.runs.push_back(run);
  }
  std::vector<std::string> failures;
  EXPECT_FALSE(infer_slot_templates(alignment, LeadingRepetitions::Shifted, failures));
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_NE(failures[0].find("8 at n = 4; 12 at n = 8; 12 at n = 12; 12 at n = 16"),
            std::string::npos)
      << failures[0];
  EXPECT_NE(failures[0].find("every run but the smallest, n = 4, agrees"), std::string::npos)
      << failures[0];
}

}  // namespace
}  // namespace p3s::model
