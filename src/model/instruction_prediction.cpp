#include "model/instruction_prediction.hpp"

#include <algorithm>
#include <cmath>

namespace p3s::model {

double InstructionPrediction::per_rank(double n, const ScalingFit& weight) const {
  const double repetitions = std::max(1.0, std::round(weight.at(n)));
  return total / (share * n) / repetitions;
}

std::optional<double> InstructionPrediction::n_for(double instructions,
                                                   const ScalingFit& weight) const {
  // per_rank falls as n grows (the weight of a phase does not shrink with n): bisect on
  // log n, which keeps the search as precise at n = 2 as at n = 10^9.
  constexpr double kLargest = 1e12;
  double low = 0.0;
  double high = std::log(kLargest);
  if (instructions <= 0 || per_rank(1.0, weight) < instructions ||
      per_rank(kLargest, weight) > instructions)
    return std::nullopt;
  for (int step = 0; step < 200 && high - low > 1e-12; ++step) {
    const double mid = (low + high) / 2;
    (per_rank(std::exp(mid), weight) > instructions ? low : high) = mid;
  }
  return std::exp((low + high) / 2);
}

}  // namespace p3s::model
