// A fit's predictive band (model/fit_band): held against the textbook prediction interval of a
// weighted straight line written out here in sums, against a constant's closed form, and, by
// simulation, against new runs drawn from known laws with known scatter: the share of them
// inside the band at the stated level, with the form chosen by the search itself.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <vector>

#include "model/fit_band.hpp"
#include "model/scaling_model_search.hpp"

namespace p3s::model {
namespace {

ScalingTerm n_to(double exponent) {
  return ScalingTerm{TermVariable::N, exponent, 0};
}

// a + b n fitted to `points` by least squares of relative errors, written out in sums.
struct Line {
  double a = 0, b = 0, s0 = 0, s1 = 0, s2 = 0, rss = 0;
  explicit Line(const std::vector<ScalingPoint>& points) {
    double sy = 0, sny = 0;
    for (const ScalingPoint& p : points) {
      const double w = 1 / (p.y * p.y);
      s0 += w;
      s1 += w * p.n;
      s2 += w * p.n * p.n;
      sy += w * p.y;
      sny += w * p.n * p.y;
    }
    const double det = s0 * s2 - s1 * s1;
    b = (s0 * sny - s1 * sy) / det;
    a = (s2 * sy - s1 * sny) / det;
    for (const ScalingPoint& p : points) rss += std::pow((a + b * p.n - p.y) / p.y, 2);
  }
  // The textbook interval at n: t quantile on p - 2 degrees of freedom, the variance of the
  // fitted line there plus a new run's own.
  std::pair<double, double> interval(double n, std::size_t points, double level) const {
    const double s = std::sqrt(rss / static_cast<double>(points - 2));
    const double det = s0 * s2 - s1 * s1;
    const double y = a + b * n;
    const double sd = s * std::sqrt((s2 - 2 * n * s1 + n * n * s0) / det + y * y);
    const double q = boost::math::quantile(boost::math::students_t(static_cast<double>(points - 2)),
                                           0.5 + level / 2);
    return {y - q * sd, y + q * sd};
  }
};

ScalingFit line_fit(const std::vector<ScalingPoint>& points) {
  const Line line(points);
  ScalingFit fit;
  fit.form = ScalingForm::NormalForm;
  fit.constant = line.a;
  fit.terms = {{line.b, n_to(1)}};
  fit.training = points;
  return fit;
}

TEST(FitBand, AWeightedLineHasTheTextbookPredictionInterval) {
  const std::vector<ScalingPoint> points = {{4, 103}, {8, 118}, {16, 139}, {32, 205}, {64, 330}};
  const ScalingFit fit = line_fit(points);
  const Line line(points);
  for (const double n : {16.0, 128.0, 1024.0}) {
    for (const double level : {0.8, 0.9, 0.99}) {
      const auto [low, high] = line.interval(n, points.size(), level);
      const std::optional<FitBand> band = fit_band(fit, n, level);
      ASSERT_TRUE(band);
      EXPECT_NEAR(band->low, low, 1e-6 * std::abs(low)) << n << " " << level;
      EXPECT_NEAR(band->high, high, 1e-6 * high) << n << " " << level;
    }
  }
}

TEST(FitBand, ItWidensWithTheDistanceFromTheTrainingRuns) {
  const ScalingFit fit = line_fit({{4, 103}, {8, 118}, {16, 139}, {32, 205}});
  double previous = 0;
  for (const double n : {32.0, 64.0, 256.0, 4096.0}) {
    const FitBand band = *fit_band(fit, n, 0.9);
    const double width = (band.high - band.low) / fit.at(n);
    EXPECT_GT(width, previous) << n;
    previous = width;
  }
}

// A power law through four runs' CPU times with their scatter (a loaded machine's, from a
// multipartition app at 1, 4, 9 and 16 ranks): its band at 64 is the textbook interval of the
// straight line in log n and log y, on 2 degrees of freedom, whose tails are so heavy that the
// band was once infinite above.
TEST(FitBand, APowerLawOnTwoDegreesOfFreedomHasTheLogLinearInterval) {
  const std::vector<ScalingPoint> points = {
      {1, 38053457.2}, {4, 5995822.6}, {9, 2700437.1}, {16, 1488382.3}};
  double sx = 0, sy = 0;
  for (const ScalingPoint& p : points) {
    sx += std::log(p.n);
    sy += std::log(p.y);
  }
  const double xbar = sx / 4, ybar = sy / 4;
  double sxx = 0, sxy = 0;
  for (const ScalingPoint& p : points) {
    sxx += std::pow(std::log(p.n) - xbar, 2);
    sxy += (std::log(p.n) - xbar) * (std::log(p.y) - ybar);
  }
  const double b = sxy / sxx;
  const double a = ybar - b * xbar;
  ScalingFit fit;
  fit.form = ScalingForm::PowerLaw;
  fit.terms = {{std::exp(a), n_to(b)}};
  fit.training = points;
  double rss = 0;  // relative errors, as every form is scored
  for (const ScalingPoint& p : points) rss += std::pow((fit.at(p.n) - p.y) / p.y, 2);
  const double sigma = std::sqrt(rss / 2);
  const double n = 64;
  const double h = 1.0 / 4 + std::pow(std::log(n) - xbar, 2) / sxx;
  const double q = boost::math::quantile(boost::math::students_t(2.0), 0.95);
  const double value = std::exp(a + b * std::log(n));
  const FitBand band = *fit_band(fit, n, 0.9);
  ASSERT_TRUE(std::isfinite(band.high));
  EXPECT_NEAR(band.low, value * std::exp(-q * sigma * std::sqrt(h + 1)), 1e-9 * value);
  EXPECT_NEAR(band.high, value * std::exp(q * sigma * std::sqrt(h + 1)), 1e-9 * value);
}

TEST(FitBand, AConstantWithDeclaredScatterHasTheNormalClosedForm) {
  ScalingFit fit;
  fit.constant = 100;
  fit.quality.noise_pct = 10;  // a half-range: sigma 5 %
  fit.training = {{4, 100}, {8, 100}, {16, 100}, {32, 100}};
  const double z = boost::math::quantile(boost::math::normal(), 0.95);
  const double half = z * 0.05 * 100 * std::sqrt(1 + 1.0 / 4);
  for (const double n : {8.0, 4096.0}) {
    const FitBand band = *fit_band(fit, n, 0.9);
    EXPECT_NEAR(band.low, 100 - half, 1e-9) << n;
    EXPECT_NEAR(band.high, 100 + half, 1e-9) << n;
  }
}

TEST(FitBand, ExactDataThatOneFormExplainsHaveNoWidth) {
  const ScalingFit fit =
      fit_scaling_model(std::vector<ScalingPoint>{{4, 4096}, {8, 2048}, {16, 1024}, {32, 512}});
  for (const double n : {64.0, 65536.0}) {
    const FitBand band = *fit_band(fit, n, 0.9);
    EXPECT_DOUBLE_EQ(band.low, 16384 / n);
    EXPECT_DOUBLE_EQ(band.high, 16384 / n);
  }
}

TEST(FitBand, AnAlternativeFormCountsAsMuchAsTheRunsSupportIt) {
  // Eight runs that gave 100 within a declared 2 % (sigma 1 %), and a constant chosen.
  ScalingFit fit;
  fit.constant = 100;
  fit.quality.noise_pct = 2;
  for (double n = 2; n <= 256; n *= 2) fit.training.push_back({n, 100});
  const FitBand alone = *fit_band(fit, 4096, 0.9);
  ScalingFit growing;
  growing.form = ScalingForm::NormalForm;
  growing.constant = 100;
  // A growth the runs cannot tell from nothing (0.0004 % to 0.05 % above them), which counts
  // as much as its extra parameter allows but ends far above at 4096: it lifts the high end.
  growing.terms = {{0.002, n_to(1)}};
  fit.alternatives = {growing};
  const FitBand spread = *fit_band(fit, 4096, 0.9);
  EXPECT_GT(spread.high, alone.high + 2);
  EXPECT_NEAR(spread.low, alone.low, 0.5);
  // One 6 % above the largest run is ruled out by the runs: the band is the constant's.
  growing.terms = {{0.025, n_to(1)}};
  fit.alternatives = {growing};
  EXPECT_NEAR(fit_band(fit, 4096, 0.9)->high, alone.high, 1e-6);
}

TEST(FitBand, NoTrainingRunsNoBand) {
  ScalingFit fit;
  fit.constant = 5;
  EXPECT_FALSE(fit_band(fit, 64, 0.9));
}

struct Coverage {
  double inside = 0;        // share of new runs inside the band
  double median_width = 0;  // of the band, relative to the law's value
};

// New runs drawn from `law` with Gaussian relative scatter `sigma`, four training runs at
// n = 4..32 and one at `target`, the scatter declared as a half-range of two sigmas: the
// share of targets inside the band of the form the search chose.
Coverage simulated_coverage(const std::function<double(double)>& law, double sigma, double target,
                            double level, unsigned seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> noise(0.0, sigma);
  const ScalingFitOptions options = compute_fit_options(WorkScaling::Unknown, 200 * sigma);
  constexpr int kTrials = 400;
  int inside = 0;
  std::vector<double> widths;
  for (int trial = 0; trial < kTrials; ++trial) {
    std::vector<ScalingPoint> runs;
    for (const double n : {4.0, 8.0, 16.0, 32.0}) runs.push_back({n, law(n) * (1 + noise(random))});
    const ScalingFit fit = fit_scaling_model(runs, options);
    const double truth = law(target) * (1 + noise(random));
    const std::optional<FitBand> band = fit_band(fit, target, level);
    if (band && band->low <= truth && truth <= band->high) ++inside;
    widths.push_back(band ? (band->high - band->low) / law(target) : HUGE_VAL);
  }
  std::nth_element(widths.begin(), widths.begin() + kTrials / 2, widths.end());
  return {static_cast<double>(inside) / kTrials, widths[kTrials / 2]};
}

TEST(FitBand, NewRunsFallInsideAboutAsOftenAsTheLevelSays) {
  struct Law {
    const char* name;
    std::function<double(double)> at;
  };
  const std::vector<Law> laws = {
      {"constant", [](double) { return 5e4; }},
      {"Amdahl 1e4 + 4e5/n", [](double n) { return 1e4 + 4e5 / n; }},
      {"logarithmic 2e4 + 3e3 log2 n", [](double n) { return 2e4 + 3e3 * std::log2(n); }},
  };
  for (const Law& law : laws) {
    for (const double target : {64.0, 512.0}) {
      const Coverage c = simulated_coverage(law.at, 0.03, target, 0.9, 17);
      std::printf(
          "%-30s N = %4.0f: %.1f %% of 400 new runs inside the 90 %% band, median width %.1f %%\n",
          law.name, target, 100 * c.inside, 100 * c.median_width);
      // Not too narrow, and not so wide that it cannot miss.
      EXPECT_GE(c.inside, 0.8) << law.name << " at " << target;
      EXPECT_LE(c.inside, 0.98) << law.name << " at " << target;
      // Twice as far as the largest run, where the runs still tell the forms apart, no wider
      // than four times what a new run's own scatter needs (2 x 1.645 x 3 %).
      if (target == 64) {
        EXPECT_LE(c.median_width, 4 * 0.099) << law.name;
      }
    }
  }
}

}  // namespace
}  // namespace p3s::model
