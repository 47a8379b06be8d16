// The whole analysis of a run directory written with core's writers, its JSON, and bad input.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "core/format_error.hpp"
#include "core/run_dir.hpp"
#include "core/trace_format.hpp"
#include "signature/phase_relation.hpp"
#include "signature/run_analysis.hpp"
#include "signature/signature_json.hpp"
#include "signature/summary_table.hpp"
#include "unit/signature_test_traces.hpp"

namespace p3s::signature {
namespace {

namespace fs = std::filesystem;
using core::Op;
using testing::collective;
using testing::finalize;
using testing::recv;
using testing::send;
using testing::TraceBuilder;

void write_rank(const fs::path& dir, const core::RankTrace& t) {
  std::string text;
  core::append_header(text, {t.rank, t.nprocs, "host", t.counter_names, "CLOCK_MONOTONIC",
                             "CLOCK_THREAD_CPUTIME_ID", 0, 0});
  for (const auto& c : t.comms) core::append_comm(text, c);
  for (const auto& e : t.events) {
    core::append_event(text, e, static_cast<int>(t.counter_names.size()));
    for (const auto& r : e.requests) core::append_request(text, r);
  }
  core::append_end(text, core::TraceEnd::Complete, 0, static_cast<std::int64_t>(t.events.size()));
  std::ofstream(core::rank_trace_path(dir, t.rank)) << text;
}

// A ring: even ranks send then receive, odd ranks the other way round; rank 0 gathers a
// result at the end (a phase only it has, when long enough). Rank r computes a little more
// than rank r-1, so the ranks' PETs differ.
core::RankTrace ring_rank(std::int32_t rank, std::int32_t n, int iterations,
                          std::int64_t root_work) {
  TraceBuilder b(rank, n);
  const std::int32_t right = (rank + 1) % n, left = (rank + n - 1) % n;
  for (int it = 0; it < iterations; ++it) {
    const std::int64_t work = 100'000 + 1'000 * rank;
    if (rank % 2 == 0) {
      b.add(send(right, 8192), work, 10'000).add(recv(left, 8192), 1'000, 10'000);
    } else {
      b.add(recv(left, 8192), work, 10'000).add(send(right, 8192), 1'000, 10'000);
    }
  }
  if (rank == 0)
    b.add(collective(Op::Reduce, 8, 0), root_work, 1'000);
  else
    b.add(collective(Op::Reduce, 8, 0), 1'000, 1'000);
  b.add(finalize(), 1'000, 50'000);
  return b.trace();
}

class SignatureRun : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("p3s-signature-run-test-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  void write_run(std::int32_t n, int iterations, std::int64_t root_work = 1'000) {
    core::RunInfo info;
    info.nprocs = n;
    info.command = {"mpirun", "-np", std::to_string(n), "ring"};
    info.wall_seconds = 1.5;
    core::write_run_info(dir_, info);
    for (std::int32_t r = 0; r < n; ++r) write_rank(dir_, ring_rank(r, n, iterations, root_work));
  }

  fs::path dir_;
};

TEST_F(SignatureRun, EveryRankHasTheLoopWithItsIterationsAsWeight) {
  write_run(6, 120);
  const Signature sig = analyse_run(dir_);
  ASSERT_EQ(sig.ranks.size(), 6u);
  ASSERT_EQ(sig.phases.size(), 1u);
  EXPECT_EQ(sig.phases[0].weight, 120);
  EXPECT_EQ(sig.phases[0].ranks, 6);
  EXPECT_TRUE(sig.phases[0].same_weight);
  for (const RankPhases& r : sig.ranks) {
    ASSERT_EQ(r.phases.size(), 1u) << r.rank;
    EXPECT_EQ(r.phases[0].id, 0);
    EXPECT_EQ(r.phases[0].weight, 120);
    const auto& first = r.phases[0].events[0];
    EXPECT_EQ(first.op, r.rank % 2 == 0 ? Op::Send : Op::Recv);
    EXPECT_EQ(r.rank % 2 == 0 ? first.dst : first.src, r.rank % 2 == 0 ? 1 : 5);
    EXPECT_GT(r.coverage(), 0.95);
  }
  EXPECT_TRUE(sig.notes.empty());
  EXPECT_EQ(sig.compute, ComputeMetric::CpuTime);
}

TEST_F(SignatureRun, RepresentativeRankIsTheOneWhosePetIsClosestToTheRun) {
  write_run(4, 50);
  const Signature sig = analyse_run(dir_);
  std::int64_t aet = 0;
  for (const RankPhases& r : sig.ranks) aet = std::max(aet, r.run_ns);
  EXPECT_EQ(sig.aet_ns, aet);
  for (const RankPhases& r : sig.ranks) {
    EXPECT_LE(std::llabs(sig.pet_ns() - aet), std::llabs(r.pet_ns() - aet));
  }
  EXPECT_EQ(sig.representative, 3);  // computes the most, so its trace is the longest
}

TEST_F(SignatureRun, PhaseOfOneRankOnlyIsReported) {
  write_run(4, 50, 2'000'000);  // rank 0's final reduce follows long work: relevant there only
  const Signature sig = analyse_run(dir_);
  ASSERT_EQ(sig.phases.size(), 2u);
  EXPECT_EQ(sig.phases[1].ranks, 1);
  EXPECT_EQ(sig.ranks[0].phases.size(), 2u);
  EXPECT_EQ(sig.ranks[0].phases[1].id, 1);
  ASSERT_FALSE(sig.notes.empty());
  EXPECT_NE(sig.notes[0].find("phase 1 is relevant on ranks 0 only"), std::string::npos)
      << sig.notes[0];
}

// A ring of 2,000 iterations with an output step every 500: six allreduces in a row. Rank 0
// writes the output, so its allreduces follow 3 ms of work each; the other ranks reach them at
// once. The allreduces are 0.6 % of every rank's calls, but 23 % of rank 0's time and 0.06 %
// of the others'.
core::RankTrace ring_with_output(std::int32_t rank, std::int32_t n) {
  TraceBuilder b(rank, n);
  const std::int32_t right = (rank + 1) % n, left = (rank + n - 1) % n;
  for (int it = 0; it < 2'000; ++it) {
    b.add(send(right, 8192), 100'000, 10'000).add(recv(left, 8192), 1'000, 10'000);
    if (it % 500 == 499) {
      for (int k = 0; k < 6; ++k) {
        b.add(collective(Op::Allreduce, 8), rank == 0 ? 3'000'000 : 1'000, 5'000);
      }
    }
  }
  b.add(finalize(), 1'000, 50'000);
  return b.trace();
}

TEST_F(SignatureRun, ALoopOneRankCutsOutForItsTimeIsAPhaseOnEveryRank) {
  const std::int32_t n = 4;
  core::RunInfo info;
  info.nprocs = n;
  info.command = {"mpirun", "-np", std::to_string(n), "ring"};
  core::write_run_info(dir_, info);
  for (std::int32_t r = 0; r < n; ++r) write_rank(dir_, ring_with_output(r, n));
  AnalysisOptions every_phase;
  every_phase.phases.threshold = 0;
  const Signature sig = analyse_run(dir_, every_phase);
  for (const RankPhases& r : sig.ranks) {
    int allreduce_phases = 0;
    for (const RankPhase& p : r.phases) {
      if (p.events.front().op != Op::Allreduce) continue;
      ++allreduce_phases;
      EXPECT_EQ(p.events.size(), 1u) << "rank " << r.rank;
      EXPECT_EQ(p.weight, 24) << "rank " << r.rank;
    }
    EXPECT_EQ(allreduce_phases, 1) << "rank " << r.rank;
    EXPECT_EQ(r.phase_count, sig.ranks[0].phase_count) << "rank " << r.rank;
  }
}

TEST_F(SignatureRun, JsonStartsWithItsFormatAndReadsBackTheSame) {
  write_run(4, 30);
  const Signature sig = analyse_run(dir_);
  const fs::path file = dir_ / "signature.json";
  write_signature(file, sig);
  std::ifstream in(file);
  std::string head(40, '\0');
  in.read(head.data(), 40);
  EXPECT_EQ(head.substr(0, head.find(',')), "{\n \"format\": \"p3s-signature 2\"");

  const Signature back = read_signature(file);
  EXPECT_EQ(back.representative, sig.representative);
  EXPECT_EQ(back.aet_ns, sig.aet_ns);
  EXPECT_EQ(back.run, sig.run);
  ASSERT_EQ(back.ranks.size(), sig.ranks.size());
  for (std::size_t r = 0; r < sig.ranks.size(); ++r) {
    const RankPhases& a = sig.ranks[r];
    const RankPhases& b = back.ranks[r];
    EXPECT_EQ(b.run_ns, a.run_ns);
    EXPECT_EQ(b.comms, a.comms);
    ASSERT_EQ(b.phases.size(), a.phases.size());
    for (std::size_t p = 0; p < a.phases.size(); ++p) {
      EXPECT_EQ(b.phases[p].events, a.phases[p].events);
      EXPECT_EQ(b.phases[p].weight, a.phases[p].weight);
      EXPECT_EQ(b.phases[p].total_ns, a.phases[p].total_ns);
      EXPECT_NEAR(b.phases[p].time_ns.mean(), a.phases[p].time_ns.mean(), 1e-3);
      EXPECT_NEAR(b.phases[p].slots[0].cpu_ns.stddev(), a.phases[p].slots[0].cpu_ns.stddev(), 1e-3);
    }
  }
}

TEST_F(SignatureRun, SummaryShowsPhasesCoverageAndPetAgainstAet) {
  write_run(4, 30);
  const std::string table = summary_table(analyse_run(dir_));
  for (const char* part :
       {"phase", "weight", "time share", "coverage", "PET", "AET", "representative rank"}) {
    EXPECT_NE(table.find(part), std::string::npos) << part << "\n" << table;
  }
}

TEST_F(SignatureRun, MissingRankFileIsNamed) {
  write_run(4, 10);
  fs::remove(core::rank_trace_path(dir_, 2));
  try {
    analyse_run(dir_);
    FAIL() << "no error";
  } catch (const core::FormatError& e) {
    EXPECT_EQ(e.file(), core::rank_trace_path(dir_, 2).string());
  }
}

TEST_F(SignatureRun, TruncatedRankFileIsNamedWithRankAndLine) {
  write_run(4, 10);
  const fs::path file = core::rank_trace_path(dir_, 3);
  fs::resize_file(file, fs::file_size(file) - 30);
  try {
    analyse_run(dir_);
    FAIL() << "no error";
  } catch (const core::FormatError& e) {
    EXPECT_EQ(e.file(), file.string());
    EXPECT_GT(e.line(), 0u);
    EXPECT_NE(std::string(e.what()).find("rank 3: "), std::string::npos) << e.what();
  }
}

TEST_F(SignatureRun, BadSignatureJsonIsRejected) {
  const fs::path file = dir_ / "signature.json";
  std::ofstream(file) << R"({"format": "p3s-signature 9"})";
  EXPECT_THROW(read_signature(file), core::FormatError);
  std::ofstream(file) << R"({"format": )";
  EXPECT_THROW(read_signature(file), core::FormatError);
}

// Run phases are numbered in the program's order: a phase of one rank that comes before the
// loop (rank 2's own) is phase 0, and the loop every rank has is phase 1.
TEST(PhaseRelation, MatchesByOrderAndWeightDespiteDifferentEvents) {
  Signature sig;
  auto rank_with = [](std::int32_t rank, std::vector<std::pair<std::int64_t, std::size_t>> phases) {
    RankPhases r;
    r.rank = rank;
    r.run_ns = 1000;
    for (auto [weight, events] : phases) {
      RankPhase p;
      p.weight = weight;
      p.events.resize(events);
      p.total_ns = 400;
      r.phases.push_back(p);
    }
    return r;
  };
  sig.ranks.push_back(rank_with(0, {{10, 6}, {1, 1}}));
  sig.ranks.push_back(rank_with(1, {{10, 10}, {1, 1}}));         // a border rank: fewer events
  sig.ranks.push_back(rank_with(2, {{1, 2}, {10, 6}, {1, 1}}));  // a phase of its own first
  sig.ranks.push_back(rank_with(3, {{9, 6}, {1, 1}}));           // one iteration short
  relate_phases(sig);
  EXPECT_EQ(sig.representative, 0);
  EXPECT_EQ(sig.ranks[0].phases[0].id, 1);
  EXPECT_EQ(sig.ranks[1].phases[0].id, 1);
  EXPECT_EQ(sig.ranks[1].phases[1].id, 2);
  EXPECT_EQ(sig.ranks[2].phases[0].id, 0);
  EXPECT_EQ(sig.ranks[2].phases[1].id, 1);
  EXPECT_EQ(sig.ranks[2].phases[2].id, 2);
  EXPECT_EQ(sig.ranks[3].phases[0].id, 1);
  ASSERT_EQ(sig.phases.size(), 3u);
  EXPECT_EQ(sig.phases[1].ranks, 4);
  EXPECT_FALSE(sig.phases[1].same_weight);
  EXPECT_EQ(sig.phases[0].ranks, 1);
  ASSERT_EQ(sig.notes.size(), 2u);
  EXPECT_EQ(sig.notes[0], "phase 0 is relevant on ranks 2 only");
  EXPECT_EQ(sig.notes[1], "phase 1 has different weights: 9 on ranks 3; 10 on ranks 0-2");
}

// A rank's phase, its events given by their operations, with weight and time.
RankPhase phase_of(std::int64_t weight, std::vector<Op> ops, std::int64_t total_ns = 100) {
  RankPhase p;
  p.weight = weight;
  for (Op op : ops) p.events.push_back({.op = op});
  p.total_ns = total_ns;
  return p;
}

RankPhases rank_of(std::int32_t rank, std::vector<RankPhase> phases, std::int64_t run_ns = 1000) {
  RankPhases r;
  r.rank = rank;
  r.run_ns = run_ns;
  r.phases = std::move(phases);
  return r;
}

TEST(PhaseRelation, SameOperationsWinOverAnotherPhaseOfTheSameWeight) {
  // Rank 1's two communicator splits took different compute and are two phases of weight 1;
  // the first is the representative's split phase, not its final reduce of weight 1.
  Signature sig;
  sig.ranks.push_back(rank_of(
      0, {phase_of(2, {Op::CommSplit}), phase_of(100, {Op::Bcast, Op::Reduce, Op::Alltoall}),
          phase_of(1, {Op::Reduce})}));
  sig.ranks.push_back(rank_of(1,
                              {phase_of(1, {Op::CommSplit}), phase_of(1, {Op::CommSplit}),
                               phase_of(100, {Op::Bcast, Op::Reduce, Op::Alltoall})},
                              900));
  relate_phases(sig);
  ASSERT_EQ(sig.representative, 0);
  // Rank 1's second split is a phase of its own, after the first.
  EXPECT_EQ(sig.ranks[1].phases[0].id, 0);
  EXPECT_EQ(sig.ranks[1].phases[1].id, 1);
  EXPECT_EQ(sig.ranks[1].phases[2].id, 2);
  EXPECT_EQ(sig.ranks[0].phases[1].id, 2);
  EXPECT_EQ(sig.phases[2].ranks, 2);
}

TEST(PhaseRelation, CornerRanksMatchTheLoopByItsWeight) {
  // A wavefront: the first corner only sends, the last only receives, inner ranks do both.
  Signature sig;
  sig.ranks.push_back(
      rank_of(0, {phase_of(60, {Op::Send, Op::Send}), phase_of(1, {Op::Reduce})}, 900));
  sig.ranks.push_back(
      rank_of(1, {phase_of(60, {Op::Recv, Op::Send}, 900), phase_of(1, {Op::Reduce})}));
  sig.ranks.push_back(rank_of(2, {phase_of(60, {Op::Recv, Op::Recv})}, 900));
  relate_phases(sig);
  ASSERT_EQ(sig.representative, 1);
  ASSERT_EQ(sig.phases.size(), 2u);
  EXPECT_EQ(sig.phases[0].ranks, 3);
  EXPECT_EQ(sig.ranks[0].phases[0].id, 0);
  EXPECT_EQ(sig.ranks[2].phases[0].id, 0);
  EXPECT_EQ(sig.ranks[0].phases[1].id, 1);
}

}  // namespace
}  // namespace p3s::signature
