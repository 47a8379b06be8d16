#pragma once
// Chooses the model of a quantity in n from a few small-scale runs: a search over the
// performance model normal form, the papers' power law and, for weights, the displacement
// linearisation (001 sec. 3.3.1).
//
// A handful of runs is a small sample, so the search prefers fewer parameters unless the data
// clearly demand more: the simplest candidate that explains every run within the data's own
// scatter wins. Only when none does is the choice left to cross-validation (4 runs or more) or
// to a small-sample information criterion (AICc), which charge an extra parameter more than it
// gains on noise. Candidates that change sign or turn back (grow, then shrink) between the
// smallest run and the horizon are not extrapolated: they are taken only when nothing else
// fits, and then carry the n where they stop being trusted.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "model/process_count_family.hpp"
#include "model/scaling_fit.hpp"

namespace p3s::model {

struct ScalingFitOptions {
  std::vector<double> exponents = default_exponents();
  std::vector<int> log2_powers = {0, 1, 2};
  int max_terms = 2;          // terms besides the constant in a normal-form candidate (1 or 2)
  bool constant_term = true;  // candidates may add a constant to their terms
  bool power_law = true;
  // Families whose index is tried as the regressor of a linear displacement model; those that
  // do not hold every run's n are skipped (families_containing() lists the ones that do).
  std::vector<ProcessCountFamily> displacement_families;
  // Grid faces tried as the regressor of a + b * face(n) (a halo message's slot): those not
  // defined at every run's n are skipped.
  std::vector<GridFace> faces;
  // A face that explains the data is taken before any other form (the caller knows the data
  // are a halo's under strong scaling, which runs on degenerate grids cannot show).
  bool prefer_faces = false;
  // The data's own scatter, as a relative error (%): a candidate whose every run lies within it
  // explains the data. 0 for exact quantities (byte counts, repetitions), which still carry
  // rounding: `exact_pct`.
  double noise_pct = 0.0;
  double exact_pct = 0.1;
  // With noisy data, a candidate must leave this many runs beyond its parameters: among dozens
  // of two-parameter forms one always passes through three noisy points. A declared scaling
  // keeps the candidates few, and then one spare run is enough.
  std::size_t noisy_spare_runs = 2;
  // Candidates must keep the data's sign and direction from the smallest run up to this n.
  double horizon = 16'777'216;
  // When no candidate explains the data within its scatter, with 4 runs or more: candidates are
  // ranked by leave-one-out error, and one with more parameters replaces a simpler one only
  // when its error times the gain (plus the slack, in percentage points) is still below the
  // simpler one's. Two-term models are many and fit noise best of all: they must gain more.
  double parameter_loo_gain = 2.0;
  double two_term_loo_gain = 100.0;
  double loo_slack_pct = 0.01;
};

// How the application divides its work as n grows, as the user declares it (p3s model
// --scaling): under weak scaling each rank keeps its share, under strong scaling the total is
// fixed and each rank's share shrinks.
enum class WorkScaling : std::uint8_t { Unknown, Weak, Strong };

std::string_view work_scaling_name(WorkScaling scaling);
WorkScaling work_scaling_from_name(std::string_view name);  // throws std::invalid_argument

// The candidate forms of compute per rank under a declared scaling: weak, a constant or a slow
// logarithmic growth (reductions, a tree); strong, a fixed total over n plus a part every rank
// repeats (c1/n + c0) and a logarithmic part; unknown, the whole search.
ScalingFitOptions compute_fit_options(WorkScaling scaling, double noise_pct);

// Throws std::invalid_argument on no points, n < 1 or a non-finite value.
ScalingFit fit_scaling_model(std::span<const ScalingPoint> points,
                             const ScalingFitOptions& options = {});

}  // namespace p3s::model
