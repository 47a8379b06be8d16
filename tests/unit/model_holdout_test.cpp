// The hold-out report on runs made by a known generating function: a ring in which every rank
// isends 65536 / n bytes to r + 1, irecvs them from r - 1 and waits, 10 times, with a CPU time
// of 1e6 / n ns per repetition. A model of four such runs predicts a fifth exactly; a fifth
// run that departs from the function (another peer, more bytes, more repetitions) is reported
// by how much.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/fit_band.hpp"
#include "model/holdout_check.hpp"
#include "model/slt_builder.hpp"

namespace p3s::model {
namespace {

using signature::EventToken;

struct Ring {
  std::int64_t distance = 1;  // to whom each rank sends
  std::int64_t bytes_total = 65536;
  std::int64_t weight = 10;
  double compute_factor = 1;  // times the generating function's CPU time
};

LogicalRun ring_run(std::int64_t n, const Ring& ring = {}) {
  LogicalRun run;
  run.n = n;
  LogicalPhase phase;
  const std::int64_t bytes = ring.bytes_total / n;
  for (std::int64_t r = 0; r < n; ++r) {
    EventToken send;
    send.op = core::Op::Isend;
    send.dst = static_cast<std::int32_t>(ring.distance % n);  // relative: (peer - r) mod n
    send.tag = 0;
    send.bytes = bytes;
    EventToken receive;
    receive.op = core::Op::Irecv;
    receive.src = static_cast<std::int32_t>((n - ring.distance % n) % n);
    receive.rtag = 0;
    receive.rbytes = bytes;
    EventToken wait;
    wait.op = core::Op::Waitall;
    wait.requests = 2;
    LogicalRankPhase rank;
    rank.events = {receive, send, wait};
    rank.weight = ring.weight;
    rank.cpu_ns = ring.compute_factor * 1e6 / static_cast<double>(n);
    rank.slot_cpu_ns = {rank.cpu_ns, 0, 0};
    rank.share = 0.5;
    phase.ranks.push_back(std::move(rank));
  }
  run.phases.push_back(std::move(phase));
  return run;
}

BuiltSlt model_of_four_runs(const LogicalRun& holdout) {
  SltInputs inputs;
  inputs.runs = {ring_run(4), ring_run(8), ring_run(16), ring_run(32)};
  inputs.holdout = holdout;
  return build_slt(inputs);
}

// The model of four runs and its hold-out check against `holdout`.
HoldoutCheck check_against(const LogicalRun& holdout) {
  const BuiltSlt built = model_of_four_runs(holdout);
  return check_holdout(built.slt, holdout, built.holdout_phase);
}

TEST(HoldoutCheck, GeneratingFunctionIsPredictedExactly) {
  const HoldoutCheck check = check_against(ring_run(64));
  EXPECT_EQ(check.n, 64);
  ASSERT_EQ(check.phases.size(), 1u);
  const HoldoutPhase& p = check.phases[0];
  EXPECT_EQ(p.pattern, "exact");
  EXPECT_TRUE(p.exact);
  EXPECT_DOUBLE_EQ(*p.volume_pct, 0.0);
  EXPECT_DOUBLE_EQ(*p.weight_pct, 0.0);
  EXPECT_LT(std::abs(*p.compute_pct), 1.0);
  EXPECT_NE(check.text().find("hold-out check at n = 64"), std::string::npos) << check.text();
}

TEST(HoldoutCheck, AnotherPeerIsAWrongPattern) {
  // At n = 64 every rank sends to r + 2: the first rank compared is already wrong.
  const HoldoutCheck check = check_against(ring_run(64, {.distance = 2}));
  ASSERT_EQ(check.phases.size(), 1u);
  EXPECT_EQ(check.phases[0].pattern, "wrong (rank 0)");
  EXPECT_FALSE(check.phases[0].exact);
  EXPECT_DOUBLE_EQ(*check.phases[0].volume_pct, 0.0);  // the same bytes, to other ranks
}

TEST(HoldoutCheck, OneRankWithAnotherPeerIsNamed) {
  LogicalRun holdout = ring_run(64);
  holdout.phases[0].ranks[37].events[1].dst = 5;  // rank 37 sends to 42 instead of 38
  EXPECT_EQ(check_against(holdout).phases[0].pattern, "wrong (rank 37)");
}

TEST(HoldoutCheck, TheRunsCallsInAnotherOrderAreReorderedNotExact) {
  // Every rank of the hold-out sends before it receives: the same calls and peers as the
  // model's, in another order.
  LogicalRun holdout = ring_run(64);
  for (LogicalRankPhase& rank : holdout.phases[0].ranks) {
    std::swap(rank.events[0], rank.events[1]);
  }
  const HoldoutCheck check = check_against(holdout);
  const HoldoutPhase& p = check.phases.at(0);
  EXPECT_EQ(p.pattern, "reordered (rank 0)");
  EXPECT_FALSE(p.exact);
  EXPECT_TRUE(p.reordered);
  EXPECT_NE(p.difference.find("call 0: isend to 1"), std::string::npos) << p.difference;
  EXPECT_NE(p.difference.find("in another order"), std::string::npos) << p.difference;
}

TEST(HoldoutCheck, AnotherPeerAfterAReorderedRankIsWrongAndNamed) {
  LogicalRun holdout = ring_run(64);
  std::swap(holdout.phases[0].ranks[3].events[0], holdout.phases[0].ranks[3].events[1]);
  holdout.phases[0].ranks[37].events[1].dst = 5;
  const HoldoutCheck check = check_against(holdout);
  const HoldoutPhase& p = check.phases.at(0);
  EXPECT_EQ(p.pattern, "wrong (rank 37)");
  EXPECT_FALSE(p.exact);
  EXPECT_FALSE(p.reordered);
}

TEST(HoldoutCheck, VolumeAndWeightErrorsArePercentOfTheHoldout) {
  // The hold-out moves 81920 / 64 = 1280 bytes per message where the model says 1024, and
  // repeats 16 times where the model says 10: (1024 - 1280) / 1280 and (10 - 16) / 16.
  const HoldoutCheck check = check_against(ring_run(64, {.bytes_total = 81920, .weight = 16}));
  const HoldoutPhase& p = check.phases.at(0);
  EXPECT_EQ(p.pattern, "exact");
  EXPECT_DOUBLE_EQ(*p.volume_pct, -20.0);
  EXPECT_DOUBLE_EQ(*p.weight_pct, -37.5);
}

// The bands at the hold-out's n are the compute fit's own (fit_band, every rank the same
// CPU time here) and the weight's, as errors against what the hold-out measured.
TEST(HoldoutCheck, TheRunLiesInsideTheFitsBandsOrIsSaidToLieOutside) {
  const LogicalRun law = ring_run(64);
  const BuiltSlt built = model_of_four_runs(law);
  const HoldoutCheck check = check_holdout(built.slt, law, built.holdout_phase);
  const HoldoutPhase& p = check.phases.at(0);
  ASSERT_TRUE(p.compute_band && p.weight_band);
  const std::vector<InstructionGroup>& groups = built.slt.compute.phases.at(0).groups;
  ASSERT_EQ(groups.size(), 1u);
  const FitBand band = *fit_band(groups[0].per_rank_ns, 64, kHoldoutBandLevel);
  const double actual = 1e6 / 64;
  EXPECT_NEAR(p.compute_band->low, 100 * (band.low - actual) / actual, 1e-6);
  EXPECT_NEAR(p.compute_band->high, 100 * (band.high - actual) / actual, 1e-6);
  EXPECT_LT(p.compute_band->low, 0);  // the declared scatter gives it a width
  EXPECT_TRUE(p.compute_band->holds());
  EXPECT_TRUE(p.weight_band->holds());  // exact repetitions: a band of zero width around 0
  EXPECT_NE(check.text().find("compute inside its band in 1 of 1 phases"), std::string::npos)
      << check.text();

  // Twice the law's compute and 16 repetitions for 10: both outside, below the run.
  const LogicalRun slower = ring_run(64, {.weight = 16, .compute_factor = 2});
  const HoldoutCheck missed = check_against(slower);
  const HoldoutPhase& q = missed.phases.at(0);
  ASSERT_TRUE(q.compute_band && q.weight_band);
  EXPECT_LT(q.compute_band->high, 0);
  EXPECT_FALSE(q.compute_band->holds());
  EXPECT_DOUBLE_EQ(q.weight_band->high, -37.5);
  EXPECT_NE(missed.text().find("compute inside its band in 0 of 1 phases"), std::string::npos)
      << missed.text();
  EXPECT_NE(missed.text().find("weight in 0 of 1"), std::string::npos) << missed.text();
}

// A compute fit that turns back before the hold-out's n has no band there: the weight's band
// stays, and the check says which fit has none and why.
TEST(HoldoutCheck, AFitWithoutABandAtTheHoldoutIsNamedAndTheOtherBandStays) {
  const LogicalRun law = ring_run(64);
  BuiltSlt built = model_of_four_runs(law);
  built.slt.compute.phases.at(0).groups.at(0).per_rank_ns.quality.trusted_up_to = 32;
  const HoldoutCheck check = check_holdout(built.slt, law, built.holdout_phase);
  const HoldoutPhase& p = check.phases.at(0);
  EXPECT_FALSE(p.compute_band.has_value());
  ASSERT_TRUE(p.weight_band.has_value()) << p.no_band;
  EXPECT_TRUE(p.weight_band->holds());
  EXPECT_NE(p.no_band.find("no compute band: the compute of group 0"), std::string::npos)
      << p.no_band;
  EXPECT_NE(p.no_band.find("changes direction beyond n = 32"), std::string::npos) << p.no_band;
  const std::string text = check.text();
  EXPECT_NE(text.find(p.name + ": no compute band"), std::string::npos) << text;
  EXPECT_NE(text.find("compute inside its band in 0 of 0 phases"), std::string::npos) << text;
  EXPECT_NE(text.find("weight in 1 of 1"), std::string::npos) << text;
}

TEST(HoldoutCheck, PhaseMissingFromTheHoldoutIsSaid) {
  LogicalRun holdout = ring_run(64);
  holdout.phases.clear();
  const HoldoutCheck check = check_against(holdout);
  ASSERT_EQ(check.phases.size(), 1u);
  EXPECT_FALSE(check.phases[0].actual.has_value());
  EXPECT_EQ(check.phases[0].pattern, "no counterpart at n = 64");
  EXPECT_FALSE(check.phases[0].volume_pct.has_value());
  EXPECT_NE(check.text().find("no counterpart at n = 64"), std::string::npos);
}

}  // namespace
}  // namespace p3s::model
