#include "model/integer_formula_fit.hpp"

#include <cmath>
#include <set>
#include <utility>

#include "model/least_squares.hpp"

namespace p3s::model {
namespace {

std::size_t distinct_points(std::span<const FormulaSample> samples) {
  std::set<std::pair<std::int64_t, std::int64_t>> seen;
  for (const FormulaSample& s : samples) seen.emplace(s.n, s.slot);
  return seen.size();
}

// Least squares gives the coefficients; rounding and an exact check decide.
std::optional<IntegerFormula> fit_with(std::span<const FormulaSample> samples,
                                       const std::vector<FormulaBasis>& chosen) {
  const auto rows = static_cast<Eigen::Index>(samples.size());
  const auto cols = static_cast<Eigen::Index>(chosen.size() + 1);
  Eigen::MatrixXd design(rows, cols);
  Eigen::VectorXd y(rows);
  for (Eigen::Index i = 0; i < rows; ++i) {
    const FormulaSample& s = samples[static_cast<std::size_t>(i)];
    design(i, 0) = 1.0;
    for (std::size_t b = 0; b < chosen.size(); ++b) {
      const std::optional<std::int64_t> v = basis_value(chosen[b], s.n, s.slot);
      if (!v) return std::nullopt;
      design(i, static_cast<Eigen::Index>(b) + 1) = static_cast<double>(*v);
    }
    y(i) = static_cast<double>(s.value);
  }
  const std::optional<Eigen::VectorXd> x =
      solve_least_squares(design, y, Eigen::VectorXd::Ones(rows));
  if (!x) return std::nullopt;
  IntegerFormula formula;
  formula.constant = std::llround((*x)(0));
  for (std::size_t b = 0; b < chosen.size(); ++b) {
    const std::int64_t c = std::llround((*x)(static_cast<Eigen::Index>(b) + 1));
    if (c == 0) return std::nullopt;  // then a smaller formula already had its turn
    formula.terms.push_back({c, chosen[b]});
  }
  for (const FormulaSample& s : samples) {
    if (formula.try_at(s.n, s.slot) != s.value) return std::nullopt;
  }
  return formula;
}

}  // namespace

std::vector<FormulaBasis> size_bases() {
  return {FormulaBasis::N,           FormulaBasis::Sqrt,          FormulaBasis::Cbrt,
          FormulaBasis::CbrtSquared, FormulaBasis::Log2,          FormulaBasis::HalfN,
          FormulaBasis::HalfLog2,    FormulaBasis::FloorHalfLog2, FormulaBasis::CeilHalfLog2,
          FormulaBasis::SplitDims2,  FormulaBasis::SplitDims3};
}

std::vector<FormulaBasis> size_and_slot_bases() {
  std::vector<FormulaBasis> bases = size_bases();
  bases.push_back(FormulaBasis::Slot);
  bases.push_back(FormulaBasis::Pow2Slot);
  return bases;
}

std::optional<IntegerFormula> fit_integer_formula(std::span<const FormulaSample> samples,
                                                  std::span<const FormulaBasis> bases,
                                                  int max_terms) {
  const std::size_t points = distinct_points(samples);
  auto confirmed = [points](std::size_t coefficients) { return points >= coefficients + 1; };

  if (!confirmed(1)) return std::nullopt;
  if (std::optional<IntegerFormula> f = fit_with(samples, {})) return f;
  if (max_terms < 1 || !confirmed(2)) return std::nullopt;
  for (FormulaBasis b : bases) {
    if (std::optional<IntegerFormula> f = fit_with(samples, {b})) return f;
  }
  if (max_terms < 2 || !confirmed(3)) return std::nullopt;
  for (std::size_t a = 0; a < bases.size(); ++a) {
    for (std::size_t b = a + 1; b < bases.size(); ++b) {
      if (std::optional<IntegerFormula> f = fit_with(samples, {bases[a], bases[b]})) return f;
    }
  }
  return std::nullopt;
}

}  // namespace p3s::model
