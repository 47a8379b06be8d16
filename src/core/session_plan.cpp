#include "core/session_plan.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace p3s::core {

SessionPlan full_plan(const ScaledTrace& trace) {
  SessionPlan plan;
  const std::vector<ScaledPhase>& phases = trace.phases();
  for (int p = 0; p < static_cast<int>(phases.size()); ++p) {
    const ScaledPhase& phase = phases[static_cast<std::size_t>(p)];
    if (!(phase.weight >= 0) || !std::isfinite(phase.weight)) {
      throw std::invalid_argument("phase " + phase.name + " has weight " +
                                  std::to_string(phase.weight));
    }
    plan.segments.push_back({p, std::llround(phase.weight)});
  }
  return plan;
}

SessionPlan phase_plan(int phase, int measured) {
  SessionPlan plan;
  plan.segments = {{phase, 1 + static_cast<std::int64_t>(measured)}};
  plan.warmup_repetitions = 1;
  return plan;
}

}  // namespace p3s::core
