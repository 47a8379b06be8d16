#include "calibrate/shared_core_fit.hpp"

#include <cmath>

namespace p3s::calibrate {

SharedCoreFit fit_shared_core(const std::vector<RoundSample>& samples) {
  SharedCoreFit fit;
  double xx = 0, xt = 0;
  for (const RoundSample& s : samples) {
    const double per_core = static_cast<double>(s.ranks_per_node) / s.cores_per_node;
    if (per_core <= 1) continue;  // no sharing: nothing to learn about it
    SharedCoreComparison c;
    c.test = s.test;
    c.ranks = s.ranks;
    c.ranks_per_core = per_core;
    c.rounds = communication_rounds(s.test, s.ranks);
    c.measured = s.seconds;
    c.where = s.where;
    const double x = c.rounds * (per_core - 1);
    xx += x * x;
    xt += x * s.seconds;
    fit.comparisons.push_back(c);
  }
  if (fit.comparisons.empty() || xx <= 0) return fit;
  fit.measured = true;
  fit.round_seconds = xt / xx;
  for (SharedCoreComparison& c : fit.comparisons) {
    c.modelled = fit.round_seconds * c.rounds * (c.ranks_per_core - 1);
    fit.max_error = std::max(fit.max_error, std::abs(c.modelled - c.measured) / c.measured);
  }
  return fit;
}

}  // namespace p3s::calibrate
