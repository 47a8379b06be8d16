#include "model/holdout_check.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

#include "model/phase_alignment.hpp"
#include "model/slt_scaled_trace.hpp"

namespace p3s::model {
namespace {

double error_pct(double predicted, double actual) {
  if (actual == 0) return predicted == 0 ? 0.0 : 100.0;
  return 100.0 * (predicted - actual) / actual;
}

// The SLT reduced to phase k, so it can be instantiated without the others.
Slt only_phase(const Slt& slt, std::size_t k) {
  Slt one;
  one.runs = slt.runs;
  one.phases = {slt.phases[k]};
  one.compute = slt.compute;
  one.compute.phases = {slt.compute.phases.at(k)};
  return one;
}

using Call = std::tuple<core::Op, std::int64_t, std::int64_t>;  // operation, to, from

// Where the model's calls of one rank first differ from the run's, in words; empty when they
// are the same.
std::string first_difference(const std::vector<Call>& run, const std::vector<Call>& model) {
  if (run.size() != model.size()) {
    return fmt::format("{} calls, the model {}", run.size(), model.size());
  }
  for (std::size_t i = 0; i < run.size(); ++i) {
    if (run[i] == model[i]) continue;
    const auto& [op, dst, src] = run[i];
    const auto& [model_op, model_dst, model_src] = model[i];
    return fmt::format("call {}: {} to {} from {}, the model {} to {} from {}", i,
                       core::op_name(op), dst, src, core::op_name(model_op), model_dst, model_src);
  }
  return "";
}

bool same_calls_in_any_order(std::vector<Call> run, std::vector<Call> model) {
  std::sort(run.begin(), run.end());
  std::sort(model.begin(), model.end());
  return run == model;
}

void compare(const SltScaledTrace& trace, const LogicalPhase& actual, std::int64_t n,
             HoldoutPhase& out) {
  double predicted_bytes = 0, actual_bytes = 0;
  double predicted_cpu = 0, actual_cpu = 0;
  double predicted_slowest = 0, actual_slowest = 0;
  // The first rank whose calls differ as a set, and the first whose calls differ only in
  // order: a wrong peer anywhere makes the pattern wrong, whatever came before it.
  std::optional<std::pair<std::int64_t, std::string>> wrong, reordered;
  std::vector<core::Event> events;
  std::vector<Call> model_calls, run_calls;
  for (std::int64_t r = 0; r < n; ++r) {
    const LogicalRankPhase& rank = actual.ranks[static_cast<std::size_t>(r)];
    events.clear();
    trace.phase_events(0, static_cast<int>(r), events);
    const double cpu = trace.compute_ns(0, static_cast<int>(r));
    predicted_cpu += cpu;
    actual_cpu += rank.cpu_ns;
    predicted_slowest = std::max(predicted_slowest, cpu);
    actual_slowest = std::max(actual_slowest, rank.cpu_ns);
    model_calls.clear();
    run_calls.clear();
    for (const core::Event& e : events) {
      predicted_bytes += static_cast<double>(e.bytes + e.rbytes);
      model_calls.emplace_back(e.op, e.dst, e.src);
    }
    for (const auto& t : rank.events) {
      actual_bytes += static_cast<double>(t.bytes + t.rbytes);
      run_calls.emplace_back(t.op, absolute_peer(t.dst, r, n), absolute_peer(t.src, r, n));
    }
    if (wrong || run_calls == model_calls) continue;
    auto& first = same_calls_in_any_order(run_calls, model_calls) ? reordered : wrong;
    if (!first) first = {r, first_difference(run_calls, model_calls)};
  }
  out.exact = !wrong && !reordered;
  out.reordered = !wrong && reordered;
  if (wrong) {
    out.pattern = fmt::format("wrong (rank {})", wrong->first);
    out.difference = wrong->second;
  } else if (reordered) {
    out.pattern = fmt::format("reordered (rank {})", reordered->first);
    out.difference = reordered->second +
                     "; every rank makes the run's calls with the run's peers, in another order";
  } else {
    out.pattern = "exact";
  }
  out.volume_pct = error_pct(predicted_bytes, actual_bytes);
  out.weight_pct =
      error_pct(trace.phases().front().weight, static_cast<double>(actual.common_weight()));
  out.compute_pct = error_pct(predicted_cpu, actual_cpu);
  out.slowest_compute_pct = error_pct(predicted_slowest, actual_slowest);
}

std::string percent_or_dash(const std::optional<double>& v) {
  return v ? fmt::format("{:.2f}", *v) : std::string("-");
}

}  // namespace

HoldoutCheck check_holdout(const Slt& slt, const LogicalRun& holdout,
                           const std::vector<std::optional<std::size_t>>& counterparts) {
  HoldoutCheck check;
  check.n = holdout.n;
  for (std::size_t k = 0; k < slt.phases.size(); ++k) {
    const PhaseModel& model = slt.phases[k];
    HoldoutPhase phase;
    phase.name = model.name;
    phase.actual = k < counterparts.size() ? counterparts[k] : std::nullopt;
    if (!phase.actual) {
      phase.pattern = fmt::format("no counterpart at n = {}", holdout.n);
      check.phases.push_back(std::move(phase));
      continue;
    }
    const LogicalPhase& actual = holdout.phases.at(*phase.actual);
    phase.share = holdout.share_of({*phase.actual});
    if (!model.pattern_modelled) {
      phase.pattern = "not modelled";
      check.phases.push_back(std::move(phase));
      continue;
    }
    try {
      const Slt one = only_phase(slt, k);  // the trace refers to it
      const SltScaledTrace trace(one, static_cast<int>(holdout.n));
      compare(trace, actual, holdout.n, phase);
    } catch (const std::domain_error& e) {
      phase.pattern = fmt::format("cannot instantiate: {}", e.what());
    }
    check.phases.push_back(std::move(phase));
  }
  return check;
}

std::string HoldoutCheck::text() const {
  std::string out = fmt::format("hold-out check at n = {}\n", n);
  out += fmt::format("  {:<10} {:>7} {:<18} {:>9} {:>9} {:>9} {:>9}\n", "phase", "share", "pattern",
                     "volume %", "weight %", "compute %", "slowest %");
  for (const HoldoutPhase& p : phases) {
    if (!p.difference.empty()) {
      out +=
          fmt::format("  {:<10} {:>6.1f}% {:<18} {:>9} {:>9} {:>9} {:>9}\n", p.name, 100 * p.share,
                      p.pattern, percent_or_dash(p.volume_pct), percent_or_dash(p.weight_pct),
                      percent_or_dash(p.compute_pct), percent_or_dash(p.slowest_compute_pct));
      out += fmt::format("  {:<10}         first difference: {}\n", "", p.difference);
      continue;
    }
    if (p.pattern.size() > 18) {
      out += fmt::format("  {:<10} {:>6.1f}% {}\n", p.name, 100 * p.share, p.pattern);
      continue;
    }
    out += fmt::format("  {:<10} {:>6.1f}% {:<18} {:>9} {:>9} {:>9} {:>9}\n", p.name, 100 * p.share,
                       p.pattern, percent_or_dash(p.volume_pct), percent_or_dash(p.weight_pct),
                       percent_or_dash(p.compute_pct), percent_or_dash(p.slowest_compute_pct));
  }
  return out;
}

}  // namespace p3s::model
