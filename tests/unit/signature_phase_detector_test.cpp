#include <gtest/gtest.h>

#include <random>

#include "signature/phase_detector.hpp"
#include "signature/token_sequence.hpp"
#include "unit/signature_test_traces.hpp"

namespace p3s::signature {
namespace {

using core::Op;
using testing::collective;
using testing::finalize;
using testing::recv;
using testing::send;
using testing::TraceBuilder;
using testing::waitall;

// One iteration of a 2D stencil on `rank` with the given neighbours (world ranks): receives,
// sends, waitall, compute, allreduce.
void stencil_iteration(TraceBuilder& b, const std::vector<std::int32_t>& neighbours,
                       std::int64_t compute_ns) {
  for (std::int32_t n : neighbours) b.add(recv(n, 512, Op::Irecv), 200, 500);
  for (std::int32_t n : neighbours) b.add(send(n, 512, Op::Isend), 200, 500);
  b.add(waitall(2 * neighbours.size()), 100, 20'000);
  b.add(collective(Op::Allreduce, 8), compute_ns, 5'000);
}

PhaseOptions with(double threshold, double similarity = 0.85) {
  PhaseOptions o;
  o.threshold = threshold;
  o.similarity = similarity;
  return o;
}

std::vector<Op> ops(const RankPhase& p) {
  std::vector<Op> out;
  for (const EventToken& t : p.events) out.push_back(t.op);
  return out;
}

TEST(EventToken, PeersAreRelativeToTheRank) {
  TraceBuilder a(1, 4), b(2, 4);
  a.add(send(2, 64)).add(recv(0, 64));
  b.add(send(3, 64)).add(recv(1, 64));
  CommShapes sa(a.trace()), sb(b.trace());
  const TokenSequence ta = tokenize(a.trace(), sa), tb = tokenize(b.trace(), sb);
  EXPECT_EQ(ta.tokens, tb.tokens);
  EXPECT_EQ(ta.tokens[0].dst, 1);
  EXPECT_EQ(ta.tokens[1].src, 3);  // rank 0 seen from rank 1 in 4: -1 mod 4
}

TEST(EventToken, BytesTagsAndRequestCountsDistinguishEvents) {
  TraceBuilder b(0, 2);
  b.add(send(1, 64)).add(send(1, 65)).add(waitall(2)).add(waitall(3));
  core::Event tagged = send(1, 64);
  tagged.tag = 5;
  b.add(tagged);
  CommShapes shapes(b.trace());
  EXPECT_EQ(tokenize(b.trace(), shapes).tokens.size(), 5u);
}

TEST(EventToken, RecreatedCommunicatorsWithTheSameMembersAreEqual) {
  TraceBuilder b(0, 4);
  core::RankTrace trace = b.trace();
  trace.comms.push_back({7, {0, 2}});
  trace.comms.push_back({8, {0, 2}});
  trace.comms.push_back({9, {0, 1}});
  CommShapes shapes(trace);
  EXPECT_EQ(shapes.shape_of(7), shapes.shape_of(8));
  EXPECT_NE(shapes.shape_of(7), shapes.shape_of(9));
  EXPECT_EQ(shapes.shape_of(0), 0);
}

TEST(PhaseDetector, StencilLoopIsOnePhaseWeighedByItsIterations) {
  TraceBuilder b(4, 9);  // the centre of a 3 x 3 grid
  b.add(collective(Op::Bcast, 16, 0), 50'000, 2'000);
  for (int it = 0; it < 100; ++it) stencil_iteration(b, {1, 7, 3, 5}, 300'000);
  b.add(collective(Op::Reduce, 8, 0), 10'000, 2'000).add(finalize(), 5'000, 100'000);
  const RankPhases r = detect_phases(b.trace());

  EXPECT_EQ(r.phase_count, 4);  // bcast, loop, reduce, finalize
  ASSERT_EQ(r.phases.size(), 1u);
  const RankPhase& loop = r.phases[0];
  EXPECT_EQ(loop.weight, 100);
  EXPECT_EQ(loop.occurrences, 1);
  EXPECT_EQ(loop.first_event, 1u);
  EXPECT_EQ(ops(loop),
            (std::vector<Op>{Op::Irecv, Op::Irecv, Op::Irecv, Op::Irecv, Op::Isend, Op::Isend,
                             Op::Isend, Op::Isend, Op::Waitall, Op::Allreduce}));
  EXPECT_EQ(loop.events[0].src, 6);  // north: 1 - 4 mod 9
  EXPECT_EQ(loop.events[4].dst, 6);
  EXPECT_EQ(loop.events[4].bytes, 512);
  EXPECT_EQ(loop.events[8].requests, 8);
  EXPECT_GT(r.coverage(), 0.95);
  // Run time stops where finalize is called: its own duration is not the program's.
  EXPECT_EQ(r.run_ns, b.trace().events.back().t_start);
  EXPECT_EQ(r.other_events, 3);
  EXPECT_EQ(r.pet_ns() + r.other_ns, r.run_ns);
  // Compute per event: the allreduce follows the stencil's compute.
  EXPECT_DOUBLE_EQ(loop.slots[9].cpu_ns.mean(), 300'000);
  EXPECT_DOUBLE_EQ(loop.slots[8].call_ns.mean(), 20'000);
  EXPECT_DOUBLE_EQ(loop.time_ns.stddev(), 0);
}

TEST(PhaseDetector, PhasesTileTheRun) {
  TraceBuilder b(0, 4);
  std::mt19937 rng(3);
  for (int i = 0; i < 300; ++i)
    b.add(send(1 + static_cast<std::int32_t>(rng() % 3), 8), rng() % 5000 + 1, rng() % 900 + 1);
  b.add(finalize(), 777, 1);
  const RankPhases r = detect_phases(b.trace(), with(0.0));
  EXPECT_EQ(r.pet_ns(), r.run_ns);
  EXPECT_DOUBLE_EQ(r.coverage(), 1.0);
  std::int64_t weighted_events = 0;
  for (const RankPhase& p : r.phases)
    weighted_events += p.weight * static_cast<std::int64_t>(p.events.size());
  EXPECT_EQ(weighted_events, r.events);
}

TEST(PhaseDetector, BorderAndInnerRanksHaveTheSameLoopWithTheirOwnPeers) {
  TraceBuilder corner(0, 9), inner(4, 9);
  for (int it = 0; it < 40; ++it) {
    stencil_iteration(corner, {3, 1}, 100'000);
    stencil_iteration(inner, {1, 7, 3, 5}, 100'000);
  }
  const RankPhases c = detect_phases(corner.trace()), i = detect_phases(inner.trace());
  ASSERT_EQ(c.phases.size(), 1u);
  ASSERT_EQ(i.phases.size(), 1u);
  EXPECT_EQ(c.phases[0].weight, 40);
  EXPECT_EQ(i.phases[0].weight, 40);
  EXPECT_EQ(c.phases[0].events.size(), 6u);
  EXPECT_EQ(c.phases[0].events.front().op, Op::Irecv);
  EXPECT_EQ(c.phases[0].events.back().op, Op::Allreduce);
}

TEST(PhaseDetector, LoopRepeatedLaterAddsUpItsWeight) {
  TraceBuilder b(0, 2);
  auto loop_a = [&](int k) {
    for (int i = 0; i < k; ++i) b.add(send(1, 100), 50'000).add(recv(1, 100), 1'000);
  };
  loop_a(30);
  for (int i = 0; i < 20; ++i) b.add(collective(Op::Allreduce, 8), 80'000);
  loop_a(25);
  b.add(finalize());
  const RankPhases r = detect_phases(b.trace());
  ASSERT_EQ(r.phases.size(), 2u);
  EXPECT_EQ(r.phases[0].weight, 55);
  EXPECT_EQ(r.phases[0].occurrences, 2);
  EXPECT_EQ(r.phases[1].weight, 20);
  EXPECT_EQ(ops(r.phases[1]), std::vector<Op>{Op::Allreduce});
}

TEST(PhaseDetector, IrregularProgramGetsManyPhasesAndLowCoverage) {
  TraceBuilder b(0, 8);
  std::mt19937 rng(5);
  // Every message has its own size: no two events are alike.
  for (int i = 0; i < 1000; ++i)
    b.add(send(static_cast<std::int32_t>(rng() % 8), 1000 + i), 10'000);
  b.add(finalize());
  const RankPhases r = detect_phases(b.trace());
  EXPECT_EQ(r.phase_count, 1001);
  EXPECT_TRUE(r.phases.empty());
  EXPECT_LT(r.coverage(), 0.05);
  EXPECT_EQ(r.other_events, 1001);
}

TEST(PhaseDetector, ComputeBeyondTheSimilaritySplitsAPhase) {
  TraceBuilder b(0, 2);
  for (int i = 0; i < 10; ++i) b.add(send(1, 8), 1'000'000).add(recv(1, 8), 10'000);
  for (int i = 0; i < 10; ++i) b.add(send(1, 8), 2'000'000).add(recv(1, 8), 10'000);
  for (int i = 0; i < 5; ++i) b.add(send(1, 8), 1'050'000).add(recv(1, 8), 10'000);
  const RankPhases r = detect_phases(b.trace());
  ASSERT_EQ(r.phases.size(), 2u);
  EXPECT_EQ(r.phases[0].weight, 15);  // 1 ms and 1.05 ms are 95 % similar
  EXPECT_EQ(r.phases[0].occurrences, 2);
  EXPECT_EQ(r.phases[1].weight, 10);
  EXPECT_NEAR(r.phases[1].slots[0].cpu_ns.mean(), 2'000'000, 1);
}

TEST(PhaseDetector, RareSlowRepetitionsStayInTheirPhase) {
  TraceBuilder b(0, 2);
  // 3 slow iterations out of 200 (a page-fault storm, a noisy neighbour): noise, not a phase.
  for (int i = 0; i < 200; ++i) {
    b.add(send(1, 8), i == 0 || i == 77 || i == 150 ? 3'000'000 : 1'000'000)
        .add(recv(1, 8), 10'000);
  }
  const RankPhases r = detect_phases(b.trace());
  ASSERT_EQ(r.phases.size(), 1u);
  EXPECT_EQ(r.phases[0].weight, 200);
  EXPECT_EQ(r.phases[0].occurrences, 1);
  EXPECT_EQ(r.phases[0].first_event, 0u);
  EXPECT_EQ(r.phase_count, 1);
  EXPECT_NEAR(r.phases[0].slots[0].cpu_ns.mean(), 1'030'000, 1);
  EXPECT_GT(r.phases[0].slots[0].cpu_ns.stddev(), 0);
  EXPECT_EQ(r.pet_ns(), r.run_ns);
}

TEST(PhaseDetector, SimilarityThresholdIsConfigurable) {
  TraceBuilder b(0, 2);
  for (int i = 0; i < 10; ++i) b.add(send(1, 8), 1'000'000).add(recv(1, 8), 10'000);
  for (int i = 0; i < 10; ++i) b.add(send(1, 8), 1'100'000).add(recv(1, 8), 10'000);
  EXPECT_EQ(detect_phases(b.trace(), with(0.01, 0.85)).phases.size(), 1u);
  EXPECT_EQ(detect_phases(b.trace(), with(0.01, 0.95)).phases.size(), 2u);
}

TEST(PhaseDetector, MicrosecondNoiseDoesNotSplitAPhase) {
  TraceBuilder b(0, 2);
  std::mt19937 rng(1);
  // 2 to 12 us of compute: relative differences are huge, absolute ones are noise.
  for (int i = 0; i < 200; ++i) b.add(send(1, 8), 2'000 + rng() % 10'000).add(recv(1, 8), 2'000);
  const RankPhases r = detect_phases(b.trace());
  ASSERT_EQ(r.phases.size(), 1u);
  EXPECT_EQ(r.phases[0].weight, 200);
}

TEST(PhaseDetector, InstructionsDecideWhenCounted) {
  TraceBuilder b(0, 2);
  b.with_instruction_counter();
  // CPU time doubles (a noisy neighbour) but the work, in instructions, is the same...
  for (int i = 0; i < 10; ++i) b.add(send(1, 8), i < 5 ? 1'000'000 : 2'000'000, 1'000, 3'000'000);
  // ...and here the work differs while CPU time does not.
  for (int i = 0; i < 10; ++i) b.add(send(1, 8), 1'000'000, 1'000, 6'000'000);
  const RankPhases r = detect_phases(b.trace());
  EXPECT_TRUE(r.instructions);
  ASSERT_EQ(r.phases.size(), 2u);
  EXPECT_EQ(r.phases[0].weight, 10);
  EXPECT_EQ(r.phases[1].weight, 10);
  EXPECT_DOUBLE_EQ(r.phases[1].instructions.mean(), 6'000'000);
}

TEST(PhaseDetector, ThresholdDecidesRelevance) {
  TraceBuilder b(0, 2);
  for (int i = 0; i < 50; ++i) b.add(send(1, 8), 100'000);
  b.add(collective(Op::Barrier, 0), 82'000);  // about 1.6 % of the run
  const RankPhases at_1 = detect_phases(b.trace(), with(0.01));
  const RankPhases at_5 = detect_phases(b.trace(), with(0.05));
  EXPECT_EQ(at_1.phases.size(), 2u);
  EXPECT_EQ(at_5.phases.size(), 1u);
  EXPECT_GT(at_1.coverage(), at_5.coverage());
}

TEST(PhaseDetector, EmptyTrace) {
  TraceBuilder b(0, 1);
  const RankPhases r = detect_phases(b.trace());
  EXPECT_EQ(r.phase_count, 0);
  EXPECT_EQ(r.run_ns, 0);
  EXPECT_EQ(r.coverage(), 0.0);
}

}  // namespace
}  // namespace p3s::signature
