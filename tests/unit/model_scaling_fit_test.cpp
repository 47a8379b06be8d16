#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

#include "model/scaling_model_search.hpp"

namespace p3s::model {
namespace {

std::vector<ScalingPoint> sample(const std::vector<double>& ns,
                                 const std::function<double(double)>& f,
                                 const std::vector<double>& noise = {}) {
  std::vector<ScalingPoint> points;
  for (std::size_t i = 0; i < ns.size(); ++i) {
    const double factor = noise.empty() ? 1.0 : 1.0 + noise[i % noise.size()];
    points.push_back({ns[i], f(ns[i]) * factor});
  }
  return points;
}

double relative(double got, double want) {
  return std::abs(got - want) / std::abs(want);
}

const std::vector<double> kPowersOfTwo = {4, 8, 16, 32, 64};
// Deterministic +-2 % disturbances: the worst case of measurement noise the fits must absorb.
const std::vector<std::vector<double>> kNoise = {
    {0.02, -0.02, 0.01, -0.015, 0.02},
    {-0.02, 0.015, 0.02, -0.02, 0.005},
    {0.01, 0.02, -0.02, 0.02, -0.01},
    {-0.015, -0.02, 0.02, 0.01, 0.02},
};

TEST(ScalingFit, ConstantIntegerDataStaysExact) {
  const ScalingFit fit = fit_scaling_model(sample(kPowersOfTwo, [](double) { return 4096.0; }));
  EXPECT_EQ(fit.form, ScalingForm::Constant);
  EXPECT_EQ(fit.at(1 << 20), 4096.0);
  EXPECT_EQ(fit.equation(), "4096");
  EXPECT_EQ(fit.quality.r_squared, 1.0);
}

TEST(ScalingFit, RecoversStrongScalingVolume) {
  const ScalingFit fit = fit_scaling_model(sample(kPowersOfTwo, [](double n) { return 1e6 / n; }));
  EXPECT_EQ(fit.equation(), "1000000 * n^-1") << fit.quality.selection;
  EXPECT_NEAR(fit.at(4096), 1e6 / 4096, 1e-6);
  EXPECT_GT(fit.quality.r_squared, 0.999999);
  ASSERT_TRUE(fit.quality.loo_error_pct.has_value());
  EXPECT_LT(*fit.quality.loo_error_pct, 1e-6);
}

TEST(ScalingFit, RecoversHaloEdgeWithOffset) {
  const std::vector<double> squares = {4, 9, 16, 25, 36};
  const ScalingFit fit =
      fit_scaling_model(sample(squares, [](double n) { return 8192 / std::sqrt(n) + 16; }));
  EXPECT_EQ(fit.equation(), "8192 * n^-1/2 + 16");
  EXPECT_NEAR(fit.at(1024), 8192.0 / 32 + 16, 1e-6);
}

TEST(ScalingFit, RecoversLogarithm) {
  const ScalingFit fit =
      fit_scaling_model(sample(kPowersOfTwo, [](double n) { return 3 * std::log2(n); }));
  EXPECT_EQ(fit.equation(), "3 * log2(n)");
  EXPECT_NEAR(fit.at(1 << 16), 48, 1e-9);
}

TEST(ScalingFit, RecoversPowerLawWithAnOddExponent) {
  // 001 Table 1's volume: 3e8 * n^-1.015, not in the normal form's exponent set.
  const auto truth = [](double n) { return 3e8 * std::pow(n, -1.015); };
  const ScalingFit fit = fit_scaling_model(sample(kPowersOfTwo, truth));
  EXPECT_EQ(fit.form, ScalingForm::PowerLaw) << fit.equation();
  EXPECT_EQ(fit.equation(), "300000000 * n^-1.015");
  EXPECT_LT(relative(fit.at(4096), truth(4096)), 1e-9);
}

struct NoisyCase {
  const char* name;
  std::function<double(double)> truth;
};

TEST(ScalingFit, NoisyRunsExtrapolateToEightTimesTheLargest) {
  // +-2 % on 5 runs over a 16x range leaves an exponent uncertain by about 0.02, which is up to
  // ~7 % at 8x the largest run: no selection rule can do better with such data.
  const std::vector<NoisyCase> cases = {
      {"c/n", [](double n) { return 1e6 / n; }},
      {"c/sqrt(n)", [](double n) { return 8192 / std::sqrt(n); }},
      {"c*log2(n)", [](double n) { return 100 * std::log2(n); }},
      {"power law", [](double n) { return 7e7 * std::pow(n, -0.8); }},
      {"constant", [](double) { return 5000.0; }},
  };
  for (const NoisyCase& c : cases) {
    for (const std::vector<double>& noise : kNoise) {
      const ScalingFit fit = fit_scaling_model(sample(kPowersOfTwo, c.truth, noise));
      const double target = 8 * kPowersOfTwo.back();
      EXPECT_LT(relative(fit.at(target), c.truth(target)), 0.07)
          << c.name << ": chose " << fit.equation() << " (" << fit.quality.selection << ")";
    }
  }
}

TEST(ScalingFit, RecoversTwoTermsFromExactData) {
  // Byte counts are exact, so a second term is worth its parameters.
  const ScalingFit fit = fit_scaling_model(
      sample(kPowersOfTwo, [](double n) { return 8192 / std::sqrt(n) + 1e5 / n + 64; }));
  EXPECT_EQ(fit.equation(), "100000 * n^-1 + 8192 * n^-1/2 + 64");
}

TEST(ScalingFit, ReportsQuality) {
  const ScalingFit fit = fit_scaling_model(sample(
      kPowersOfTwo, [](double n) { return 1e6 / n; }, kNoise[0]));
  EXPECT_EQ(fit.quality.points, 5U);
  EXPECT_GT(fit.quality.r_squared, 0.99);
  EXPECT_LE(fit.quality.max_error_pct, 4.0);
  ASSERT_TRUE(fit.quality.loo_error_pct.has_value());
  EXPECT_LT(*fit.quality.loo_error_pct, 5.0);
  EXPECT_NE(fit.quality.selection.find("leave-one-out"), std::string::npos);
}

TEST(ScalingFit, FewRunsTakeTheFewestParameters) {
  const ScalingFit fit = fit_scaling_model(sample({4, 16, 64}, [](double n) { return 5e5 / n; }));
  EXPECT_EQ(fit.equation(), "500000 * n^-1");
  EXPECT_NE(fit.quality.selection.find("only 3 runs"), std::string::npos);
}

TEST(ScalingFit, DisplacementLinearisesSquareWeights) {
  // 001 sec. 3.3.1: weights of BT's phases are linear in sqrt(n) for square counts.
  const std::vector<double> squares = {4, 9, 16, 25};
  ScalingFitOptions options;
  options.displacement_families = {{ProcessCountKind::Squares}};
  const ScalingFit fit = fit_scaling_model(
      sample(squares, [](double n) { return 1001 * std::sqrt(n) - 1001; }), options);
  EXPECT_EQ(fit.form, ScalingForm::Displacement);
  EXPECT_EQ(fit.equation(), "1001 * sqrt(n) - 1001");
  EXPECT_NEAR(fit.at(36), 5005, 1e-6);
  EXPECT_NEAR(fit.at(4096), 63063, 1e-6);
}

TEST(ScalingFit, RejectsBadRuns) {
  EXPECT_THROW(fit_scaling_model(std::vector<ScalingPoint>{}), std::invalid_argument);
  EXPECT_THROW(fit_scaling_model(std::vector<ScalingPoint>{{0, 1}}), std::invalid_argument);
  EXPECT_THROW(fit_scaling_model(std::vector<ScalingPoint>{{4, NAN}}), std::invalid_argument);
}

TEST(ProcessCountFamily, IndexesAndValues) {
  const ProcessCountFamily squares{ProcessCountKind::Squares};
  EXPECT_EQ(squares.index_of(256), 16);
  EXPECT_EQ(squares.value_at(45), 2025);
  EXPECT_TRUE(squares.contains(4900));
  EXPECT_FALSE(squares.contains(4901));
  const ProcessCountFamily pow2{ProcessCountKind::PowersOfTwo};
  EXPECT_EQ(pow2.index_of(4096), 12);
  EXPECT_EQ(pow2.value_at(10), 1024);
  EXPECT_TRUE(ProcessCountFamily{ProcessCountKind::Cubes}.contains(27));
  const std::vector<std::int64_t> counts = {4, 16, 64};
  const std::vector<ProcessCountFamily> holding = families_containing(counts);
  ASSERT_EQ(holding.size(), 3U);
  EXPECT_EQ(holding[0].kind, ProcessCountKind::PowersOfTwo);
  EXPECT_EQ(holding[1].kind, ProcessCountKind::Squares);
  EXPECT_EQ(holding[2].kind, ProcessCountKind::Any);
}

}  // namespace
}  // namespace p3s::model
