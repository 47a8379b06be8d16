// The SLT at the ends of its fits' predictive bands at one N (model/slt_bounds): every weight,
// volume and compute fit moved to its band's end there, nothing else; fits without training
// runs named, not guessed.
#include <gtest/gtest.h>

#include "model/fit_band.hpp"
#include "model/slt_bounds.hpp"

namespace p3s::model {
namespace {

// 100 + 2000 n^-1 through four runs that scatter by a few percent around it.
ScalingFit noisy_fit() {
  ScalingFit f;
  f.form = ScalingForm::NormalForm;
  f.constant = 100;
  f.terms = {{2000, ScalingTerm{TermVariable::N, -1.0, 0}}};
  f.quality.noise_pct = 4;
  f.training = {{4, 612}, {8, 344}, {16, 228}, {32, 160}};
  return f;
}

// 4096 bytes in every run: exact.
ScalingFit exact_fit() {
  ScalingFit f;
  f.constant = 4096;
  f.training = {{4, 4096}, {8, 4096}, {16, 4096}};
  return f;
}

TEST(SltBounds, AFitAtABoundIsTheEndOfItsBandAtThatN) {
  const ScalingFit f = noisy_fit();
  for (const double n : {4.0, 64.0, 4096.0}) {
    const FitBand band = *fit_band(f, n, 0.9);
    EXPECT_LT(band.low, f.at(n));
    EXPECT_GT(band.high, f.at(n));
    EXPECT_NEAR(fit_at_bound(f, FitBound::Low, n, 0.9)->at(n), band.low, 1e-9 * f.at(n)) << n;
    EXPECT_NEAR(fit_at_bound(f, FitBound::High, n, 0.9)->at(n), band.high, 1e-9 * f.at(n)) << n;
  }
  EXPECT_DOUBLE_EQ(fit_at_bound(exact_fit(), FitBound::High, 64, 0.9)->at(64), 4096);
  ScalingFit untrained = noisy_fit();
  untrained.training.clear();
  EXPECT_FALSE(fit_at_bound(untrained, FitBound::Low, 64, 0.9));
}

// A compute fit whose runs scatter widely: its band's low end is 0 at large n (the runs gave it
// as positive), and the fit moved there must not come out below 0 by rounding, which the
// instantiation would refuse (it once did, at n = 108: -1.6e-12).
TEST(SltBounds, ALowBoundOfZeroIsNotRoundedBelowIt) {
  ScalingFit f;
  f.form = ScalingForm::NormalForm;
  f.constant = 387.505;
  f.terms = {{41850.5, ScalingTerm{TermVariable::N, -1.0, 0}}};
  f.training = {{2, 31000}, {4, 6000}, {8, 8200}, {27, 1100}};
  int at_zero = 0;
  for (int n = 28; n <= 4096; ++n) {
    const std::optional<FitBand> band = fit_band(f, n, 0.9);
    ASSERT_TRUE(band);
    const std::optional<ScalingFit> low = fit_at_bound(f, FitBound::Low, n, 0.9);
    ASSERT_TRUE(low);
    EXPECT_GE(low->at(n), band->low) << "n = " << n;
    EXPECT_NEAR(low->at(n), band->low, 1e-9 * f.at(n)) << "n = " << n;
    if (band->low == 0) ++at_zero;
  }
  EXPECT_GT(at_zero, 1000);
}

Slt one_phase_slt(const ScalingFit& weight, const ScalingFit& bytes, const ScalingFit& compute) {
  Slt slt;
  slt.application = "app";
  slt.runs = {4, 16};
  PhaseModel phase;
  phase.name = "phase 0";
  phase.weight = weight;
  SlotModel send;
  send.op = core::Op::Isend;
  send.bytes = bytes;
  SlotModel wait;
  wait.op = core::Op::Waitall;
  phase.slots = {send, wait};
  slt.phases = {phase};
  PhaseCompute phase_compute;
  InstructionGroup group;
  group.per_rank_ns = compute;
  phase_compute.groups = {group};
  slt.compute.phases = {phase_compute};
  return slt;
}

TEST(SltBounds, TheSltAtABoundMovesWeightsBytesAndComputeOnly) {
  const Slt slt = one_phase_slt(exact_fit(), noisy_fit(), noisy_fit());
  std::vector<std::string> unbounded;
  const Slt high = slt_at_bound(slt, FitBound::High, 256, 0.9, unbounded);
  const Slt low = slt_at_bound(slt, FitBound::Low, 256, 0.9, unbounded);
  EXPECT_TRUE(unbounded.empty());
  const FitBand band = *fit_band(noisy_fit(), 256, 0.9);
  EXPECT_DOUBLE_EQ(high.phases[0].weight.at(256), 4096);
  EXPECT_DOUBLE_EQ(high.phases[0].slots[0].bytes->at(256), band.high);
  EXPECT_DOUBLE_EQ(low.phases[0].slots[0].bytes->at(256), band.low);
  EXPECT_FALSE(high.phases[0].slots[1].bytes.has_value());
  EXPECT_DOUBLE_EQ(high.compute.phases[0].groups[0].per_rank_ns.at(256), band.high);
  EXPECT_DOUBLE_EQ(low.compute.phases[0].groups[0].per_rank_ns.at(256), band.low);
  // Nothing else moves.
  EXPECT_EQ(high.runs, slt.runs);
  EXPECT_EQ(high.phases[0].slots[1].op, core::Op::Waitall);
  EXPECT_EQ(high.compute.phases[0].groups[0].points, slt.compute.phases[0].groups[0].points);
}

TEST(SltBounds, AFitWithoutTrainingRunsIsNamed) {
  ScalingFit untrained = noisy_fit();
  untrained.training.clear();
  std::vector<std::string> unbounded;
  slt_at_bound(one_phase_slt(exact_fit(), exact_fit(), untrained), FitBound::High, 64, 0.9,
               unbounded);
  ASSERT_EQ(unbounded.size(), 1U);
  EXPECT_EQ(unbounded[0], "phase 0 compute of group 0");
}

}  // namespace
}  // namespace p3s::model
