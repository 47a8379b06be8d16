#include "model/holdout_check.hpp"

#include <fmt/core.h>

#include <cmath>
#include <stdexcept>

#include "model/phase_alignment.hpp"
#include "model/slt_scaled_trace.hpp"

namespace p3s::model {
namespace {

double error_pct(double predicted, double actual) {
  if (actual == 0) return predicted == 0 ? 0.0 : 100.0;
  return 100.0 * (predicted - actual) / actual;
}

}  // namespace

std::string holdout_report(const Slt& slt, const LogicalRun& holdout) {
  std::string out = fmt::format("hold-out check at n = {}\n", holdout.n);
  const int n = static_cast<int>(holdout.n);
  std::optional<SltScaledTrace> trace;
  try {
    trace.emplace(slt, n, InstantiateOptions{.carry_nearest = true});
  } catch (const std::domain_error& e) {
    return out + fmt::format("  the model cannot be instantiated at n = {}: {}\n", n, e.what());
  }
  out += fmt::format("  {:<10} {:<12} {:>10} {:>10} {:>10}\n", "phase", "pattern", "volume %",
                     "weight %", "compute %");
  std::vector<core::Event> events;
  for (std::size_t k = 0; k < slt.phases.size(); ++k) {
    const PhaseModel& model = slt.phases[k];
    const auto position = static_cast<std::size_t>(model.index);
    if (position >= holdout.phases.size()) {
      out += fmt::format("  {:<10} has no counterpart at n = {}\n", model.name, holdout.n);
      continue;
    }
    const LogicalPhase& actual = holdout.phases[position];
    std::string pattern = model.pattern_modelled ? "exact" : "not modelled";
    double predicted_bytes = 0;
    double actual_bytes = 0;
    double actual_cpu = 0;
    double predicted_cpu = 0;
    for (int r = 0; r < n; ++r) {
      events.clear();
      trace->phase_events(static_cast<int>(k), r, events);
      const auto& tokens = actual.ranks[static_cast<std::size_t>(r)].events;
      actual_cpu += actual.ranks[static_cast<std::size_t>(r)].cpu_ns;
      predicted_cpu += trace->compute_ns(static_cast<int>(k), r);
      for (const core::Event& e : events)
        predicted_bytes += static_cast<double>(e.bytes + e.rbytes);
      for (const auto& t : tokens) actual_bytes += static_cast<double>(t.bytes + t.rbytes);
      bool same = events.size() == tokens.size();
      for (std::size_t i = 0; same && i < tokens.size(); ++i) {
        same = events[i].op == tokens[i].op &&
               events[i].dst == absolute_peer(tokens[i].dst, r, n) &&
               events[i].src == absolute_peer(tokens[i].src, r, n);
      }
      if (!same && model.pattern_modelled && pattern == "exact") {
        pattern = fmt::format("wrong (rank {})", r);
      }
    }
    std::int64_t weight = actual.ranks.front().weight;
    out += fmt::format("  {:<10} {:<12} {:>10.2f} {:>10.2f} {:>10.2f}\n", model.name, pattern,
                       error_pct(predicted_bytes, actual_bytes),
                       error_pct(trace->phases()[k].weight, static_cast<double>(weight)),
                       error_pct(predicted_cpu, actual_cpu));
  }
  return out;
}

}  // namespace p3s::model
