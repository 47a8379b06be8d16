#pragma once
// A fitted model of one quantity (message bytes, phase weight, compute per rank) as a function
// of the process count n, with the quality numbers every model carries into the SLT.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/process_count_family.hpp"
#include "model/process_grid.hpp"
#include "model/scaling_term.hpp"

namespace p3s::model {

// How the model was fitted; all forms evaluate as constant + sum coefficient * term.
enum class ScalingForm : std::uint8_t {
  Constant,      // the data were one value; kept exactly
  NormalForm,    // c0 + sum c_k * n^i_k * log2(n)^j_k, least squares
  PowerLaw,      // a * n^b, least squares on log y against log n (the papers' volume model)
  Displacement,  // a + b * index(n) in a process count family (001 sec. 3.3.1)
  Face,          // a + b * face(n): a halo message on a process grid (GridFace)
};

// A rank's share of a global face of a process grid: 1/p_e for every dimension e of the grid
// but `dimension`, p the grid's extents at n. A halo message across that dimension carries
// this share of the domain's face: under strong scaling its bytes follow the grid's shape,
// which on an MPI_Dims_create grid is no function of n alone (8 ranks: 2x2x2, 12: 3x2x2).
struct GridFace {
  GridShape shape = GridShape::Balanced2D;
  int dimension = 0;
  // A multigrid's coarse level (GridPeerRule::planes): along a dimension of more ranks than
  // planes each rank that holds points holds one, so the face shrinks no further there.
  std::int32_t planes = 0;
  double at(double n) const;   // NaN where the grid is undefined at n
  std::string symbol() const;  // "1/(p_j p_k) [balanced_3d]"
  bool operator==(const GridFace&) const = default;
};

std::string_view scaling_form_name(ScalingForm form);
ScalingForm scaling_form_from_name(std::string_view name);  // throws std::invalid_argument

// One training run of a fitted quantity.
struct ScalingPoint {
  double n = 0.0;  // process count of the run
  double y = 0.0;  // the quantity measured in that run
  bool operator==(const ScalingPoint&) const = default;
};

struct FittedTerm {
  double coefficient = 0.0;
  ScalingTerm term;
  bool operator==(const FittedTerm&) const = default;
};

struct FitQuality {
  std::size_t points = 0;
  double r_squared = 1.0;
  // Mean relative error (%) of each run predicted by the model fitted to the other runs;
  // absent when too few runs were left to refit.
  std::optional<double> loo_error_pct;
  double max_error_pct = 0.0;  // largest relative error (%) at the training runs
  std::string selection;       // how this model was chosen among the candidates
  // The scatter the data were expected to have (%): 0 for exact quantities.
  double noise_pct = 0.0;
  // Every training run lies within that scatter (or within rounding, for exact data).
  bool within_noise = true;
  // The largest n up to which the model keeps the data's sign and its direction (growing or
  // shrinking), when that ends before the search's horizon: beyond it the model is not
  // extrapolated but reported.
  std::optional<double> trusted_up_to;
  bool operator==(const FitQuality&) const = default;
};

struct ScalingFit {
  ScalingForm form = ScalingForm::Constant;
  ProcessCountFamily family;  // the index's family; meaningful for Displacement only
  GridFace face;              // meaningful for Face only
  double constant = 0.0;
  std::vector<FittedTerm> terms;
  FitQuality quality;
  // What the predictive interval (model/fit_band.hpp) is made from: the runs the fit was made
  // from, and the other candidate forms that explain them almost as well (model-selection
  // uncertainty; each without alternatives of its own).
  std::vector<ScalingPoint> training;
  std::vector<ScalingFit> alternatives;

  double at(double n) const;
  // The model may be used at n: it keeps its sign and direction there (FitQuality).
  bool trusted_at(double n) const { return !quality.trusted_up_to || n <= *quality.trusted_up_to; }
  // Human-readable: "8192 * n^-1/2 + 16", "1001 * sqrt(n) - 1001", "4096".
  std::string equation() const;

  bool operator==(const ScalingFit&) const = default;
};

// A number as a person reads it in an equation: integers exactly, others to 6 digits.
std::string number_text(double value);

void to_json(nlohmann::json& out, const ScalingFit& fit);
void from_json(const nlohmann::json& in, ScalingFit& fit);

}  // namespace p3s::model
