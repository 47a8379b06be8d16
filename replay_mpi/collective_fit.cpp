#include "replay_mpi/collective_fit.hpp"

#include <fmt/core.h>

#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <stdexcept>

namespace p3s::replay {
namespace {

double floor_log2(double p) {
  return p <= 1 ? 0 : std::floor(std::log2(p));
}

std::array<double, 3> basis(double p) {
  return {1.0, p, floor_log2(p)};
}

// The least-squares fit with the terms `used` (constant, P, floor(log2 P)) only; nothing when
// the points are fewer than the terms or a term other than the constant comes out negative.
std::optional<CollectiveFit> fit_terms(const std::vector<int>& sizes,
                                       const std::vector<double>& seconds,
                                       const std::array<bool, 3>& used) {
  std::vector<int> columns;
  for (int k = 0; k < 3; ++k)
    if (used[static_cast<std::size_t>(k)]) columns.push_back(k);
  if (columns.size() > sizes.size()) return std::nullopt;
  Eigen::MatrixXd x(static_cast<Eigen::Index>(sizes.size()),
                    static_cast<Eigen::Index>(columns.size()));
  Eigen::VectorXd y(static_cast<Eigen::Index>(sizes.size()));
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const auto row = basis(sizes[i]);
    for (std::size_t j = 0; j < columns.size(); ++j)
      x(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) =
          row[static_cast<std::size_t>(columns[j])];
    y(static_cast<Eigen::Index>(i)) = seconds[i];
  }
  const Eigen::VectorXd solution = x.colPivHouseholderQr().solve(y);
  std::array<double, 3> coef = {0, 0, 0};
  for (std::size_t j = 0; j < columns.size(); ++j) {
    if (columns[j] != 0 && solution(static_cast<Eigen::Index>(j)) < 0) return std::nullopt;
    coef[static_cast<std::size_t>(columns[j])] = solution(static_cast<Eigen::Index>(j));
  }
  return CollectiveFit{coef[0], coef[1], coef[2]};
}

double largest_relative_residual(const CollectiveFit& fit, const std::vector<int>& sizes,
                                 const std::vector<double>& seconds) {
  double largest = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (seconds[i] > 0)
      largest = std::max(largest, std::fabs(fit.at(sizes[i]) - seconds[i]) / seconds[i]);
  }
  return largest;
}

// A collective's time on a real machine scatters by about this much from call to call: a term
// that explains less than that explains noise, and extrapolated over N / R it would grow it.
constexpr double kCollectiveScatter = 0.02;

}  // namespace

double CollectiveFit::at(double p) const {
  const auto x = basis(p);
  return a * x[0] + b * x[1] + c * x[2];
}

std::string CollectiveFit::equation() const {
  return fmt::format("{:.4g} + {:.4g} P + {:.4g} floor(log2 P)", a, b, c);
}

CollectiveFit fit_collective(const std::vector<int>& sizes, const std::vector<double>& seconds) {
  if (sizes.empty() || sizes.size() != seconds.size())
    throw std::invalid_argument("a collective's fit needs as many times as sizes, at least one");
  // Every subset of the P and log2 P terms with the constant, simplest first, whose terms are
  // not negative; the simplest that lies as close to every point as the closest one does, give
  // or take the scatter of a collective's time (or half as much again as the closest).
  std::vector<CollectiveFit> fits;
  double closest = -1;
  for (const std::array<bool, 3> used :
       {std::array<bool, 3>{true, false, false}, std::array<bool, 3>{true, false, true},
        std::array<bool, 3>{true, true, false}, std::array<bool, 3>{true, true, true}}) {
    std::optional<CollectiveFit> fit = fit_terms(sizes, seconds, used);
    if (!fit) continue;
    fit->max_relative_residual = largest_relative_residual(*fit, sizes, seconds);
    if (closest < 0 || fit->max_relative_residual < closest) closest = fit->max_relative_residual;
    fits.push_back(*fit);
  }
  const double enough = std::max(kCollectiveScatter, 1.5 * closest);
  for (const CollectiveFit& fit : fits) {
    if (fit.max_relative_residual <= enough) return fit;
  }
  return fits.front();
}

std::vector<std::size_t> fit_points(const std::vector<int>& sizes, std::int64_t members) {
  const auto power_of_two = [](std::int64_t p) { return p > 0 && (p & (p - 1)) == 0; };
  std::vector<std::size_t> alike;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (power_of_two(sizes[i]) == power_of_two(members)) alike.push_back(i);
  }
  if (alike.size() >= 3) return alike;
  std::vector<std::size_t> all(sizes.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  return all;
}

std::vector<int> sample_sizes(int processes) {
  std::vector<int> sizes;
  for (int p = 2; p <= std::min(processes, 16); ++p) sizes.push_back(p);
  for (int p = 20; p < processes; p = p + std::max(4, p / 4)) sizes.push_back(p);
  if (processes > 16) sizes.push_back(processes);
  return sizes;
}

}  // namespace p3s::replay
