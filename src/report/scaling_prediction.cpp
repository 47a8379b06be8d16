#include "report/scaling_prediction.hpp"

namespace p3s::report {

double ScalingPrediction::speedup(const PredictedPoint& p) const {
  if (points.empty() || p.pet_seconds <= 0) return 0;
  const double ratio = points.front().pet_seconds / p.pet_seconds;
  return weak_scaling ? ratio * static_cast<double>(p.n) / static_cast<double>(points.front().n)
                      : ratio;
}

double ScalingPrediction::efficiency(const PredictedPoint& p) const {
  if (points.empty() || p.n <= 0) return 0;
  return speedup(p) * static_cast<double>(points.front().n) / static_cast<double>(p.n);
}

std::optional<double> ScalingPrediction::difference_pct(const PredictedPoint& p) const {
  for (const MeasuredRun& m : measured) {
    if (m.n == p.n && m.aet_seconds > 0) {
      return 100.0 * (p.pet_seconds - m.aet_seconds) / m.aet_seconds;
    }
  }
  return std::nullopt;
}

}  // namespace p3s::report
