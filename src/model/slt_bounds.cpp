#include "model/slt_bounds.hpp"

#include <algorithm>

namespace p3s::model {

double fit_uncertainty(const FitQuality& quality) {
  return std::max({quality.loo_error_pct.value_or(0.0), quality.max_error_pct, quality.noise_pct}) /
         100.0;
}

ScalingFit fit_at_bound(const ScalingFit& fit, FitBound bound) {
  const double u = fit_uncertainty(fit.quality);
  const double factor = bound == FitBound::High ? 1.0 + u : std::max(0.0, 1.0 - u);
  // Every form evaluates as constant + sum coefficient * term: scaling those scales the value.
  ScalingFit out = fit;
  out.constant *= factor;
  for (FittedTerm& t : out.terms) t.coefficient *= factor;
  return out;
}

Slt slt_at_bound(const Slt& slt, FitBound bound) {
  Slt out = slt;
  for (PhaseModel& phase : out.phases) {
    phase.weight = fit_at_bound(phase.weight, bound);
    for (SlotModel& slot : phase.slots) {
      if (slot.bytes) slot.bytes = fit_at_bound(*slot.bytes, bound);
      if (slot.rbytes) slot.rbytes = fit_at_bound(*slot.rbytes, bound);
    }
  }
  for (PhaseCompute& phase : out.compute.phases) {
    for (InstructionGroup& g : phase.groups) g.per_rank_ns = fit_at_bound(g.per_rank_ns, bound);
  }
  return out;
}

}  // namespace p3s::model
