#pragma once
// A fit's predictive interval at a process count n: where the quantity measured in a run at n
// may lie, at a stated two-sided level, given what the training runs leave open.
//
// Two things are open. The parameters of a form: a least-squares fit of relative errors,
// whose prediction at n has the variance s^2 (x_n' (A'A)^-1 x_n + y_n^2) (the parameters'
// uncertainty, which grows with n's distance from the training runs, plus a new run's own
// scatter); s is the larger of the runs' residual scatter around the form (Student's t on its
// degrees of freedom) and the data's declared scatter (normal). And the form itself: the
// chosen one and the others the search kept (ScalingFit::alternatives) are weighed by the
// evidence of the runs, Akaike weights exp(-AICc / 2) with the error known (Burnham and
// Anderson's model averaging), so that many weakly supported forms count as much as the runs
// allow and no more. The band is the two quantiles of that mixture, widened to hold the
// chosen form's value (the one instantiated). Exact data that every supported form explains
// give a band of zero width.
#include <cstddef>
#include <optional>
#include <vector>

#include "model/scaling_fit.hpp"

namespace p3s::model {

struct FitBand {
  double low = 0;
  double high = 0;
};

// The band of `fit` at n, at two-sided `level` in (0, 1). A fit without its training runs (an
// SLT written before the band existed) has none: nothing. Forms not defined at n (a grid face)
// or not trusted there (they turn back) are left out; quantities the runs gave as positive or
// zero are not bounded below 0.
std::optional<FitBand> fit_band(const ScalingFit& fit, double n, double level);

// One standard deviation of a run's relative error from the declared scatter (%): a
// half-range over ranks, taken as two of them.
double declared_sigma(double noise_pct);

// What a form's evidence is computed from: the square sum of its relative errors at the runs,
// its parameters, and the parameters it is charged (a dependence on n without a constant is
// charged the constant it replaces, as the search does).
struct FormFit {
  double rss = 0;
  std::size_t parameters = 0;
  std::size_t charged = 0;
};

// The forms' AICc with the error known to be `sigma`, rss / sigma^2 + 2k + 2k(k + 1) /
// (points - k - 1), k their charged parameters; the first form is the chosen one, and when it
// has no such score (no degree of freedom left for the correction), k is every form's own
// parameters instead. Nothing for a form that leaves no degree of freedom, and for all of
// them when the chosen form has no score either way (then nothing weighs the others).
std::vector<std::optional<double>> evidence_scores(const std::vector<FormFit>& forms,
                                                   std::size_t points, double sigma);

}  // namespace p3s::model
