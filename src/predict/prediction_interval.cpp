#include "predict/prediction_interval.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <stdexcept>

#include "predict/checked_trace.hpp"
#include "sim/simulate.hpp"

namespace p3s::predict {

std::vector<std::string> phase_names(const model::SltScaledTrace& trace) {
  std::vector<std::string> names;
  for (const core::ScaledPhase& phase : trace.phases()) names.push_back(phase.name);
  return names;
}

BoundPet simulated_bound(const model::Slt& slt, model::FitBound bound, std::int64_t n, double level,
                         const generate::Policy& policy, const sim::SimOptions& options,
                         const std::vector<std::string>& phases) {
  const char* name = bound == model::FitBound::Low ? "low" : "high";
  BoundPet out;
  std::vector<std::string> unbounded;
  const model::Slt at_bound =
      model::slt_at_bound(slt, bound, static_cast<double>(n), level, unbounded);
  if (!unbounded.empty()) {
    out.warnings.push_back(fmt::format(
        "N = {}: no interval: {} has no predictive band there (its form is not defined or not "
        "trusted at N, or the SLT was written without its training runs: model them again)",
        n, unbounded.front()));
    return out;
  }
  std::vector<std::string> why;
  const auto trace = checked_trace(at_bound, n, policy, why, [](const std::string&) {});
  if (!trace || phase_names(*trace) != phases) {
    out.warnings.push_back(fmt::format(
        "N = {}: no interval: the model's {} bound {}", n, name,
        !trace ? fmt::format("cannot be simulated there ({})", why.empty() ? "" : why.back())
               : std::string("leaves out other phases than the prediction")));
    return out;
  }
  sim::SimOptions quiet = options;
  quiet.progress = nullptr;
  try {
    const sim::SimResult result = sim::simulate(*trace, quiet);
    if (const auto problem = unusable_pet(result, *trace)) throw std::runtime_error(*problem);
    out.pet = result.pet;
  } catch (const std::exception& e) {
    out.warnings.push_back(fmt::format(
        "N = {}: no interval: the model's {} bound failed to simulate: {}", n, name, e.what()));
  }
  return out;
}

std::optional<report::Interval> interval_of(const BoundPet& low, const BoundPet& high,
                                            std::vector<std::string>& warnings) {
  for (const BoundPet* bound : {&low, &high}) {
    warnings.insert(warnings.end(), bound->warnings.begin(), bound->warnings.end());
    if (!bound->pet) return std::nullopt;
  }
  return report::Interval{*low.pet, *high.pet};
}

std::optional<report::Interval> simulated_interval(const model::Slt& slt, std::int64_t n,
                                                   double level, const generate::Policy& policy,
                                                   const sim::SimOptions& options,
                                                   const std::vector<std::string>& phases,
                                                   std::vector<std::string>& warnings) {
  const BoundPet low =
      simulated_bound(slt, model::FitBound::Low, n, level, policy, options, phases);
  // The high bound is simulated only where the low one stands.
  const BoundPet high =
      low.pet ? simulated_bound(slt, model::FitBound::High, n, level, policy, options, phases)
              : BoundPet{};
  return interval_of(low, high, warnings);
}

report::Interval replayed_interval(const replay::ReplayResult& replayed) {
  report::Interval interval;
  for (const replay::PhaseResult& phase : replayed.phases) {
    interval.low += (phase.by_repetition.min - phase.overlap_allowance) * phase.weight;
    interval.high += phase.by_repetition.max * phase.weight;
  }
  // Each rank's mean over repetitions may peak in no single repetition: keep the PET inside.
  interval.low = std::min(interval.low, replayed.pet);
  interval.high = std::max(interval.high, replayed.pet);
  return interval;
}

}  // namespace p3s::predict
