#include <gtest/gtest.h>

#include <algorithm>
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

PhaseOptions with(double threshold, double size_tolerance = 0.5) {
  PhaseOptions o;
  o.threshold = threshold;
  o.size_tolerance = size_tolerance;
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

TEST(EventToken, TagsAndRequestCountsDistinguishEventsSizesDoNot) {
  TraceBuilder b(0, 2);
  b.add(send(1, 64)).add(send(1, 65)).add(waitall(2)).add(waitall(3));
  core::Event tagged = send(1, 64);
  tagged.tag = 5;
  b.add(tagged);
  CommShapes shapes(b.trace());
  const TokenSequence seq = tokenize(b.trace(), shapes);
  EXPECT_EQ(seq.tokens.size(), 4u);
  EXPECT_EQ(seq.ids[0], seq.ids[1]);
}

TEST(EventToken, PollsThatFoundNothingFoldIntoTheNextEvent) {
  TraceBuilder b(0, 2);
  core::Event poll;
  poll.op = Op::Testany;
  core::Event done = poll;
  done.requests.resize(1);
  b.add(send(1, 8, Op::Isend)).add(poll).add(poll).add(poll).add(done).add(send(1, 8));
  CommShapes shapes(b.trace());
  const TokenSequence seq = tokenize(b.trace(), shapes);
  ASSERT_EQ(seq.ids.size(), 3u);
  EXPECT_EQ(seq.units[1].first, 1u);  // three empty polls folded into the one that completed
  EXPECT_EQ(seq.units[1].key, 4u);
  EXPECT_EQ(seq.units[2].first, 5u);
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

  EXPECT_EQ(r.phase_count, 3);  // bcast, loop, then reduce and finalize
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

TEST(PhaseDetector, IrregularProgramIsOneStretchOfWeightOne) {
  TraceBuilder b(0, 8);
  std::mt19937 rng(5);
  // Every message has its own tag: no two events are alike, and nothing repeats.
  for (int i = 0; i < 1000; ++i) {
    core::Event e = send(static_cast<std::int32_t>(rng() % 8), 1000);
    e.tag = i;
    b.add(e, 10'000);
  }
  b.add(finalize());
  const RankPhases r = detect_phases(b.trace());
  EXPECT_EQ(r.phase_count, 1);
  ASSERT_EQ(r.phases.size(), 1u);
  EXPECT_EQ(r.phases[0].weight, 1);
  EXPECT_EQ(r.phases[0].events.size(), 1001u);
}

TEST(PhaseDetector, ComputeDoesNotSplitAPhaseItsSpreadIsKept) {
  TraceBuilder b(0, 2);
  for (int i = 0; i < 10; ++i) b.add(send(1, 8), 1'000'000).add(recv(1, 8), 10'000);
  for (int i = 0; i < 10; ++i) b.add(send(1, 8), 2'000'000).add(recv(1, 8), 10'000);
  for (int i = 0; i < 5; ++i) b.add(send(1, 8), 1'050'000).add(recv(1, 8), 10'000);
  const RankPhases r = detect_phases(b.trace());
  ASSERT_EQ(r.phases.size(), 1u);
  EXPECT_EQ(r.phases[0].weight, 25);
  EXPECT_NEAR(r.phases[0].slots[0].cpu_ns.mean(), (10 * 1.0e6 + 10 * 2.0e6 + 5 * 1.05e6) / 25, 1);
  EXPECT_DOUBLE_EQ(r.phases[0].slots[0].cpu_ns.min(), 1'000'000);
  EXPECT_DOUBLE_EQ(r.phases[0].slots[0].cpu_ns.max(), 2'000'000);
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

TEST(PhaseDetector, SizesWithinTheToleranceAreOnePhaseWithTheirRange) {
  TraceBuilder b(0, 2);
  // Ghost counts that change at every re-neighbouring: 100 kB, then 130 kB.
  for (int i = 0; i < 10; ++i) b.add(send(1, 100'000), 1'000'000).add(recv(1, 100'000), 10'000);
  for (int i = 0; i < 10; ++i) b.add(send(1, 130'000), 1'000'000).add(recv(1, 130'000), 10'000);
  const RankPhases loose = detect_phases(b.trace(), with(0.01, 0.5));
  ASSERT_EQ(loose.phases.size(), 1u);
  EXPECT_EQ(loose.phases[0].weight, 20);
  EXPECT_EQ(loose.phases[0].events[0].bytes, 115'000);  // the mean
  EXPECT_DOUBLE_EQ(loose.phases[0].slots[0].bytes.min(), 100'000);
  EXPECT_DOUBLE_EQ(loose.phases[0].slots[0].bytes.max(), 130'000);
  EXPECT_EQ(detect_phases(b.trace(), with(0.01, 0.2)).phases.size(), 2u);
}

TEST(PhaseDetector, SizesThatSpreadWithoutAGapStayOnePhaseHoweverWide) {
  TraceBuilder b(0, 2);
  // Atoms leaving a subdomain: none at the first re-neighbouring, then a few hundred bytes more
  // each time, up to 9 KiB. Neighbours in size order are never 1.5x apart (with the 4 KiB
  // slack), although the whole range is: one phase. Shuffled, so that the order in which
  // the sizes come does not decide either.
  std::vector<std::int64_t> sizes;
  for (std::int64_t s = 0; s <= 9'000; s += 600) sizes.push_back(s);
  std::shuffle(sizes.begin(), sizes.end(), std::mt19937(7));
  for (std::int64_t bytes : sizes) b.add(send(1, bytes), 1'000'000).add(recv(1, bytes), 10'000);
  const RankPhases r = detect_phases(b.trace());
  ASSERT_EQ(r.phases.size(), 1u);
  EXPECT_EQ(r.phases[0].weight, static_cast<std::int64_t>(sizes.size()));
  EXPECT_DOUBLE_EQ(r.phases[0].slots[0].bytes.min(), 0);
  EXPECT_DOUBLE_EQ(r.phases[0].slots[0].bytes.max(), 9'000);
}

TEST(PhaseDetector, AGapInTheSizesSplitsWhereItIsWhateverTheOrder) {
  TraceBuilder b(0, 2);
  // Two groups, 1 KiB to 3 KiB and 60 KiB to 64 KiB, interleaved: the gap between 3 KiB and
  // 60 KiB is the only place to split.
  const std::int64_t sizes[] = {1'024, 61'440, 3'072, 65'536, 2'048, 60'000, 1'500, 63'000};
  for (int round = 0; round < 3; ++round) {
    for (std::int64_t bytes : sizes) b.add(send(1, bytes), 1'000'000).add(recv(1, bytes), 10'000);
  }
  const RankPhases r = detect_phases(b.trace(), with(0.0));
  ASSERT_EQ(r.phases.size(), 2u);
  for (const RankPhase& p : r.phases) {
    EXPECT_EQ(p.weight, 12);
    const bool small = p.slots[0].bytes.max() < 4'096;
    EXPECT_DOUBLE_EQ(p.slots[0].bytes.min(), small ? 1'024 : 60'000);
    EXPECT_DOUBLE_EQ(p.slots[0].bytes.max(), small ? 3'072 : 65'536);
  }
}

TEST(PhaseDetector, LevelsFourTimesApartAreSeparatePhases) {
  TraceBuilder b(0, 2);
  // A multigrid cycle's exchange at three levels: the same calls, 64 kB, 16 kB and 4 kB.
  for (int it = 0; it < 20; ++it) {
    for (std::int64_t bytes : {65'536, 16'384, 4'096}) {
      b.add(send(1, bytes), 500'000).add(recv(1, bytes), 10'000);
    }
  }
  const RankPhases r = detect_phases(b.trace(), with(0.0));
  ASSERT_EQ(r.phases.size(), 3u);
  for (std::size_t level = 0; level < 3; ++level) {
    EXPECT_EQ(r.phases[level].weight, 20);
    ASSERT_EQ(r.phases[level].events.size(), 2u);
    EXPECT_EQ(r.phases[level].events[0].bytes, 65'536 >> (2 * level));
  }
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

TEST(PhaseDetector, InstructionsAreKeptWhenCounted) {
  TraceBuilder b(0, 2);
  b.with_instruction_counter();
  for (int i = 0; i < 10; ++i) b.add(send(1, 8), i < 5 ? 1'000'000 : 2'000'000, 1'000, 3'000'000);
  for (int i = 0; i < 10; ++i) b.add(send(1, 8), 1'000'000, 1'000, 6'000'000);
  const RankPhases r = detect_phases(b.trace());
  EXPECT_TRUE(r.instructions);
  ASSERT_EQ(r.phases.size(), 1u);
  EXPECT_EQ(r.phases[0].weight, 20);
  EXPECT_DOUBLE_EQ(r.phases[0].instructions.mean(), 4'500'000);
}

// A timestep of four exchanges, two with the same peer (a grid dimension of extent 2): the
// inner repeat is not the phase, the timestep is.
void timestep(TraceBuilder& b, std::int64_t bytes) {
  for (std::int32_t peer : {1, 1, 2, 3}) {
    b.add(recv(peer, bytes, Op::Irecv), 2'000).add(send(peer, bytes), 1'000).add(waitall(1), 1'000);
  }
  b.add(collective(Op::Allreduce, 8), 400'000);
}

TEST(PhaseDetector, TheTimestepIsThePhaseNotAnInnerRepeat) {
  TraceBuilder b(0, 4);
  for (int step = 0; step < 60; ++step) timestep(b, 10'000);
  const RankPhases r = detect_phases(b.trace(), with(0.0));
  ASSERT_EQ(r.phases.size(), 1u);
  EXPECT_EQ(r.phases[0].weight, 60);
  EXPECT_EQ(r.phases[0].events.size(), 13u);
  EXPECT_EQ(r.phases[0].events[0].op, Op::Irecv);
}

// Every 20 steps a re-neighbouring replaces the step's first two exchanges by other calls:
// the search picks the loop up again in another rotation, which must still be one phase.
TEST(PhaseDetector, ALoopResumedAfterAnInterruptionIsOnePhaseAndTheInterruptionAnother) {
  TraceBuilder b(0, 4);
  for (int block = 0; block < 5; ++block) {
    for (int step = 0; step < 19; ++step) timestep(b, 10'000 + 500 * block);
    b.add(collective(Op::Alltoall, 64), 3'000'000).add(collective(Op::Barrier, 0), 1'000);
    for (std::int32_t peer : {2, 3}) {
      b.add(recv(peer, 10'000, Op::Irecv), 2'000).add(send(peer, 10'000), 1'000).add(waitall(1));
    }
    b.add(collective(Op::Allreduce, 8), 400'000);
  }
  b.add(finalize());
  const RankPhases r = detect_phases(b.trace(), with(0.0));
  ASSERT_EQ(r.phases.size(), 3u);
  const RankPhase& loop = r.phases[0];
  EXPECT_EQ(loop.weight, 95);
  EXPECT_EQ(loop.events.size(), 13u);
  EXPECT_EQ(loop.events[0].op, Op::Irecv);
  EXPECT_EQ(loop.events[0].src, 1);
  // The last interruption runs on into finalize: a stretch of its own.
  const RankPhase& interruption = r.phases[1];
  EXPECT_EQ(interruption.weight, 4);
  EXPECT_EQ(ops(interruption),
            (std::vector<Op>{Op::Alltoall, Op::Barrier, Op::Irecv, Op::Send, Op::Waitall, Op::Irecv,
                             Op::Send, Op::Waitall, Op::Allreduce}));
  EXPECT_EQ(r.phases[2].weight, 1);
  EXPECT_EQ(r.phases[2].events.size(), 10u);
  EXPECT_EQ(r.phases[2].events.back().op, Op::Finalize);
}

TEST(PhaseDetector, AnOuterLoopOfTheLoopIsUnrolled) {
  TraceBuilder b(0, 2);
  // 4 restarts of (25 steps, then a checkpoint gather): the steps are the phase.
  for (int restart = 0; restart < 4; ++restart) {
    for (int step = 0; step < 25; ++step) b.add(send(1, 800), 100'000).add(recv(1, 800), 10'000);
    b.add(collective(Op::Gather, 4096, 0), 50'000);
  }
  const RankPhases r = detect_phases(b.trace(), with(0.0));
  ASSERT_EQ(r.phases.size(), 2u);
  EXPECT_EQ(r.phases[0].weight, 100);
  EXPECT_EQ(r.phases[0].occurrences, 4);
  EXPECT_EQ(r.phases[1].weight, 4);
  EXPECT_EQ(ops(r.phases[1]), std::vector<Op>{Op::Gather});
}

// A pipelined sweep step (SNAP's KBA): receive from upstream, wait for the previous step's send
// (made in the iteration before for the first step), send downstream; an allreduce closes the
// iteration. The send's message belongs to the iteration that posted it, with the receive that
// takes it downstream, so its wait moves back to the end of that iteration; the first
// iteration, whose wait has nothing to complete, is a stretch of its own.
TEST(PhaseDetector, AWaitForTheLastIterationsSendEndsThatIteration) {
  TraceBuilder b(4, 9);
  const int iterations = 30;
  for (int it = 0; it < iterations; ++it) {
    core::Event wait = waitall(0);
    if (it > 0) wait.requests.push_back({it - 1, true, 5, 0, 512});
    core::Event post = send(5, 512, Op::Isend);
    post.req = it;
    b.add(recv(3, 512), 1'000).add(wait, 1'000).add(post, 200'000);
    b.add(collective(Op::Allreduce, 8), 1'000);
  }
  core::Event last = waitall(0);
  last.requests.push_back({iterations - 1, true, 5, 0, 512});
  b.add(last, 1'000).add(finalize());
  const RankPhases r = detect_phases(b.trace(), with(0.0));
  ASSERT_EQ(r.phases.size(), 3u);
  const RankPhase& loop = r.phases[1];
  EXPECT_EQ(loop.weight, iterations - 1);
  EXPECT_EQ(ops(loop), (std::vector<Op>{Op::Recv, Op::Isend, Op::Allreduce, Op::Waitall}));
  EXPECT_EQ(loop.completes[3], std::vector<std::int32_t>{1});
  EXPECT_EQ(ops(r.phases[0]),
            (std::vector<Op>{Op::Recv, Op::Waitall, Op::Isend, Op::Allreduce, Op::Waitall}));
  EXPECT_EQ(ops(r.phases[2]), std::vector<Op>{Op::Finalize});
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
