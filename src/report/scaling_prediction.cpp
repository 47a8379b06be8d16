#include "report/scaling_prediction.hpp"

namespace p3s::report {

double PhaseCheck::difference_pct() const {
  return simulated_seconds > 0 ? 100 * (replayed_seconds - simulated_seconds) / simulated_seconds
                               : 0;
}

double ScalingPrediction::speedup_from(double ratio, std::int64_t n) const {
  return weak_scaling ? ratio * static_cast<double>(n) / static_cast<double>(points.front().n)
                      : ratio;
}

double ScalingPrediction::speedup(const PredictedPoint& p) const {
  if (points.empty() || p.pet_seconds <= 0) return 0;
  return speedup_from(points.front().pet_seconds / p.pet_seconds, p.n);
}

double ScalingPrediction::efficiency(const PredictedPoint& p) const {
  if (points.empty() || p.n <= 0) return 0;
  return speedup(p) * static_cast<double>(points.front().n) / static_cast<double>(p.n);
}

const MeasuredRun* ScalingPrediction::measured_at(std::int64_t n) const {
  for (const MeasuredRun& m : measured) {
    if (m.n == n) return &m;
  }
  return nullptr;
}

std::optional<double> ScalingPrediction::difference_pct(const PredictedPoint& p) const {
  const MeasuredRun* m = measured_at(p.n);
  if (!m || m->aet_seconds <= 0) return std::nullopt;
  return 100.0 * (p.pet_seconds - m->aet_seconds) / m->aet_seconds;
}

std::optional<double> ScalingPrediction::measured_speedup(const MeasuredRun& m) const {
  if (points.empty()) return std::nullopt;
  const MeasuredRun* base = measured_at(points.front().n);
  if (!base || base->aet_seconds <= 0 || m.aet_seconds <= 0) return std::nullopt;
  return speedup_from(base->aet_seconds / m.aet_seconds, m.n);
}

std::optional<BestN> ScalingPrediction::best_simulated() const {
  if (weak_scaling) return std::nullopt;
  std::vector<TimedCount> curve;
  for (const PredictedPoint& p : points) curve.push_back({p.n, p.pet_seconds});
  return best_n(curve, min_efficiency);
}

std::optional<BestN> ScalingPrediction::best_replayed() const {
  if (weak_scaling) return std::nullopt;
  std::vector<TimedCount> curve;
  for (const PredictedPoint& p : points) {
    if (p.replay_pet_seconds) curve.push_back({p.n, *p.replay_pet_seconds});
  }
  return best_n(curve, min_efficiency);
}

}  // namespace p3s::report
