#include "model/fit_band.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <vector>

namespace p3s::model {
namespace {

// The value of a term's variable at n for this fit: n, n's index in its family, or a face.
double variable_at(const ScalingFit& fit, const ScalingTerm& term, double n) {
  switch (term.variable) {
    case TermVariable::Index:
      return fit.family.index_of(n);
    case TermVariable::Face:
      return fit.face.at(n);
    case TermVariable::N:
      break;
  }
  return n;
}

bool has_constant(const ScalingFit& fit) {
  // The search leaves the constant exactly 0 for forms fitted without one.
  return fit.form == ScalingForm::Constant ||
         (fit.form != ScalingForm::PowerLaw && fit.constant != 0.0);
}

// The regressors of one row of the form's design at n. A power law's are those of its
// logarithm, log a + b log n.
std::vector<double> regressors(const ScalingFit& fit, double n) {
  if (fit.form == ScalingForm::PowerLaw) return {1.0, std::log(n)};
  std::vector<double> row;
  if (has_constant(fit)) row.push_back(1.0);
  for (const FittedTerm& t : fit.terms) row.push_back(t.term.at(variable_at(fit, t.term, n)));
  return row;
}

// Relative error of the form at a training run, with the search's floor against y = 0, as the
// search scored every form (a power law's is about its error in the logarithm it was fitted in).
double relative_residual(const ScalingFit& fit, const ScalingPoint& p, double floor) {
  return (fit.at(p.n) - p.y) / std::max(std::abs(p.y), floor);
}

// x_n' (A'A)^-1 x_n for the design A of the training runs weighted by 1 / |y| (a power law's
// rows unweighted: its errors are already relative), with A's columns scaled to unit norm so
// that n^2 beside log2(n) stays well conditioned. Nothing when the design is singular.
std::optional<double> leverage(const ScalingFit& fit, const std::vector<ScalingPoint>& training,
                               double n, double floor) {
  const std::vector<double> at_n = regressors(fit, n);
  const auto cols = static_cast<Eigen::Index>(at_n.size());
  Eigen::MatrixXd design(static_cast<Eigen::Index>(training.size()), cols);
  for (std::size_t i = 0; i < training.size(); ++i) {
    const std::vector<double> row = regressors(fit, training[i].n);
    const double weight =
        fit.form == ScalingForm::PowerLaw ? 1.0 : 1.0 / std::max(std::abs(training[i].y), floor);
    for (Eigen::Index c = 0; c < cols; ++c) {
      design(static_cast<Eigen::Index>(i), c) = weight * row[static_cast<std::size_t>(c)];
    }
  }
  Eigen::VectorXd x(cols);
  for (Eigen::Index c = 0; c < cols; ++c) {
    const double norm = design.col(c).norm();
    if (norm == 0.0 || !std::isfinite(norm)) return std::nullopt;
    design.col(c) /= norm;
    x(c) = at_n[static_cast<std::size_t>(c)] / norm;
  }
  const Eigen::FullPivLU<Eigen::MatrixXd> gram(design.transpose() * design);
  if (!gram.isInvertible()) return std::nullopt;
  return x.dot(gram.solve(x));
}

// One form's predictive distribution at n: its value plus scale times a standard normal or
// Student variable (for a power law, the value times the exponential of that).
struct Component {
  double weight = 0;
  double value = 0;
  double scale = 0;
  double freedom = 0;  // 0: normal
  bool logarithmic = false;

  double cdf(double x) const {
    if (scale == 0) return x >= value ? 1.0 : 0.0;
    double z = 0;
    if (logarithmic) {
      if (x <= 0) return 0.0;
      z = std::log(x / value) / scale;
    } else {
      z = (x - value) / scale;
    }
    return freedom > 0 ? boost::math::cdf(boost::math::students_t(freedom), z)
                       : boost::math::cdf(boost::math::normal(), z);
  }
  // Where its distribution is all but certain to lie.
  std::pair<double, double> range() const {
    const double z = freedom > 0 ? boost::math::quantile(boost::math::students_t(freedom), 1 - 1e-9)
                                 : boost::math::quantile(boost::math::normal(), 1 - 1e-9);
    if (logarithmic) return {value * std::exp(-z * scale), value * std::exp(z * scale)};
    return {value - z * scale, value + z * scale};
  }
};

FormFit evidence_of(const ScalingFit& form, const std::vector<ScalingPoint>& training,
                    double floor) {
  FormFit e;
  for (const ScalingPoint& p : training) {
    const double r = relative_residual(form, p, floor);
    e.rss += r * r;
  }
  e.parameters = regressors(form, training.front().n).size();
  const bool dependence = !form.terms.empty() && !has_constant(form);
  e.charged = e.parameters + (dependence ? 1 : 0);
  return e;
}

// The form's predictive distribution at n, unweighted; nothing where it is not defined or not
// trusted, or its design is singular.
std::optional<Component> component_of(const ScalingFit& form, const FormFit& e,
                                      const std::vector<ScalingPoint>& training, double n,
                                      double noise_pct, double floor) {
  Component c;
  c.value = form.at(n);
  if (!std::isfinite(c.value) || !form.trusted_at(n)) return std::nullopt;
  c.logarithmic = form.form == ScalingForm::PowerLaw && c.value > 0;
  double sigma = declared_sigma(noise_pct);
  if (training.size() > e.parameters) {
    const auto freedom = static_cast<double>(training.size() - e.parameters);
    const double residual = std::sqrt(e.rss / freedom);
    if (residual > sigma) {
      sigma = residual;
      c.freedom = freedom;
    }
  }
  if (sigma == 0) return c;
  const std::optional<double> h = leverage(form, training, n, floor);
  if (!h) return std::nullopt;
  c.scale = c.logarithmic ? sigma * std::sqrt(*h + 1.0) : sigma * std::sqrt(*h + c.value * c.value);
  return c;
}

// The mixture's p-quantile, by bisection on its distribution function over asinh(x / scale),
// scale the largest value of a component: a power law's component on one or two degrees of
// freedom reaches values (or overflows to infinity) that no few hundred halvings of x itself
// resolve, while asinh halves orders of magnitude; near 0 it is x / scale, so the precision
// is relative to the quantity's own size either way.
double mixture_quantile(const std::vector<Component>& mixture, double p) {
  double low = std::numeric_limits<double>::max();
  double high = std::numeric_limits<double>::lowest();
  double scale = 0;
  for (const Component& c : mixture) {
    const auto [a, b] = c.range();
    low = std::min(low, a);
    high = std::max(high, b);
    scale = std::max(scale, std::abs(c.value));
  }
  if (scale == 0 || !std::isfinite(scale)) scale = 1;
  const auto x_of = [&](double u) { return scale * std::sinh(u); };
  const auto cdf = [&](double u) {
    double sum = 0;
    for (const Component& c : mixture) sum += c.weight * c.cdf(x_of(u));
    return sum;
  };
  const double finite = std::numeric_limits<double>::max();
  double u_low = std::asinh(std::clamp(low, -finite, finite) / scale);
  double u_high = std::asinh(std::clamp(high, -finite, finite) / scale);
  for (int i = 0; i < 200 && u_high - u_low > 1e-13 * std::max(1.0, std::abs(u_high)); ++i) {
    const double mid = u_low + (u_high - u_low) / 2;
    (cdf(mid) < p ? u_low : u_high) = mid;
  }
  return x_of(u_high);
}

}  // namespace

double declared_sigma(double noise_pct) {
  return noise_pct / 200.0;
}

namespace {

std::optional<double> known_error_aicc(double rss, std::size_t k, std::size_t points,
                                       double sigma) {
  if (points <= k + 1 || sigma <= 0) return std::nullopt;
  const auto kd = static_cast<double>(k);
  const auto p = static_cast<double>(points);
  return rss / (sigma * sigma) + 2 * kd + 2 * kd * (kd + 1) / (p - kd - 1);
}

}  // namespace

std::vector<std::optional<double>> evidence_scores(const std::vector<FormFit>& forms,
                                                   std::size_t points, double sigma) {
  std::vector<std::optional<double>> scores(forms.size());
  if (forms.empty()) return scores;
  const bool charged = known_error_aicc(forms[0].rss, forms[0].charged, points, sigma).has_value();
  for (std::size_t i = 0; i < forms.size(); ++i) {
    scores[i] = known_error_aicc(forms[i].rss, charged ? forms[i].charged : forms[i].parameters,
                                 points, sigma);
  }
  if (!scores[0]) scores.assign(forms.size(), std::nullopt);
  return scores;
}

std::optional<FitBand> fit_band(const ScalingFit& fit, double n, double level) {
  if (fit.training.empty()) return std::nullopt;
  const double value = fit.at(n);
  if (!std::isfinite(value)) return std::nullopt;
  double largest = 0;
  bool nonnegative = true;
  for (const ScalingPoint& p : fit.training) {
    largest = std::max(largest, std::abs(p.y));
    nonnegative = nonnegative && p.y >= 0;
  }
  const double floor = std::max(1e-9 * largest, std::numeric_limits<double>::min());
  const double noise = fit.quality.noise_pct;
  const FormFit chosen = evidence_of(fit, fit.training, floor);
  // Every form's evidence with one known error: the declared scatter, or the chosen form's own
  // residual scatter when the runs lie further from it than that.
  double sigma = declared_sigma(noise);
  if (fit.training.size() > chosen.parameters) {
    sigma = std::max(sigma, std::sqrt(chosen.rss / static_cast<double>(fit.training.size() -
                                                                       chosen.parameters)));
  }
  const std::optional<Component> own = component_of(fit, chosen, fit.training, n, noise, floor);
  if (!own) return std::nullopt;
  std::vector<Component> mixture = {*own};
  std::vector<FormFit> forms = {chosen};
  for (const ScalingFit& alternative : fit.alternatives) {
    forms.push_back(evidence_of(alternative, fit.training, floor));
    const std::optional<Component> c =
        component_of(alternative, forms.back(), fit.training, n, noise, floor);
    mixture.push_back(c.value_or(Component{}));
    if (!c) forms.back().rss = std::numeric_limits<double>::infinity();  // left out
  }
  const std::vector<std::optional<double>> scores =
      evidence_scores(forms, fit.training.size(), sigma);
  if (scores[0]) {
    for (std::size_t i = 0; i < mixture.size(); ++i) {
      // Weights relative to the chosen form's: exp(-(AICc - AICc_chosen) / 2); a form with
      // no score, or left out, weighs nothing.
      const bool usable = scores[i] && std::isfinite(*scores[i]);
      mixture[i].weight = usable ? std::exp(-(*scores[i] - *scores[0]) / 2) : 0.0;
    }
  } else {
    mixture.front().weight = 1;
  }
  double total = 0;
  for (const Component& c : mixture) total += c.weight;
  for (Component& c : mixture) c.weight /= total;
  FitBand band{std::min(value, mixture_quantile(mixture, (1 - level) / 2)),
               std::max(value, mixture_quantile(mixture, (1 + level) / 2))};
  if (nonnegative) band.low = std::max(band.low, 0.0);
  return band;
}

}  // namespace p3s::model
