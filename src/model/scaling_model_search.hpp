#pragma once
// Chooses the model of a quantity in n from a few small-scale runs: a search over the
// performance model normal form, the papers' power law and, for weights, the displacement
// linearisation (001 sec. 3.3.1).
#include <cstdint>
#include <span>
#include <vector>

#include "model/process_count_family.hpp"
#include "model/scaling_fit.hpp"

namespace p3s::model {

struct ScalingPoint {
  double n = 0.0;  // process count of the run
  double y = 0.0;  // the quantity measured in that run
};

struct ScalingFitOptions {
  std::vector<double> exponents = default_exponents();
  std::vector<int> log2_powers = {0, 1, 2};
  int max_terms = 2;  // terms besides the constant in a normal-form candidate (1 or 2)
  bool power_law = true;
  // Families whose index is tried as the regressor of a linear displacement model; those that
  // do not hold every run's n are skipped (families_containing() lists the ones that do).
  std::vector<ProcessCountFamily> displacement_families;
  // With 3 runs or fewer cross-validation says little: the fewest-parameter candidate whose
  // largest training error is at most this (%) wins.
  double adequate_error_pct = 2.0;
  // With 4 runs or more, candidates are ranked by leave-one-out error. A candidate with more
  // parameters replaces a simpler one only when its error times the gain (plus the slack, in
  // percentage points) is still below the simpler one's: with a few noisy runs an extra
  // parameter always fits the noise a little, and then extrapolates it. Two-term models are
  // many (hundreds of pairs) and so fit noise best of all: they must gain more.
  double parameter_loo_gain = 2.0;
  double two_term_loo_gain = 100.0;
  double loo_slack_pct = 0.01;
};

// Throws std::invalid_argument on no points, n < 1 or a non-finite value.
ScalingFit fit_scaling_model(std::span<const ScalingPoint> points,
                             const ScalingFitOptions& options = {});

}  // namespace p3s::model
