#include "cli/scaling_prediction_run.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include "cli/checked_trace.hpp"
#include "cli/phase_cross_check.hpp"
#include "cli/prediction_interval.hpp"
#include "cli/replay_launch.hpp"
#include "cli/simulation_table.hpp"
#include "core/trace_format.hpp"
#include "model/slt_json.hpp"
#include "model/slt_scaled_trace.hpp"
#include "report/phase_fits.hpp"
#include "report/report_files.hpp"
#include "sim/simulate.hpp"

namespace p3s::cli {
namespace {

// The share of a run's time the trace's phases stand for: in the training run at n when there
// is one, else in the largest.
double covered_share(const model::Slt& slt, const model::SltScaledTrace& trace, std::int64_t n) {
  const auto run = std::find(slt.runs.begin(), slt.runs.end(), n);
  const std::int64_t at = run != slt.runs.end() ? n : slt.runs.back();
  double covered = 0;
  for (const core::ScaledPhase& phase : trace.phases()) {
    for (const model::PhaseModel& p : slt.phases) {
      if (p.name != phase.name) continue;
      for (std::size_t i = 0; i < p.runs_n.size(); ++i) {
        if (p.runs_n[i] == at) covered += p.shares[i];
      }
    }
  }
  return covered;
}

// The training runs' signatures into the model request, their measured times into the report.
std::set<std::int64_t> read_training(PredictionRequest& request,
                                     report::ScalingPrediction& prediction) {
  std::set<std::int64_t> traced;
  for (std::size_t i = 0; i < request.runs.size(); ++i) {
    request.progress(
        fmt::format("[signature {}/{}] {}", i + 1, request.runs.size(), request.runs[i]));
    request.model.training.push_back(signature_of(request.runs[i]));
    const signature::Signature& sig = request.model.training.back();
    traced.insert(sig.run.nprocs);
    if (sig.run.wall_clock == core::kSyntheticWallClock) {
      // An imported SMPI trace holds no communication times: its AET is compute only.
      prediction.warnings.push_back(fmt::format(
          "{}: imported from SMPI, its wall clock is synthetic (compute only): no measured time "
          "to compare with",
          request.runs[i]));
      continue;
    }
    prediction.measured.push_back(
        {sig.run.nprocs, static_cast<double>(sig.aet_ns) * 1e-9, request.runs[i]});
  }
  for (const std::string& run : request.measurable) {
    request.progress(fmt::format("[signature] measurable run {}", run));
    request.model.measurable.push_back(signature_of(run));
  }
  std::sort(prediction.measured.begin(), prediction.measured.end(),
            [](const auto& a, const auto& b) { return a.n < b.n; });
  return traced;
}

// The Synthetic Signature at N beside the simulation: its PET, its interval, the per-phase
// cross-check. A replay that fails is named in the warnings and the point stays simulated only.
void replay_point(const PredictionRequest& request, const model::SltScaledTrace& trace,
                  const sim::SimResult& simulated, bool bounds, const std::string& where,
                  report::PredictedPoint& point, std::vector<std::string>& warnings) {
  request.progress(
      fmt::format("{} replaying on the real machine: {}", where, request.replay_launcher));
  ReplayLaunch launch{request.replay_launcher,
                      request.dir / "app.slt",
                      static_cast<int>(point.n),
                      request.dir / fmt::format("replay-{}.json", point.n),
                      {"--force"}};
  if (request.policy.carry_nearest) launch.extra.push_back("--carry-nearest");
  if (request.policy.partial) launch.extra.push_back("--partial");
  if (request.policy.accept_undecided) launch.extra.push_back("--accept-ambiguous");
  try {
    const replay::ReplayResult replayed = launch_replay(launch);
    point.replay_pet_seconds = replayed.pet;
    if (bounds) point.replay_interval = replayed_interval(replayed);
    point.phase_checks =
        cross_check_phases(trace, simulated, replayed, request.tolerance, request.simulation);
    for (const report::PhaseCheck& c : point.phase_checks) {
      if (c.flagged) {
        request.progress(fmt::format("{} FLAGGED {}: replayed {:+.1f} % against simulated; {}",
                                     where, c.name, c.difference_pct(), c.cause));
      }
    }
    request.progress(fmt::format("{} replayed PET {:.6g} s", where, *point.replay_pet_seconds));
  } catch (const std::runtime_error& e) {
    warnings.push_back(fmt::format("N = {} not replayed: {}", point.n, e.what()));
    request.progress(fmt::format("{} NOT REPLAYED: {}", where, e.what()));
  }
}

}  // namespace

report::ScalingPrediction predict_scaling(PredictionRequest request) {
  if (!request.progress) request.progress = [](const std::string&) {};
  report::ScalingPrediction prediction;
  prediction.platform = request.platform_name;
  prediction.mode = std::string(sim::mode_name(request.simulation.mode));
  prediction.weak_scaling = request.weak_scaling;
  prediction.min_efficiency = request.efficiency;
  prediction.tolerance = request.tolerance;
  const std::set<std::int64_t> traced = read_training(request, prediction);

  request.progress(fmt::format("[model] {} runs at n = {}", request.runs.size(),
                               fmt::join(traced.begin(), traced.end(), ", ")));
  const model::Slt slt = build_model(request.model).slt;
  if (slt.phases.empty()) {
    // Nothing to simulate: every N would come out as PET = 0.
    throw NothingToPredict(fmt::format(
        "no phase of the training runs is relevant (weight x time at least {} of a run), so "
        "there is nothing to predict",
        request.model.threshold));
  }
  if (slt.compute.metric == "none") {
    // A run time without its compute would leave out what the runs could not measure.
    throw NothingToPredict(
        "the training runs have no time (communication-only SMPI runs: their MPI calls last 0 "
        "ns and nothing of compute was simulated): they model the communication pattern "
        "(p3s model, generate) but not a run time; predict from traced runs, or SMPI runs with "
        "declared flops");
  }
  if (request.prepare_dir) request.prepare_dir();
  model::write_slt(request.dir / "app.slt", slt);
  prediction.application = slt.application;
  prediction.fits = report::phase_fits(slt);
  prediction.not_modelled = report::not_modelled(slt);
  prediction.coverage = report::coverage_lines(slt);

  prediction.interval = request.interval ? "fits" : "";
  prediction.interval_level = request.interval_level;
  if (!request.replay_launcher.empty() && request.simulation.mode == sim::SimMode::Full) {
    prediction.warnings.push_back(
        "--full with --replay-launcher: the replayed PETs are beside the simulated ones, but no "
        "phase is cross-checked: --full simulates the run whole, with no PhaseET to set the "
        "replay's against (drop --full to cross-check)");
  }
  std::set<std::int64_t> all(request.targets.begin(), request.targets.end());
  all.insert(traced.begin(), traced.end());
  std::size_t step = 0;
  sim::SimOptions options = request.simulation;
  for (const std::int64_t n : all) {
    ++step;
    const std::string where = fmt::format("[N = {}, {}/{}]", n, step, all.size());
    const std::unique_ptr<model::SltScaledTrace> trace = checked_trace(
        slt, n, request.policy, prediction.warnings,
        [&](const std::string& what) { request.progress(fmt::format("{} {}", where, what)); });
    if (!trace) continue;
    options.progress = [&](std::string_view what) {
      request.progress(fmt::format("{}   {}", where, what));
    };
    const sim::SimResult result = sim::simulate(*trace, options);
    if (const auto problem = unusable_pet(result, *trace)) {
      prediction.warnings.push_back(*problem);
      request.progress(fmt::format("{} refused: PET = {}", where, result.pet));
      continue;
    }
    report::write_text(
        request.dir / fmt::format("sim-{}.json", n),
        simulation_json(result, (request.dir / "app.slt").string(), trace->warnings()).dump(2) +
            "\n");
    report::PredictedPoint point;
    point.n = n;
    point.traced = traced.contains(n);
    point.pet_seconds = result.pet;
    point.events = result.cost.events;
    point.sim_wall_seconds = result.cost.wall_seconds;
    point.covered = covered_share(slt, *trace, n);
    for (const model::OmittedPhase& o : trace->omitted()) {
      point.omitted.push_back(fmt::format("{}: {}", o.name, o.reason));
    }
    request.progress(fmt::format("{} PET {:.6g} s ({} events simulated in {:.1f} s)", where,
                                 result.pet, result.cost.events, result.cost.wall_seconds));
    if (request.interval) {
      request.progress(fmt::format("{} simulating the model's low and high bounds", where));
      std::vector<std::string> names;
      for (const core::ScaledPhase& phase : trace->phases()) names.push_back(phase.name);
      point.pet_interval = simulated_interval(slt, n, request.interval_level, request.policy,
                                              options, names, prediction.warnings);
      if (point.pet_interval) {
        request.progress(fmt::format("{} PET between {:.6g} and {:.6g} s", where,
                                     point.pet_interval->low, point.pet_interval->high));
      }
    }
    if (!request.replay_launcher.empty()) {
      replay_point(request, *trace, result, request.interval, where, point, prediction.warnings);
    }
    prediction.points.push_back(std::move(point));
  }
  return prediction;
}

}  // namespace p3s::cli
