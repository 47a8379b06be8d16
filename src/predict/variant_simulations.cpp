#include "predict/variant_simulations.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "core/process_pool.hpp"
#include "core/request_error.hpp"
#include "model/slt_scaled_trace.hpp"
#include "predict/checked_trace.hpp"
#include "predict/simulation_job.hpp"
#include "predict/simulation_json.hpp"
#include "report/report_files.hpp"
#include "sim/simulate.hpp"

namespace p3s::predict {
namespace {

// What one N gives on every variant: its points and the warnings of those it has none for.
struct NOutcome {
  std::vector<report::WhatifPoint> points;
  std::vector<std::string> warnings;
};

// Simulates the trace at `n` on variant `v`: its point, or a warning saying why there is none.
void predict_variant(const VariantSimulations& run, const model::SltScaledTrace& trace,
                     std::int64_t n, const report::WhatifVariant& variant, std::size_t v,
                     NOutcome& out) {
  const std::string where = fmt::format("[N = {}, {}]", n, variant.id);
  sim::SimOptions options = run.simulation;
  options.platform = variant.platform;
  options.cpu_speedup = variant.cpu_speedup;
  options.progress = [&](std::string_view what) {
    run.progress(fmt::format("{}   {}", where, what));
  };
  sim::SimResult result;
  try {
    result = sim::simulate(trace, options);
  } catch (const std::runtime_error& e) {
    out.warnings.push_back(fmt::format("N = {} on {} ({}) not predicted: the simulation failed: {}",
                                       n, variant.id, variant.name, e.what()));
    run.progress(fmt::format("{} FAILED: {}", where, e.what()));
    return;
  } catch (const std::invalid_argument& e) {
    out.warnings.push_back(
        fmt::format("N = {} on {} ({}) not predicted: {}", n, variant.id, variant.name, e.what()));
    run.progress(fmt::format("{} FAILED: {}", where, e.what()));
    return;
  }
  if (const auto problem = unusable_pet(result, trace)) {
    out.warnings.push_back(fmt::format("{} ({})", *problem, variant.id));
    run.progress(fmt::format("{} refused: PET = {}", where, result.pet));
    return;
  }
  report::write_text(run.dir / fmt::format("sim-{}-{}.json", variant.id, n),
                     simulation_json(result, run.slt_file, trace.warnings()).dump(2) + "\n");
  out.points.push_back({v, n, result.pet, result.cost.events, result.cost.wall_seconds});
  run.progress(fmt::format("{} PET {:.6g} s ({} events simulated in {:.1f} s)", where, result.pet,
                           result.cost.events, result.cost.wall_seconds));
}

// Every variant at n.
NOutcome predict_n(const VariantSimulations& run, const model::Slt& slt,
                   const std::vector<report::WhatifVariant>& variants, std::int64_t n) {
  NOutcome out;
  const std::string at = fmt::format("[N = {}]", n);
  const auto trace = checked_trace(slt, n, run.policy, out.warnings, [&](const std::string& what) {
    run.progress(fmt::format("{} {}", at, what));
  });
  if (!trace) return out;
  for (std::size_t v = 0; v < variants.size(); ++v) {
    predict_variant(run, *trace, n, variants[v], v, out);
  }
  return out;
}

// An N's outcome as its child process sends it back (core/process_pool.hpp).
nlohmann::json outcome_to_json(const NOutcome& outcome) {
  nlohmann::json points = nlohmann::json::array();
  for (const report::WhatifPoint& p : outcome.points) {
    points.push_back({p.variant, p.n, p.pet_seconds, p.events, p.sim_wall_seconds});
  }
  return {{"points", points}, {"warnings", outcome.warnings}};
}

NOutcome outcome_from_json(const nlohmann::json& j) {
  NOutcome out;
  for (const nlohmann::json& p : j.at("points")) {
    out.points.push_back({p[0].get<std::size_t>(), p[1].get<std::int64_t>(), p[2].get<double>(),
                          p[3].get<std::int64_t>(), p[4].get<double>()});
  }
  out.warnings = j.at("warnings").get<std::vector<std::string>>();
  return out;
}

}  // namespace

void simulate_variants(const VariantSimulations& run, const model::Slt& slt,
                       report::WhatifPrediction& prediction) {
  const std::vector<std::int64_t>& ns = prediction.ns;
  if (const auto warning = sim::smpi_collectives_warning(run.simulation))
    prediction.warnings.push_back(*warning);
  if ((run.jobs > 1 || !run.sim_launcher.empty()) && ns.size() > 1) {
    run.progress(
        fmt::format("[simulations] {} N, {} at a time", ns.size(), std::min(run.jobs, ns.size())));
  }
  // Each N in a process of its own, `jobs` side by side (one job: here), or a job of its own.
  for (const std::string& text : core::run_in_processes(ns.size(), run.jobs, [&](std::size_t i) {
         if (run.sim_launcher.empty()) return variant_task(run, slt, prediction, i);
         run.progress(fmt::format("[N = {}] as a job: {}", ns[i], run.sim_launcher));
         return run_simulation_job(run.sim_launcher, run.job_command(i), i);
       })) {
    const NOutcome outcome = outcome_from_json(nlohmann::json::parse(text));
    prediction.points.insert(prediction.points.end(), outcome.points.begin(), outcome.points.end());
    prediction.warnings.insert(prediction.warnings.end(), outcome.warnings.begin(),
                               outcome.warnings.end());
  }
}

std::string variant_task(const VariantSimulations& run, const model::Slt& slt,
                         const report::WhatifPrediction& prediction, std::size_t task) {
  if (task >= prediction.ns.size()) {
    throw core::RequestError(
        fmt::format("there is no simulation task {}: the plan has {}", task, prediction.ns.size()));
  }
  return outcome_to_json(predict_n(run, slt, prediction.variants, prediction.ns[task])).dump();
}

}  // namespace p3s::predict
