#include "replay_mpi/collective_fit.hpp"

#include <fmt/core.h>

#include <Eigen/Dense>
#include <array>
#include <cmath>
#include <stdexcept>

namespace p3s::replay {
namespace {

double ceil_log2(double p) {
  return p <= 1 ? 0 : std::ceil(std::log2(p));
}

std::array<double, 3> basis(double p) {
  return {1.0, p, ceil_log2(p)};
}

}  // namespace

double CollectiveFit::at(double p) const {
  const auto x = basis(p);
  return a * x[0] + b * x[1] + c * x[2];
}

std::string CollectiveFit::equation() const {
  return fmt::format("{:.4g} + {:.4g} P + {:.4g} ceil(log2 P)", a, b, c);
}

CollectiveFit fit_collective(const std::vector<int>& sizes, const std::vector<double>& seconds) {
  if (sizes.empty() || sizes.size() != seconds.size())
    throw std::invalid_argument("a collective's fit needs as many times as sizes, at least one");
  std::array<bool, 3> used = {true, true, true};
  std::array<double, 3> coef = {0, 0, 0};
  for (int round = 0; round < 3; ++round) {
    std::vector<int> columns;
    for (int k = 0; k < 3; ++k)
      if (used[static_cast<std::size_t>(k)]) columns.push_back(k);
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
    coef = {0, 0, 0};
    bool negative = false;
    for (std::size_t j = 0; j < columns.size(); ++j) {
      const double v = solution(static_cast<Eigen::Index>(j));
      coef[static_cast<std::size_t>(columns[j])] = v;
      // The constant may not be dropped; a negative one means the data is below any line.
      if (v < 0 && columns[j] != 0) {
        used[static_cast<std::size_t>(columns[j])] = false;
        negative = true;
      }
    }
    if (!negative) break;
  }
  CollectiveFit fit{coef[0], coef[1], coef[2]};
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (seconds[i] > 0)
      fit.max_relative_residual =
          std::max(fit.max_relative_residual, std::fabs(fit.at(sizes[i]) - seconds[i]) / seconds[i]);
  }
  return fit;
}

std::vector<int> sample_sizes(int processes) {
  std::vector<int> sizes;
  for (int p = 2; p <= std::min(processes, 16); ++p) sizes.push_back(p);
  for (int p = 20; p < processes; p = p + std::max(4, p / 4)) sizes.push_back(p);
  if (processes > 16) sizes.push_back(processes);
  return sizes;
}

}  // namespace p3s::replay
