// The SLT at the bounds of its fits (model/slt_bounds): every weight, volume and compute fit
// scaled by 1 -/+ its uncertainty, the largest of its leave-one-out error, its error at the
// training runs and its data's allowed scatter; checked on hand-made fits against arithmetic.
#include <gtest/gtest.h>

#include "model/slt_bounds.hpp"

namespace p3s::model {
namespace {

// 100 + 2000 n^-1, with the given quality numbers (%).
ScalingFit fit(std::optional<double> loo, double max_error, double noise) {
  ScalingFit f;
  f.form = ScalingForm::NormalForm;
  f.constant = 100;
  f.terms = {{2000, ScalingTerm{TermVariable::N, -1.0, 0}}};
  f.quality.loo_error_pct = loo;
  f.quality.max_error_pct = max_error;
  f.quality.noise_pct = noise;
  return f;
}

TEST(SltBounds, UncertaintyIsTheLargestOfTheFitsErrors) {
  EXPECT_DOUBLE_EQ(fit_uncertainty(fit(8, 2, 5).quality), 0.08);
  EXPECT_DOUBLE_EQ(fit_uncertainty(fit(std::nullopt, 2, 5).quality), 0.05);
  EXPECT_DOUBLE_EQ(fit_uncertainty(fit(1, 12.5, 5).quality), 0.125);
  EXPECT_DOUBLE_EQ(fit_uncertainty(fit(std::nullopt, 0, 0).quality), 0.0);
}

TEST(SltBounds, AFitAtItsBoundsIsItsValueTimesOneMinusAndPlusItsError) {
  const ScalingFit f = fit(10, 2, 5);  // 10 %
  for (const double n : {4.0, 64.0, 4096.0}) {
    const double value = 100 + 2000 / n;
    EXPECT_NEAR(fit_at_bound(f, FitBound::Low).at(n), 0.9 * value, 1e-9 * value) << n;
    EXPECT_NEAR(fit_at_bound(f, FitBound::High).at(n), 1.1 * value, 1e-9 * value) << n;
  }
  // An exact fit stays where it is; an error above 100 % gives 0 at the low bound, not less.
  EXPECT_EQ(fit_at_bound(fit(std::nullopt, 0, 0), FitBound::Low), fit(std::nullopt, 0, 0));
  EXPECT_DOUBLE_EQ(fit_at_bound(fit(150, 0, 0), FitBound::Low).at(16), 0.0);
  EXPECT_DOUBLE_EQ(fit_at_bound(fit(150, 0, 0), FitBound::High).at(16), 2.5 * 225);
}

TEST(SltBounds, TheSltAtABoundMovesWeightsBytesAndComputeOnly) {
  Slt slt;
  slt.application = "app";
  slt.runs = {4, 16};
  PhaseModel phase;
  phase.name = "phase 0";
  phase.weight = fit(std::nullopt, 0, 0);  // exact: unchanged
  SlotModel send;
  send.op = core::Op::Isend;
  send.bytes = fit(std::nullopt, 4, 0);
  SlotModel wait;
  wait.op = core::Op::Waitall;
  phase.slots = {send, wait};
  slt.phases = {phase};
  PhaseCompute compute;
  InstructionGroup group;
  group.per_rank_ns = fit(std::nullopt, 1, 5);
  compute.groups = {group};
  slt.compute.phases = {compute};

  const Slt high = slt_at_bound(slt, FitBound::High);
  const Slt low = slt_at_bound(slt, FitBound::Low);
  EXPECT_EQ(high.phases[0].weight, slt.phases[0].weight);
  EXPECT_DOUBLE_EQ(high.phases[0].slots[0].bytes->at(16), 1.04 * 225);
  EXPECT_DOUBLE_EQ(low.phases[0].slots[0].bytes->at(16), 0.96 * 225);
  EXPECT_FALSE(high.phases[0].slots[1].bytes.has_value());
  EXPECT_DOUBLE_EQ(high.compute.phases[0].groups[0].per_rank_ns.at(16), 1.05 * 225);
  EXPECT_DOUBLE_EQ(low.compute.phases[0].groups[0].per_rank_ns.at(16), 0.95 * 225);
  // Nothing else moves.
  EXPECT_EQ(high.runs, slt.runs);
  EXPECT_EQ(high.phases[0].slots[1].op, core::Op::Waitall);
  EXPECT_EQ(high.compute.phases[0].groups[0].points, slt.compute.phases[0].groups[0].points);
}

}  // namespace
}  // namespace p3s::model
