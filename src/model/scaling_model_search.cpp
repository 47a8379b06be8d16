#include "model/scaling_model_search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "model/least_squares.hpp"

namespace p3s::model {
namespace {

// One model shape to try; its coefficients come from the data.
struct Candidate {
  ScalingForm form = ScalingForm::NormalForm;
  ProcessCountFamily family;
  bool with_constant = false;
  std::vector<ScalingTerm> terms;  // PowerLaw: one n term whose exponent is fitted too

  std::size_t parameters() const { return terms.size() + (with_constant ? 1 : 0); }
  // How much the model says about n: a constant says nothing, so any dependence on n, even
  // with one parameter, has to earn its place against it like an extra parameter (a noisy
  // constant must not become c * n^(1/4) and grow without bound when extrapolated).
  std::size_t complexity() const { return terms.empty() ? 0 : parameters(); }
};

struct Scored {
  ScalingFit fit;
  std::size_t complexity = 0;
  std::optional<double> loo_pct;
  double max_error_pct = 0.0;
};

// Errors are relative so that a run with y = 10^6 does not outweigh one with y = 10^3; the
// floor keeps a run whose value is 0 from dividing by zero.
double relative_error(double predicted, double actual, double floor) {
  return std::abs(predicted - actual) / std::max(std::abs(actual), floor);
}

std::optional<ScalingFit> fit_linear(const Candidate& c, std::span<const ScalingPoint> points,
                                     double floor) {
  const auto rows = static_cast<Eigen::Index>(points.size());
  const auto cols = static_cast<Eigen::Index>(c.parameters());
  if (rows < cols) return std::nullopt;
  Eigen::MatrixXd design(rows, cols);
  Eigen::VectorXd y(rows);
  Eigen::VectorXd weights(rows);
  for (Eigen::Index i = 0; i < rows; ++i) {
    const ScalingPoint& p = points[static_cast<std::size_t>(i)];
    Eigen::Index col = 0;
    if (c.with_constant) design(i, col++) = 1.0;
    for (const ScalingTerm& t : c.terms) {
      design(i, col++) = t.at(t.variable == TermVariable::Index ? c.family.index_of(p.n) : p.n);
    }
    y(i) = p.y;
    weights(i) = 1.0 / std::max(std::abs(p.y), floor);
  }
  const std::optional<Eigen::VectorXd> x = solve_least_squares(design, y, weights);
  if (!x) return std::nullopt;
  ScalingFit fit;
  fit.form = c.form;
  fit.family = c.family;
  Eigen::Index col = 0;
  if (c.with_constant) fit.constant = (*x)(col++);
  for (const ScalingTerm& t : c.terms) fit.terms.push_back({(*x)(col++), t});
  return fit;
}

// log|y| = log|a| + b log n: the papers' volume regression. Every y has the same sign.
std::optional<ScalingFit> fit_power_law(std::span<const ScalingPoint> points) {
  const auto rows = static_cast<Eigen::Index>(points.size());
  Eigen::MatrixXd design(rows, 2);
  Eigen::VectorXd log_y(rows);
  for (Eigen::Index i = 0; i < rows; ++i) {
    const ScalingPoint& p = points[static_cast<std::size_t>(i)];
    design(i, 0) = 1.0;
    design(i, 1) = std::log(p.n);
    log_y(i) = std::log(std::abs(p.y));
  }
  const std::optional<Eigen::VectorXd> x =
      solve_least_squares(design, log_y, Eigen::VectorXd::Ones(rows));
  if (!x) return std::nullopt;
  const double sign = points.front().y < 0 ? -1.0 : 1.0;
  ScalingFit fit;
  fit.form = ScalingForm::PowerLaw;
  fit.terms.push_back({sign * std::exp((*x)(0)), {TermVariable::N, (*x)(1), 0}});
  return fit;
}

std::optional<ScalingFit> fit_candidate(const Candidate& c, std::span<const ScalingPoint> points,
                                        double floor) {
  return c.form == ScalingForm::PowerLaw ? fit_power_law(points) : fit_linear(c, points, floor);
}

// Mean relative error (%) predicting each run from a fit to the others.
std::optional<double> leave_one_out_pct(const Candidate& c, std::span<const ScalingPoint> points,
                                        double floor) {
  if (points.size() < c.parameters() + 1) return std::nullopt;
  std::vector<ScalingPoint> rest;
  double sum = 0.0;
  for (std::size_t left_out = 0; left_out < points.size(); ++left_out) {
    rest.clear();
    for (std::size_t i = 0; i < points.size(); ++i) {
      if (i != left_out) rest.push_back(points[i]);
    }
    const std::optional<ScalingFit> fit = fit_candidate(c, rest, floor);
    if (!fit) return std::nullopt;
    sum += relative_error(fit->at(points[left_out].n), points[left_out].y, floor);
  }
  return 100.0 * sum / static_cast<double>(points.size());
}

double max_error_pct(const ScalingFit& fit, std::span<const ScalingPoint> points, double floor) {
  double worst = 0.0;
  for (const ScalingPoint& p : points)
    worst = std::max(worst, relative_error(fit.at(p.n), p.y, floor));
  return 100.0 * worst;
}

double r_squared(const ScalingFit& fit, std::span<const ScalingPoint> points) {
  double mean = 0.0;
  for (const ScalingPoint& p : points) mean += p.y;
  mean /= static_cast<double>(points.size());
  double residual = 0.0;
  double total = 0.0;
  for (const ScalingPoint& p : points) {
    residual += (fit.at(p.n) - p.y) * (fit.at(p.n) - p.y);
    total += (p.y - mean) * (p.y - mean);
  }
  if (total == 0.0) return residual == 0.0 ? 1.0 : 0.0;
  return 1.0 - residual / total;
}

bool one_sign(std::span<const ScalingPoint> points) {
  const bool positive = points.front().y > 0;
  return std::all_of(points.begin(), points.end(), [positive](const ScalingPoint& p) {
    return p.y != 0.0 && (p.y > 0) == positive;
  });
}

// Simplest first: ties later go to the earlier candidate.
std::vector<Candidate> candidates(const ScalingFitOptions& options,
                                  std::span<const ScalingPoint> points) {
  std::vector<ScalingTerm> shapes;
  for (double e : options.exponents) {
    for (int j : options.log2_powers) {
      if (e != 0.0 || j != 0) shapes.push_back({TermVariable::N, e, j});
    }
  }
  std::vector<Candidate> out;
  out.push_back({ScalingForm::Constant, {}, true, {}});
  for (const ScalingTerm& t : shapes) out.push_back({ScalingForm::NormalForm, {}, false, {t}});
  if (options.power_law && one_sign(points)) {
    out.push_back({ScalingForm::PowerLaw, {}, false, {{TermVariable::N, 1.0, 0}}});
  }
  for (const ProcessCountFamily& family : options.displacement_families) {
    // The index of "any" count is n itself: the same model as c0 + c1 * n below.
    const bool holds_all = std::all_of(points.begin(), points.end(), [&](const ScalingPoint& p) {
      return p.n == std::floor(p.n) && family.contains(static_cast<std::int64_t>(p.n));
    });
    if (family.kind != ProcessCountKind::Any && holds_all) {
      out.push_back({ScalingForm::Displacement, family, true, {{TermVariable::Index, 1.0, 0}}});
    }
  }
  if (options.max_terms >= 1) {
    for (const ScalingTerm& t : shapes) out.push_back({ScalingForm::NormalForm, {}, true, {t}});
  }
  if (options.max_terms >= 2) {
    for (std::size_t a = 0; a < shapes.size(); ++a) {
      for (std::size_t b = a + 1; b < shapes.size(); ++b) {
        out.push_back({ScalingForm::NormalForm, {}, true, {shapes[a], shapes[b]}});
      }
    }
  }
  return out;
}

void validate(std::span<const ScalingPoint> points) {
  if (points.empty()) throw std::invalid_argument("no runs to fit");
  for (const ScalingPoint& p : points) {
    if (!std::isfinite(p.n) || p.n < 1.0 || !std::isfinite(p.y)) {
      throw std::invalid_argument(fmt::format("bad run (n = {}, y = {})", p.n, p.y));
    }
  }
}

// With enough runs: the best cross-validated candidate of each complexity, then the simplest
// unless a more complex one cuts the error by the required factor.
const Scored* choose_by_cross_validation(const std::vector<Scored>& scored,
                                         const ScalingFitOptions& options) {
  std::vector<const Scored*> best_of;  // indexed by complexity
  for (const Scored& s : scored) {
    if (best_of.size() <= s.complexity) best_of.resize(s.complexity + 1, nullptr);
    const Scored*& best = best_of[s.complexity];
    // Candidates come simplest first; a later one must be better by more than the slack.
    if (!best || *s.loo_pct + options.loo_slack_pct < *best->loo_pct) best = &s;
  }
  const Scored* chosen = nullptr;
  for (const Scored* s : best_of) {
    if (!s) continue;
    const double gain = s->complexity >= 3 ? options.two_term_loo_gain : options.parameter_loo_gain;
    if (!chosen || *s->loo_pct * gain + options.loo_slack_pct < *chosen->loo_pct) chosen = s;
  }
  return chosen;
}

// With 3 runs or fewer: the simplest that fits adequately, else the closest fit.
const Scored* choose_by_parsimony(const std::vector<Scored>& scored, double adequate_pct,
                                  bool& adequate) {
  const Scored* pick = nullptr;
  for (const Scored& s : scored) {
    if (s.max_error_pct > adequate_pct) continue;
    if (!pick || s.complexity < pick->complexity ||
        (s.complexity == pick->complexity && s.max_error_pct < pick->max_error_pct)) {
      pick = &s;
    }
  }
  adequate = pick != nullptr;
  if (pick) return pick;
  for (const Scored& s : scored) {
    if (!pick || s.max_error_pct < pick->max_error_pct) pick = &s;
  }
  return pick;
}

}  // namespace

ScalingFit fit_scaling_model(std::span<const ScalingPoint> points,
                             const ScalingFitOptions& options) {
  validate(points);
  const bool all_equal = std::all_of(points.begin(), points.end(),
                                     [&](const ScalingPoint& p) { return p.y == points[0].y; });
  if (all_equal) {
    // Kept exactly as measured: a byte count that never changed must not become 4095.9999.
    ScalingFit fit;
    fit.constant = points[0].y;
    fit.quality = {points.size(), 1.0, 0.0, 0.0, "every run gave the same value"};
    if (points.size() < 2) fit.quality.loo_error_pct.reset();
    return fit;
  }

  double largest = 0.0;
  for (const ScalingPoint& p : points) largest = std::max(largest, std::abs(p.y));
  const double floor = 1e-9 * largest;
  const bool cross_validate = points.size() >= 4;
  // Cross-validation needs every refit to be overdetermined; the parsimony rule only needs
  // the full fit to be.
  const std::size_t max_parameters =
      cross_validate ? points.size() - 2 : std::max<std::size_t>(1, points.size() - 1);

  std::vector<Scored> scored;
  for (const Candidate& c : candidates(options, points)) {
    if (c.parameters() > max_parameters) continue;
    std::optional<ScalingFit> fit = fit_candidate(c, points, floor);
    if (!fit) continue;
    Scored s{std::move(*fit), c.complexity(), leave_one_out_pct(c, points, floor), 0.0};
    if (cross_validate && !s.loo_pct) continue;
    s.max_error_pct = max_error_pct(s.fit, points, floor);
    scored.push_back(std::move(s));
  }
  if (scored.empty()) throw std::invalid_argument("no candidate model could be fitted");

  const Scored* chosen = nullptr;
  std::string selection;
  if (cross_validate) {
    chosen = choose_by_cross_validation(scored, options);
    selection = fmt::format(
        "leave-one-out over {} runs among {} candidates; a dependence on n or an extra "
        "parameter must cut the error {}x (a second term {}x)",
        points.size(), scored.size(), options.parameter_loo_gain, options.two_term_loo_gain);
  } else {
    bool adequate = false;
    chosen = choose_by_parsimony(scored, options.adequate_error_pct, adequate);
    selection = adequate ? fmt::format(
                               "only {} runs: simplest (a constant first, then fewest parameters) "
                               "with training error <= "
                               "{}%",
                               points.size(), options.adequate_error_pct)
                         : fmt::format(
                               "only {} runs and no candidate within {}%: smallest "
                               "training error",
                               points.size(), options.adequate_error_pct);
  }
  ScalingFit fit = chosen->fit;
  fit.quality = {points.size(), r_squared(fit, points), chosen->loo_pct, chosen->max_error_pct,
                 std::move(selection)};
  return fit;
}

}  // namespace p3s::model
