#include "model/slt_bounds.hpp"

#include <fmt/core.h>

#include <cmath>
#include <limits>

#include "model/fit_band.hpp"

namespace p3s::model {

std::optional<ScalingFit> fit_at_bound(const ScalingFit& fit, FitBound bound, double n,
                                       double level) {
  const std::optional<FitBand> band = fit_band(fit, n, level);
  if (!band) return std::nullopt;
  const double target = bound == FitBound::High ? band->high : band->low;
  ScalingFit out = fit;
  // Every form evaluates as constant + sum of terms: moving the constant moves the value at n
  // by that much, whatever the form, up to rounding. Rounding must not take the value below
  // the target, which may be the 0 a quantity the runs gave as positive is bounded by (the
  // instantiation refuses a negative one): a second move, then the constant's next doubles up.
  out.constant += target - fit.at(n);
  out.constant += target - out.at(n);
  for (int step = 0; step < 64 && out.at(n) < target; ++step) {
    out.constant = std::nextafter(out.constant, std::numeric_limits<double>::infinity());
  }
  return out;
}

Slt slt_at_bound(const Slt& slt, FitBound bound, double n, double level,
                 std::vector<std::string>& unbounded) {
  Slt out = slt;
  const auto move = [&](ScalingFit& fit, const std::string& what) {
    if (std::optional<ScalingFit> moved = fit_at_bound(fit, bound, n, level)) {
      fit = std::move(*moved);
    } else {
      unbounded.push_back(what);
    }
  };
  for (PhaseModel& phase : out.phases) {
    move(phase.weight, fmt::format("{} weight", phase.name));
    for (std::size_t s = 0; s < phase.slots.size(); ++s) {
      SlotModel& slot = phase.slots[s];
      if (slot.bytes) move(*slot.bytes, fmt::format("{} slot {} bytes", phase.name, s));
      if (slot.rbytes) move(*slot.rbytes, fmt::format("{} slot {} bytes received", phase.name, s));
    }
  }
  for (std::size_t p = 0; p < out.compute.phases.size(); ++p) {
    std::vector<InstructionGroup>& groups = out.compute.phases[p].groups;
    for (std::size_t g = 0; g < groups.size(); ++g) {
      const std::string& name = p < out.phases.size() ? out.phases[p].name : "a phase";
      move(groups[g].per_rank_ns, fmt::format("{} compute of group {}", name, g));
    }
  }
  return out;
}

}  // namespace p3s::model
