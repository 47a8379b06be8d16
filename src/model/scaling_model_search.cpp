#include "model/scaling_model_search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include "model/fit_band.hpp"
#include "model/least_squares.hpp"

namespace p3s::model {
namespace {

// One model shape to try; its coefficients come from the data.
struct Candidate {
  ScalingForm form = ScalingForm::NormalForm;
  ProcessCountFamily family;
  GridFace face;
  bool with_constant = false;
  std::vector<ScalingTerm> terms;  // PowerLaw: one n term whose exponent is fitted too

  std::size_t parameters() const {
    // A power law fits its exponent as well as its factor.
    return terms.size() + (with_constant ? 1 : 0) + (form == ScalingForm::PowerLaw ? 1 : 0);
  }
  // How much the model says about n: a constant says nothing, so any dependence on n, even
  // with one parameter, has to earn its place against it like an extra parameter (a noisy
  // constant must not become c * n^(1/4) and grow without bound when extrapolated).
  std::size_t complexity() const { return terms.empty() ? 0 : parameters(); }
  // For an information criterion: a dependence on n without a constant is charged the
  // constant it replaces, else the best of dozens of one-parameter shapes beats the constant
  // on noise alone.
  std::size_t charged_parameters() const {
    return parameters() + (!terms.empty() && !with_constant ? 1 : 0);
  }
};

struct Scored {
  ScalingFit fit;
  std::size_t parameters = 0;
  std::size_t complexity = 0;
  std::size_t charged_parameters = 0;
  std::optional<double> loo_pct;
  double max_error_pct = 0.0;
  double rss = 0.0;  // sum of squared relative errors
  std::optional<double> trusted_up_to;
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
      const double x = t.variable == TermVariable::Index  ? c.family.index_of(p.n)
                       : t.variable == TermVariable::Face ? c.face.at(p.n)
                                                          : p.n;
      design(i, col++) = t.at(x);
    }
    y(i) = p.y;
    weights(i) = 1.0 / std::max(std::abs(p.y), floor);
  }
  const std::optional<Eigen::VectorXd> x = solve_least_squares(design, y, weights);
  if (!x) return std::nullopt;
  ScalingFit fit;
  fit.form = c.form;
  fit.family = c.family;
  fit.face = c.face;
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

// The shapes of one term: n^e log2(n)^j for every exponent and power but the constant.
std::vector<ScalingTerm> term_shapes(const ScalingFitOptions& options) {
  std::vector<ScalingTerm> shapes;
  for (double e : options.exponents) {
    for (int j : options.log2_powers) {
      if (e != 0.0 || j != 0) shapes.push_back({TermVariable::N, e, j});
    }
  }
  return shapes;
}

// A displacement in the index of each family of process counts that holds every run.
void add_displacements(const ScalingFitOptions& options, std::span<const ScalingPoint> points,
                       std::vector<Candidate>& out) {
  for (const ProcessCountFamily& family : options.displacement_families) {
    // The index of "any" count is n itself: the same model as c0 + c1 * n.
    const bool holds_all = std::all_of(points.begin(), points.end(), [&](const ScalingPoint& p) {
      return p.n == std::floor(p.n) && family.contains(static_cast<std::int64_t>(p.n));
    });
    if (family.kind != ProcessCountKind::Any && holds_all) {
      out.push_back({ScalingForm::Displacement, family, {}, true, {{TermVariable::Index, 1.0, 0}}});
    }
  }
}

// Each grid face defined at every run, without and with a constant.
void add_faces(const ScalingFitOptions& options, std::span<const ScalingPoint> points,
               std::vector<Candidate>& out) {
  for (const GridFace& face : options.faces) {
    const bool defined = std::all_of(points.begin(), points.end(), [&](const ScalingPoint& p) {
      return std::isfinite(face.at(p.n));
    });
    if (!defined) continue;
    out.push_back({ScalingForm::Face, {}, face, false, {{TermVariable::Face, 1.0, 0}}});
    out.push_back({ScalingForm::Face, {}, face, true, {{TermVariable::Face, 1.0, 0}}});
  }
}

// Every pair of different shapes, with a constant when the options allow one.
void add_two_terms(const ScalingFitOptions& options, const std::vector<ScalingTerm>& shapes,
                   std::vector<Candidate>& out) {
  for (std::size_t a = 0; a < shapes.size(); ++a) {
    for (std::size_t b = a + 1; b < shapes.size(); ++b) {
      out.push_back(
          {ScalingForm::NormalForm, {}, {}, options.constant_term, {shapes[a], shapes[b]}});
    }
  }
}

// Simplest first: ties later go to the earlier candidate.
std::vector<Candidate> candidates(const ScalingFitOptions& options,
                                  std::span<const ScalingPoint> points) {
  const std::vector<ScalingTerm> shapes = term_shapes(options);
  std::vector<Candidate> out;
  out.push_back({ScalingForm::Constant, {}, {}, true, {}});
  for (const ScalingTerm& t : shapes) out.push_back({ScalingForm::NormalForm, {}, {}, false, {t}});
  if (options.power_law && one_sign(points)) {
    out.push_back({ScalingForm::PowerLaw, {}, {}, false, {{TermVariable::N, 1.0, 0}}});
  }
  add_displacements(options, points, out);
  add_faces(options, points, out);
  if (options.max_terms >= 1 && options.constant_term) {
    for (const ScalingTerm& t : shapes) out.push_back({ScalingForm::NormalForm, {}, {}, true, {t}});
  }
  if (options.max_terms >= 2) add_two_terms(options, shapes, out);
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

// The smallest n of the runs, and whether their values are all positive, all at least 0.
struct DataRange {
  double low = 0;
  bool positive = true;
  bool nonnegative = true;
};

DataRange data_range(std::span<const ScalingPoint> points) {
  DataRange range{points.front().n, true, true};
  for (const ScalingPoint& p : points) {
    range.low = std::min(range.low, p.n);
    range.positive = range.positive && p.y > 0;
    range.nonnegative = range.nonnegative && p.y >= 0;
  }
  return range;
}

// A face follows the grid's shape, which turns back and forth with n by nature (17 ranks make
// a 17 x 1 x 1 grid, 16 a 4 x 2 x 2): only its sign is checked, at the grids' extremes.
std::optional<double> trusted_face_limit(const ScalingFit& fit, const DataRange& data) {
  const bool kept =
      fit.constant >= 0 && std::all_of(fit.terms.begin(), fit.terms.end(),
                                       [](const FittedTerm& t) { return t.coefficient > 0; });
  return kept || !data.nonnegative ? std::nullopt : std::optional<double>(data.low);
}

// -1, 0 or 1: which way a step goes, 0 when it is rounding against the values' scale.
int step_direction(double step, double scale) {
  if (std::abs(step) <= 1e-9 * scale) return 0;
  return step > 0 ? 1 : -1;
}

// Where the model stops keeping the data's sign or its direction between the smallest run and
// the horizon: the last n, on a geometric grid, before it does; nothing when it never does.
std::optional<double> trusted_limit(const ScalingFit& fit, std::span<const ScalingPoint> points,
                                    double horizon) {
  const DataRange data = data_range(points);
  if (fit.form == ScalingForm::Face) return trusted_face_limit(fit, data);
  const double low = data.low;
  if (fit.terms.empty() || horizon <= low) return std::nullopt;
  constexpr int kSteps = 96;
  const double ratio = std::pow(horizon / low, 1.0 / kSteps);
  double previous_n = low;
  double previous = fit.at(low);
  double scale = std::abs(previous);
  int direction = 0;
  for (int k = 1; k <= kSteps; ++k) {
    const double n = k == kSteps ? horizon : low * std::pow(ratio, k);
    const double value = fit.at(n);
    const bool sign_kept =
        std::isfinite(value) && (data.positive ? value > 0 : !data.nonnegative || value >= 0);
    scale = std::max(scale, std::abs(value));
    const int d = step_direction(value - previous, scale);
    if (!sign_kept || (direction != 0 && d != 0 && d != direction)) return previous_n;
    if (direction == 0) direction = d;
    previous_n = n;
    previous = value;
  }
  return std::nullopt;
}

// Akaike's criterion corrected for small samples, on relative errors; nothing when the
// candidate leaves no degree of freedom (it would interpolate, and the correction diverges).
std::optional<double> aicc(const Scored& s, std::size_t points) {
  const double p = static_cast<double>(points);
  const double k = static_cast<double>(s.charged_parameters);
  if (p - k - 1 <= 0) return std::nullopt;
  return p * std::log(s.rss / p + 1e-300) + 2 * k + 2 * k * (k + 1) / (p - k - 1);
}

// The simplest candidate that explains every run within the tolerance; among as simple ones,
// a grid face (what a halo's size is made of), then the smallest cross-validated (else
// training) error.
const Scored* choose_simplest_adequate(const std::vector<const Scored*>& pool, double tolerance) {
  const Scored* pick = nullptr;
  auto rank = [](const Scored* s) {
    return std::tuple(s->complexity, s->fit.form == ScalingForm::Face ? 0 : 1,
                      s->loo_pct.value_or(s->max_error_pct));
  };
  for (const Scored* s : pool) {
    if (s->max_error_pct > tolerance) continue;
    if (!pick || rank(s) < rank(pick)) pick = s;
  }
  return pick;
}

// With enough runs: the best cross-validated candidate of each complexity, then the simplest
// unless a more complex one cuts the error by the required factor.
const Scored* choose_by_cross_validation(const std::vector<const Scored*>& pool,
                                         const ScalingFitOptions& options) {
  std::vector<const Scored*> best_of;  // indexed by complexity
  for (const Scored* s : pool) {
    if (!s->loo_pct) continue;
    if (best_of.size() <= s->complexity) best_of.resize(s->complexity + 1, nullptr);
    const Scored*& best = best_of[s->complexity];
    // Candidates come simplest first; a later one must be better by more than the slack.
    if (!best || *s->loo_pct + options.loo_slack_pct < *best->loo_pct) best = s;
  }
  const Scored* chosen = nullptr;
  for (const Scored* s : best_of) {
    if (!s) continue;
    const double gain = s->complexity >= 3 ? options.two_term_loo_gain : options.parameter_loo_gain;
    if (!chosen || *s->loo_pct * gain + options.loo_slack_pct < *chosen->loo_pct) chosen = s;
  }
  return chosen;
}

// With 3 runs or fewer: the smallest AICc among the candidates that leave a degree of freedom.
const Scored* choose_by_information(const std::vector<const Scored*>& pool, std::size_t points) {
  const Scored* pick = nullptr;
  double best = 0;
  for (const Scored* s : pool) {
    const std::optional<double> score = aicc(*s, points);
    if (!score) continue;
    if (!pick || *score < best) {
      pick = s;
      best = *score;
    }
  }
  return pick;
}

std::string horizon_text(double horizon) {
  return fmt::format("{:.0f}", horizon);
}

// Every run gave the same value: kept exactly as measured (a byte count that never changed
// must not become 4095.9999), unless faces are preferred (a value that stayed the same over
// grids of one face is the face's). Nothing otherwise.
std::optional<ScalingFit> unchanging_value(std::span<const ScalingPoint> points,
                                           const ScalingFitOptions& options) {
  const bool all_equal = std::all_of(points.begin(), points.end(),
                                     [&](const ScalingPoint& p) { return p.y == points[0].y; });
  const bool face_first = options.prefer_faces && !options.faces.empty();
  if (!all_equal || face_first) return std::nullopt;
  ScalingFit fit;
  fit.constant = points[0].y;
  fit.quality = {points.size(),     1.0,  0.0,         0.0, "every run gave the same value",
                 options.noise_pct, true, std::nullopt};
  if (points.size() < 2) fit.quality.loo_error_pct.reset();
  return fit;
}

Scored score_fit(const Candidate& c, ScalingFit fit, std::span<const ScalingPoint> points,
                 double floor, double horizon) {
  Scored s;
  s.fit = std::move(fit);
  s.parameters = c.parameters();
  s.complexity = c.complexity();
  s.charged_parameters = c.charged_parameters();
  s.loo_pct = leave_one_out_pct(c, points, floor);
  s.max_error_pct = max_error_pct(s.fit, points, floor);
  for (const ScalingPoint& p : points) {
    const double e = relative_error(s.fit.at(p.n), p.y, floor);
    s.rss += e * e;
  }
  s.trusted_up_to = trusted_limit(s.fit, points, horizon);
  return s;
}

bool noisy_data(const ScalingFitOptions& options) {
  return options.noise_pct > options.exact_pct;
}

// With this many runs, candidates are judged by leaving one out.
bool cross_validates(std::span<const ScalingPoint> points) {
  return points.size() >= 4;
}

// Every candidate the runs can fit without interpolating them, scored.
std::vector<Scored> score_candidates(std::span<const ScalingPoint> points,
                                     const ScalingFitOptions& options) {
  double largest = 0.0;
  for (const ScalingPoint& p : points) largest = std::max(largest, std::abs(p.y));
  const double floor = 1e-9 * largest;
  // A candidate with as many parameters as runs interpolates them: it says nothing it was not
  // told. Cross-validation needs every refit to be overdetermined as well.
  const std::size_t max_parameters =
      cross_validates(points) ? points.size() - 2 : std::max<std::size_t>(1, points.size() - 1);
  const bool noisy = noisy_data(options);
  std::vector<Scored> scored;
  for (const Candidate& c : candidates(options, points)) {
    if (c.parameters() > max_parameters) continue;
    if (noisy && c.parameters() > 1 && c.parameters() + options.noisy_spare_runs > points.size()) {
      continue;
    }
    std::optional<ScalingFit> fit = fit_candidate(c, points, floor);
    if (!fit) continue;
    scored.push_back(score_fit(c, std::move(*fit), points, floor, options.horizon));
  }
  return scored;
}

std::vector<const Scored*> pointers_to(const std::vector<Scored>& scored) {
  std::vector<const Scored*> all;
  all.reserve(scored.size());
  for (const Scored& s : scored) all.push_back(&s);
  return all;
}

// The simplest candidate within the tolerance: a face first when faces are preferred, then
// among the candidates of `pool`; exact data that only a form that turns back or changes sign
// explains keep it, with its limit (noisy data that only a turning form explains are scatter).
const Scored* choose_within_tolerance(const std::vector<Scored>& scored,
                                      const std::vector<const Scored*>& pool, bool shape_kept,
                                      double tolerance, const ScalingFitOptions& options) {
  const Scored* chosen = nullptr;
  if (options.prefer_faces) {
    std::vector<const Scored*> faces;
    for (const Scored* s : pool) {
      if (s->fit.form == ScalingForm::Face) faces.push_back(s);
    }
    chosen = choose_simplest_adequate(faces, tolerance);
  }
  if (!chosen) chosen = choose_simplest_adequate(pool, tolerance);
  if (!chosen && shape_kept && !noisy_data(options)) {
    chosen = choose_simplest_adequate(pointers_to(scored), tolerance);
  }
  return chosen;
}

// The chosen candidate, and how it was chosen in words.
struct Selection {
  const Scored* chosen = nullptr;
  std::string text;
  bool within_noise = false;  // it explains every run within the tolerance
};

// With no candidate within the tolerance: by cross-validation with enough runs, else by an
// information criterion, else the simplest.
Selection select_beyond_tolerance(const std::vector<const Scored*>& pool,
                                  std::span<const ScalingPoint> points, std::size_t candidates,
                                  double tolerance, const ScalingFitOptions& options) {
  Selection out;
  if (cross_validates(points)) {
    out.chosen = choose_by_cross_validation(pool, options);
    out.text = fmt::format(
        "{} runs, none within the expected scatter ({} %): leave-one-out among {} candidates; a "
        "dependence on n or an extra parameter must cut the error {}x (a second term {}x)",
        points.size(), number_text(tolerance), candidates, options.parameter_loo_gain,
        options.two_term_loo_gain);
  }
  if (!out.chosen) {
    out.chosen = choose_by_information(pool, points.size());
    out.text = fmt::format(
        "only {} runs, none within the expected scatter ({} %): the smallest AICc (a small-sample "
        "information criterion) among the candidates that leave a degree of freedom",
        points.size(), number_text(tolerance));
  }
  if (!out.chosen) {
    // Two runs, neither the same: a constant is all they can say without interpolating.
    out.chosen = pool.front();
    for (const Scored* s : pool) {
      if (s->complexity < out.chosen->complexity) out.chosen = s;
    }
    out.text = fmt::format("only {} runs: the simplest candidate", points.size());
  }
  return out;
}

Selection select_candidate(const std::vector<Scored>& scored, std::span<const ScalingPoint> points,
                           const ScalingFitOptions& options) {
  // Candidates that keep their sign and direction up to the horizon, unless none does.
  std::vector<const Scored*> pool;
  for (const Scored& s : scored) {
    if (!s.trusted_up_to) pool.push_back(&s);
  }
  const bool shape_kept = !pool.empty();
  if (!shape_kept) pool = pointers_to(scored);
  // Noise of +-a leaves a least-squares fit of the right form up to about 1.5 a from a run.
  const double tolerance = std::max(options.exact_pct, 1.5 * options.noise_pct);
  Selection out;
  out.chosen = choose_within_tolerance(scored, pool, shape_kept, tolerance, options);
  if (!out.chosen) return select_beyond_tolerance(pool, points, scored.size(), tolerance, options);
  out.within_noise = true;
  out.text = fmt::format(
      "{} runs: the simplest of {} candidates that explains every run within {}{} %", points.size(),
      scored.size(), noisy_data(options) ? "the data's scatter, " : "rounding, ",
      number_text(tolerance));
  return out;
}

// How many alternative forms a fit keeps, and how little evidence they may have against the
// best supported form: an Akaike weight of 1/1000 (a difference of 2 ln 1000 in AICc).
constexpr std::size_t kMostAlternatives = 64;
constexpr double kLeastEvidence = 13.8;

// The candidates the band of the fit (model/fit_band.hpp) weighs against the chosen form
// (`own`: its errors and parameters): those kept to the horizon (unless the chosen one is not)
// whose AICc, the error known as the data's scatter or the chosen form's residual scatter if
// larger, is within kLeastEvidence of the best; the best supported first.
std::vector<ScalingFit> supported_alternatives(const std::vector<Scored>& scored,
                                               const ScalingFit& chosen, const FormFit& own,
                                               std::span<const ScalingPoint> points,
                                               const ScalingFitOptions& options) {
  const std::size_t p = points.size();
  double sigma = declared_sigma(options.noise_pct);
  if (p > own.parameters) {
    sigma = std::max(sigma, std::sqrt(own.rss / static_cast<double>(p - own.parameters)));
  }
  const bool chosen_kept = !chosen.quality.trusted_up_to;
  std::vector<FormFit> forms = {own};
  std::vector<const Scored*> others;
  for (const Scored& s : scored) {
    const bool same = s.fit.form == chosen.form && s.fit.terms == chosen.terms &&
                      s.fit.face == chosen.face && s.fit.family == chosen.family;
    if (same || (chosen_kept && s.trusted_up_to)) continue;
    forms.push_back({s.rss, s.parameters, s.charged_parameters});
    others.push_back(&s);
  }
  const std::vector<std::optional<double>> scores = evidence_scores(forms, p, sigma);
  if (!scores[0]) return {};
  double best = *scores[0];
  std::vector<std::pair<double, const Scored*>> supported;
  for (std::size_t i = 0; i < others.size(); ++i) {
    if (!scores[i + 1]) continue;
    best = std::min(best, *scores[i + 1]);
    supported.emplace_back(*scores[i + 1], others[i]);
  }
  std::stable_sort(supported.begin(), supported.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<ScalingFit> out;
  const double tolerance = std::max(options.exact_pct, 1.5 * options.noise_pct);
  for (const auto& [aicc, s] : supported) {
    if (aicc > best + kLeastEvidence || out.size() == kMostAlternatives) break;
    ScalingFit fit = s->fit;
    fit.quality = {p,
                   r_squared(fit, points),
                   s->loo_pct,
                   s->max_error_pct,
                   fmt::format("an alternative form: AICc {} against the chosen form's {}",
                               number_text(aicc), number_text(*scores[0])),
                   options.noise_pct,
                   s->max_error_pct <= tolerance,
                   s->trusted_up_to};
    out.push_back(std::move(fit));
  }
  return out;
}

}  // namespace

std::string_view work_scaling_name(WorkScaling scaling) {
  switch (scaling) {
    case WorkScaling::Weak:
      return "weak";
    case WorkScaling::Strong:
      return "strong";
    case WorkScaling::Unknown:
      break;
  }
  return "unknown";
}

WorkScaling work_scaling_from_name(std::string_view name) {
  for (WorkScaling s : {WorkScaling::Unknown, WorkScaling::Weak, WorkScaling::Strong}) {
    if (work_scaling_name(s) == name) return s;
  }
  throw std::invalid_argument(
      fmt::format("unknown work scaling '{}' (weak, strong or unknown)", name));
}

ScalingFitOptions compute_fit_options(WorkScaling scaling, double noise_pct) {
  ScalingFitOptions options;
  options.noise_pct = noise_pct;
  if (scaling != WorkScaling::Unknown) options.noisy_spare_runs = 1;
  switch (scaling) {
    case WorkScaling::Weak:
      options.exponents = {0.0};
      options.log2_powers = {1};
      options.max_terms = 1;
      options.power_law = false;
      break;
    case WorkScaling::Strong:
      // Amdahl's form first: a power law fits a part every rank repeats as a steeper fall
      // within the noise, and then extrapolates it away.
      options.exponents = {-1.0, 0.0};
      options.log2_powers = {0, 1};
      options.power_law = false;
      break;
    case WorkScaling::Unknown:
      break;
  }
  return options;
}

ScalingFit fit_scaling_model(std::span<const ScalingPoint> points,
                             const ScalingFitOptions& options) {
  validate(points);
  std::optional<ScalingFit> same = unchanging_value(points, options);
  if (same) {
    same->training.assign(points.begin(), points.end());
    // Exact values that never changed are known; noisy ones might have followed other forms.
    if (!noisy_data(options)) return *same;
  }
  const std::vector<Scored> scored = score_candidates(points, options);
  if (same) {
    same->alternatives = supported_alternatives(scored, *same, {0.0, 1, 1}, points, options);
    return *same;
  }
  if (scored.empty()) throw std::invalid_argument("no candidate model could be fitted");
  Selection selection = select_candidate(scored, points, options);
  const Scored& chosen = *selection.chosen;
  if (chosen.trusted_up_to) {
    selection.text += fmt::format(
        "; it changes sign or direction before n = {}, so it is trusted only up to n = {}",
        horizon_text(options.horizon), number_text(std::floor(*chosen.trusted_up_to)));
  }
  ScalingFit fit = chosen.fit;
  fit.quality = {points.size(),          r_squared(fit, points),    chosen.loo_pct,
                 chosen.max_error_pct,   std::move(selection.text), options.noise_pct,
                 selection.within_noise, chosen.trusted_up_to};
  fit.training.assign(points.begin(), points.end());
  fit.alternatives = supported_alternatives(
      scored, fit, {chosen.rss, chosen.parameters, chosen.charged_parameters}, points, options);
  return fit;
}

}  // namespace p3s::model
