// The replayed PET's interval (predict/prediction_interval): each phase from its fastest to its
// slowest measured repetition, weighted; a phase the replay says may be long by an allowance
// (its collectives' members leave them spread out at N) reaches that much lower.
#include <gtest/gtest.h>

#include "predict/prediction_interval.hpp"

namespace p3s::predict {
namespace {

replay::PhaseResult phase(double fastest, double slowest, double weight, double allowance) {
  replay::PhaseResult p;
  p.weight = weight;
  p.phase_et = (fastest + slowest) / 2;
  p.by_repetition = {fastest, p.phase_et, slowest};
  p.overlap_allowance = allowance;
  return p;
}

TEST(ReplayedInterval, SpreadOverRepetitionsAndTheOverlapAllowance) {
  replay::ReplayResult r;
  r.phases = {phase(90e-6, 94e-6, 30, 0), phase(100e-6, 110e-6, 2, 0)};
  r.pet = 30 * 92e-6 + 2 * 105e-6;
  report::Interval plain = replayed_interval(r);
  EXPECT_NEAR(plain.low, 30 * 90e-6 + 2 * 100e-6, 1e-12);
  EXPECT_NEAR(plain.high, 30 * 94e-6 + 2 * 110e-6, 1e-12);
  r.phases[0].overlap_allowance = 20e-6;
  const report::Interval allowed = replayed_interval(r);
  EXPECT_NEAR(allowed.low, 30 * (90e-6 - 20e-6) + 2 * 100e-6, 1e-12);
  EXPECT_NEAR(allowed.high, plain.high, 1e-12);
  EXPECT_LE(allowed.low, r.pet);
}

}  // namespace
}  // namespace p3s::predict
