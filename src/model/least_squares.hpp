#pragma once
// Weighted linear least squares over a small design matrix, the one solver every fit uses.
#include <Eigen/Dense>
#include <optional>

namespace p3s::model {

// Minimises sum_i (w_i * (design.row(i) . x - y_i))^2. Nothing when the design's columns are
// not independent (then the coefficients would not be determined by the data).
std::optional<Eigen::VectorXd> solve_least_squares(const Eigen::MatrixXd& design,
                                                   const Eigen::VectorXd& y,
                                                   const Eigen::VectorXd& weights);

}  // namespace p3s::model
