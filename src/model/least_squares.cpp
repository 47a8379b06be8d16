#include "model/least_squares.hpp"

namespace p3s::model {

std::optional<Eigen::VectorXd> solve_least_squares(const Eigen::MatrixXd& design,
                                                   const Eigen::VectorXd& y,
                                                   const Eigen::VectorXd& weights) {
  Eigen::MatrixXd weighted = weights.asDiagonal() * design;
  // Columns such as n^2 and log2(n) differ by orders of magnitude; scaling each to unit norm
  // keeps the rank test below about shape, not units.
  Eigen::VectorXd scale = weighted.colwise().norm().transpose();
  for (Eigen::Index c = 0; c < scale.size(); ++c) {
    if (scale(c) == 0.0) return std::nullopt;
    weighted.col(c) /= scale(c);
  }
  // Column-pivoting QR reports the numerical rank, which tells a degenerate design apart.
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(weighted);
  if (qr.rank() < design.cols()) return std::nullopt;
  Eigen::VectorXd x = qr.solve(weights.cwiseProduct(y));
  return Eigen::VectorXd(x.cwiseQuotient(scale));
}

}  // namespace p3s::model
