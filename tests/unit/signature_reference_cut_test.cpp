// Cutting a run into a reference run's phases (signature/reference_cut.hpp), on synthetic traces
// whose program is known: the run at n = 1 of a chain whose loop is two allreduces there, a
// border rank that lacks the inner ranks' exchanges, a loop without collectives between two
// with, and runs that are not the same program.
#include <gtest/gtest.h>

#include <numeric>

#include "signature/phase_detector.hpp"
#include "signature/phase_relation.hpp"
#include "signature/reference_cut.hpp"
#include "unit/signature_test_traces.hpp"

namespace p3s::signature {
namespace {

using core::Op;
using testing::collective;
using testing::finalize;
using testing::recv;
using testing::send;
using testing::TraceBuilder;

core::Event wait_on(std::int64_t request) {
  core::Event e;
  e.op = Op::Wait;
  e.requests = {core::RequestRecord{request, false, 0, 0, 0}};
  return e;
}

// Rank `rank` of a non-periodic chain of n: a broadcast, an allreduce, `iterations` times
// (irecv from each neighbour, send to each, wait per receive, two allreduces), then a reduce.
// The loop's large compute sits before its exchange, as a CG's matrix product does.
core::RankTrace chain_rank(std::int32_t rank, std::int32_t n, int iterations) {
  TraceBuilder b(rank, n);
  b.add(collective(Op::Bcast, 8, 0)).add(collective(Op::Allreduce, 8));
  std::vector<std::int32_t> neighbours;
  if (rank > 0) neighbours.push_back(rank - 1);
  if (rank < n - 1) neighbours.push_back(rank + 1);
  std::int64_t request = 0;
  for (int it = 0; it < iterations; ++it) {
    std::vector<std::int64_t> posted;
    for (std::int32_t peer : neighbours) {
      core::Event e = recv(peer, 4096, Op::Irecv);
      e.req = request;
      posted.push_back(request++);
      b.add(e, 50'000);
    }
    for (std::int32_t peer : neighbours) b.add(send(peer, 4096), 100);
    for (std::int64_t req : posted) b.add(wait_on(req), 100);
    b.add(collective(Op::Allreduce, 8), it == 0 && neighbours.empty() ? 50'000 : 2'000);
    b.add(collective(Op::Allreduce, 8), 1'000);
  }
  b.add(collective(Op::Reduce, 4, 0)).add(finalize());
  return b.trace();
}

Signature signature_of(const std::vector<core::RankTrace>& traces, const PhaseOptions& options) {
  Signature sig;
  sig.run.nprocs = traces.front().nprocs;
  sig.run_dir = "run-" + std::to_string(sig.run.nprocs);
  for (const core::RankTrace& t : traces) sig.ranks.push_back(detect_phases(t, options));
  relate_phases(sig);
  return sig;
}

Signature chain_signature(std::int32_t n, int iterations) {
  std::vector<core::RankTrace> traces;
  for (std::int32_t r = 0; r < n; ++r) traces.push_back(chain_rank(r, n, iterations));
  PhaseOptions every;
  every.threshold = 0;
  return signature_of(traces, every);
}

// The reference phase repeated as often as the loop iterates.
std::int32_t loop_phase(const Signature& sig, int iterations) {
  for (const RunPhase& p : sig.phases) {
    if (p.weight == iterations) return p.id;
  }
  return -1;
}

std::size_t event_count(const RankPhases& rank) {
  std::size_t events = 0;
  for (const RankPhase& p : rank.phases) {
    events += p.events.size() * static_cast<std::size_t>(p.weight);
  }
  return events;
}

TEST(ReferenceCut, TheRunAtOneProcessHasTheLoopOfTheReferenceWithEveryExchangeNull) {
  constexpr int kIterations = 20;
  const Signature reference = chain_signature(8, kIterations);
  const std::int32_t loop = loop_phase(reference, kIterations);
  ASSERT_GE(loop, 0);
  const ReferenceCut cut = reference_cut_of(reference);

  // Cut on its own, n = 1 is one allreduce repeated 2 x 20 + 1 times.
  PhaseOptions own;
  own.threshold = 0;
  const RankPhases alone = detect_phases(chain_rank(0, 1, kIterations), own);
  EXPECT_TRUE(std::none_of(alone.phases.begin(), alone.phases.end(),
                           [](const RankPhase& p) { return p.weight == kIterations; }));

  PhaseOptions like = own;
  like.reference = &cut;
  const core::RankTrace single = chain_rank(0, 1, kIterations);
  const RankPhases rank = detect_phases(single, like);
  const auto it = std::find_if(rank.phases.begin(), rank.phases.end(),
                               [&](const RankPhase& p) { return p.id == loop; });
  ASSERT_NE(it, rank.phases.end());
  EXPECT_EQ(it->weight, kIterations);
  ASSERT_EQ(it->events.size(), 2u);  // the two allreduces, every exchange a null communication
  EXPECT_EQ(it->events[0].op, Op::Allreduce);
  EXPECT_EQ(it->events[1].op, Op::Allreduce);
  EXPECT_EQ(event_count(rank), single.events.size());  // every call in some phase
}

TEST(ReferenceCut, ABorderRankHasTheInnerRanksPhasesWithItsOwnCalls) {
  constexpr int kIterations = 12;
  const Signature reference = chain_signature(6, kIterations);
  const ReferenceCut cut = reference_cut_of(reference);
  PhaseOptions like;
  like.threshold = 0;
  like.reference = &cut;
  // At n = 3, rank 0 has one neighbour and rank 1 two: both have the reference's loop.
  for (std::int32_t r : {0, 1}) {
    const core::RankTrace trace = chain_rank(r, 3, kIterations);
    const RankPhases rank = detect_phases(trace, like);
    const auto it = std::find_if(rank.phases.begin(), rank.phases.end(), [&](const RankPhase& p) {
      return p.id == loop_phase(reference, kIterations);
    });
    ASSERT_NE(it, rank.phases.end()) << "rank " << r;
    EXPECT_EQ(it->weight, kIterations);
    const std::size_t exchanges = r == 0 ? 3 : 6;  // irecv, send, wait per neighbour
    EXPECT_EQ(it->events.size(), exchanges + 2) << "rank " << r;
    EXPECT_EQ(event_count(rank), trace.events.size());
  }
}

TEST(ReferenceCut, ARunWithCollectivesTheReferenceLacksIsNotReadLikeIt) {
  const ReferenceCut cut = reference_cut_of(chain_signature(4, 10));
  TraceBuilder b(0, 2);
  b.add(collective(Op::Bcast, 8, 0)).add(collective(Op::Alltoall, 64)).add(finalize());
  PhaseOptions like;
  like.threshold = 0;
  like.reference = &cut;
  EXPECT_THROW(detect_phases(b.trace(), like), ReferenceCutMismatch);
}

// A ring exchange loop without any collective, between a setup broadcast and a loop of
// allreduces: its calls are those left between the two.
core::RankTrace three_loops(std::int32_t rank, std::int32_t n) {
  TraceBuilder b(rank, n);
  b.add(collective(Op::Bcast, 8, 0));
  core::Event exchange = send((rank + 1) % n, 256, Op::Sendrecv);
  exchange.src = (rank + n - 1) % n;
  exchange.rtag = 0;
  exchange.rbytes = 256;
  for (int it = 0; it < 15; ++it) {
    if (n > 1) b.add(exchange, 20'000);
  }
  for (int it = 0; it < 10; ++it) b.add(collective(Op::Allreduce, 8), 5'000);
  b.add(finalize());
  return b.trace();
}

TEST(ReferenceCut, ALoopWithoutCollectivesTakesTheCallsBetweenItsNeighbours) {
  std::vector<core::RankTrace> traces;
  for (std::int32_t r = 0; r < 4; ++r) traces.push_back(three_loops(r, 4));
  PhaseOptions every;
  every.threshold = 0;
  const Signature reference = signature_of(traces, every);
  const std::int32_t ring = loop_phase(reference, 15);
  ASSERT_GE(ring, 0);
  const ReferenceCut cut = reference_cut_of(reference);
  PhaseOptions like = every;
  like.reference = &cut;
  const RankPhases two = detect_phases(three_loops(1, 2), like);
  const auto it = std::find_if(two.phases.begin(), two.phases.end(),
                               [&](const RankPhase& p) { return p.id == ring; });
  ASSERT_NE(it, two.phases.end());
  EXPECT_EQ(it->weight, 15);
  // At n = 1 the ring loop makes no call at all: the run has no such phase.
  const RankPhases one = detect_phases(three_loops(0, 1), like);
  EXPECT_TRUE(std::none_of(one.phases.begin(), one.phases.end(),
                           [&](const RankPhase& p) { return p.id == ring; }));
}

}  // namespace
}  // namespace p3s::signature
