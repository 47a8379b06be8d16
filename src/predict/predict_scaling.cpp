#include "predict/predict_scaling.hpp"

#include <fmt/core.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <utility>

#include "core/process_pool.hpp"
#include "core/request_error.hpp"
#include "core/trace_format.hpp"
#include "model/slt_json.hpp"
#include "model/slt_scaled_trace.hpp"
#include "predict/checked_trace.hpp"
#include "predict/phase_cross_check.hpp"
#include "predict/prediction_interval.hpp"
#include "predict/replay_launch.hpp"
#include "predict/shell_command.hpp"
#include "predict/simulation_job.hpp"
#include "predict/simulation_json.hpp"
#include "report/phase_fits.hpp"
#include "report/report_files.hpp"
#include "sim/simulate.hpp"

namespace p3s::predict {
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
    std::vector<std::string> not_held, guessed;
    for (const replay::PhaseResult& ph : replayed.phases) {
      if (const auto verdict = replay_verdict(ph))
        (verdict->lower_bound ? not_held : guessed).push_back(ph.name);
    }
    // A phase the replay gave a verdict on makes its PET a bound or a guess: no interval.
    if (not_held.empty() && guessed.empty() && bounds)
      point.replay_interval = replayed_interval(replayed);
    if (!not_held.empty()) {
      warnings.push_back(fmt::format(
          "N = {}: the replay does not hold {} at its R (replay-{}.json says why): its PET is "
          "a lower bound, without an interval",
          point.n, fmt::join(not_held, ", "), point.n));
    }
    if (!guessed.empty()) {
      warnings.push_back(fmt::format(
          "N = {}: the replay's collective time at N is a guess in {} (its fits miss their own "
          "measurements, replay-{}.json says which): its PET has no interval",
          point.n, fmt::join(guessed, ", "), point.n));
    }
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

// What one N gives: its point, none when it could not be simulated, and its warnings.
struct PointOutcome {
  std::optional<report::PredictedPoint> point;
  std::vector<std::string> warnings;
};

std::string point_label(const std::vector<std::int64_t>& counts, std::size_t i) {
  return fmt::format("[N = {}, {}/{}]", counts[i], i + 1, counts.size());
}

// A simulated point as a child process sends it back (run_in_processes): everything but the
// replay's fields, which are never filled there (a replay runs the points one at a time, here).
nlohmann::json outcome_to_json(const PointOutcome& outcome) {
  nlohmann::json j;
  j["warnings"] = outcome.warnings;
  if (const auto& p = outcome.point) {
    j["point"] = {{"n", p->n},
                  {"traced", p->traced},
                  {"pet_seconds", p->pet_seconds},
                  {"events", p->events},
                  {"sim_wall_seconds", p->sim_wall_seconds},
                  {"covered", p->covered},
                  {"omitted", p->omitted}};
    if (p->pet_interval) {
      j["point"]["pet_interval"] = {p->pet_interval->low, p->pet_interval->high};
    }
  }
  return j;
}

PointOutcome outcome_from_json(const nlohmann::json& j) {
  PointOutcome outcome;
  outcome.warnings = j.at("warnings").get<std::vector<std::string>>();
  if (!j.contains("point")) return outcome;
  const nlohmann::json& in = j.at("point");
  report::PredictedPoint& p = outcome.point.emplace();
  p.n = in.at("n").get<std::int64_t>();
  p.traced = in.at("traced").get<bool>();
  p.pet_seconds = in.at("pet_seconds").get<double>();
  p.events = in.at("events").get<std::int64_t>();
  p.sim_wall_seconds = in.at("sim_wall_seconds").get<double>();
  p.covered = in.at("covered").get<double>();
  p.omitted = in.at("omitted").get<std::vector<std::string>>();
  if (in.contains("pet_interval")) {
    p.pet_interval = report::Interval{in.at("pet_interval")[0].get<double>(),
                                      in.at("pet_interval")[1].get<double>()};
  }
  return outcome;
}

// The ST4NP at n, its check and its simulation: the point, none when it cannot be simulated
// (then `trace` may be null), with the trace and the result kept for what follows.
PointOutcome simulate_point(const PredictionRequest& request, const model::Slt& slt, std::int64_t n,
                            bool traced, const std::string& where,
                            std::unique_ptr<model::SltScaledTrace>& trace, sim::SimResult& result) {
  PointOutcome out;
  trace = checked_trace(slt, n, request.policy, out.warnings, [&](const std::string& what) {
    request.progress(fmt::format("{} {}", where, what));
  });
  if (!trace) return out;
  sim::SimOptions options = request.simulation;
  options.progress = [&](std::string_view what) {
    request.progress(fmt::format("{}   {}", where, what));
  };
  try {
    result = sim::simulate(*trace, options);
  } catch (const std::exception& e) {
    // One N the simulator cannot run is named; the others are still predicted.
    out.warnings.push_back(
        fmt::format("N = {} not predicted: the simulation failed: {}", n, e.what()));
    request.progress(fmt::format("{} FAILED: {}", where, e.what()));
    return out;
  }
  if (const auto problem = unusable_pet(result, *trace)) {
    out.warnings.push_back(*problem);
    request.progress(fmt::format("{} refused: PET = {}", where, result.pet));
    return out;
  }
  report::write_text(
      request.dir / fmt::format("sim-{}.json", n),
      simulation_json(result, (request.dir / "app.slt").string(), trace->warnings()).dump(2) +
          "\n");
  report::PredictedPoint& point = out.point.emplace();
  point.n = n;
  point.traced = traced;
  point.pet_seconds = result.pet;
  point.events = result.cost.events;
  point.sim_wall_seconds = result.cost.wall_seconds;
  point.covered = covered_share(slt, *trace, n);
  for (const model::OmittedPhase& o : trace->omitted()) {
    point.omitted.push_back(fmt::format("{}: {}", o.name, o.reason));
  }
  request.progress(fmt::format("{} PET {:.6g} s ({} events simulated in {:.1f} s)", where,
                               result.pet, result.cost.events, result.cost.wall_seconds));
  return out;
}

void report_interval(const PredictionRequest& request, const std::string& where,
                     const report::PredictedPoint& point) {
  if (point.pet_interval) {
    request.progress(fmt::format("{} PET between {:.6g} and {:.6g} s", where,
                                 point.pet_interval->low, point.pet_interval->high));
  }
}

// One N after another, here: its simulation, its interval and, when asked, its replay.
std::vector<PointOutcome> predict_one_by_one(const PredictionRequest& request,
                                             const model::Slt& slt,
                                             const std::vector<std::int64_t>& counts,
                                             const std::set<std::int64_t>& traced) {
  std::vector<PointOutcome> outcomes;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const std::string where = point_label(counts, i);
    std::unique_ptr<model::SltScaledTrace> trace;
    sim::SimResult result;
    PointOutcome& out = outcomes.emplace_back(
        simulate_point(request, slt, counts[i], traced.contains(counts[i]), where, trace, result));
    if (!out.point) continue;
    if (request.interval) {
      request.progress(fmt::format("{} simulating the model's low and high bounds", where));
      sim::SimOptions options = request.simulation;
      options.progress = nullptr;
      out.point->pet_interval =
          simulated_interval(slt, counts[i], request.interval_level, request.policy, options,
                             phase_names(*trace), out.warnings);
      report_interval(request, where, *out.point);
    }
    if (!request.replay_launcher.empty()) {
      replay_point(request, *trace, result, request.interval, where, *out.point, out.warnings);
    }
  }
  return outcomes;
}

// One simulation of the side-by-side path: an N's own, or its PET at one end of the bands.
struct SimulationTask {
  std::size_t point = 0;                 // index into the N
  std::optional<model::FitBound> bound;  // none: the nominal simulation
};

// A bound's PET at N and its warnings, as its child process sends them back.
std::string bound_text(const PredictionRequest& request, const model::Slt& slt, std::int64_t n,
                       model::FitBound bound) {
  BoundPet out;
  try {
    const generate::Instantiation nominal = generate::instantiate(slt, n, request.policy);
    sim::SimOptions options = request.simulation;
    options.progress = nullptr;
    out = simulated_bound(slt, bound, n, request.interval_level, request.policy, options,
                          phase_names(*nominal.trace));
  } catch (const generate::Refusal&) {
    // The nominal simulation says why N is not predicted; its bounds are not used.
  }
  nlohmann::json j = {{"warnings", out.warnings}};
  if (out.pet) j["pet"] = *out.pet;
  return j.dump();
}

BoundPet bound_from_json(const nlohmann::json& j) {
  BoundPet bound;
  bound.warnings = j.at("warnings").get<std::vector<std::string>>();
  if (j.contains("pet")) bound.pet = j.at("pet").get<double>();
  return bound;
}

// Every simulation the points need, largest N first (the longest: started last, one would run
// alone): each N's own and, with an interval, its low and high bound.
std::vector<SimulationTask> simulation_tasks(const PredictionRequest& request,
                                             const std::vector<std::int64_t>& counts) {
  std::vector<SimulationTask> tasks;
  for (std::size_t i = counts.size(); i-- > 0;) {
    tasks.push_back({i, std::nullopt});
    if (!request.interval) continue;
    tasks.push_back({i, model::FitBound::Low});
    tasks.push_back({i, model::FitBound::High});
  }
  return tasks;
}

// One simulation's result, as text (a child process or a job sends it back).
std::string task_result(const PredictionRequest& request, const model::Slt& slt,
                        const std::vector<std::int64_t>& counts,
                        const std::set<std::int64_t>& traced, const SimulationTask& t) {
  const std::int64_t n = counts[t.point];
  if (t.bound) return bound_text(request, slt, n, *t.bound);
  std::unique_ptr<model::SltScaledTrace> trace;
  sim::SimResult result;
  return outcome_to_json(simulate_point(request, slt, n, traced.contains(n),
                                        point_label(counts, t.point), trace, result))
      .dump();
}

// Simulation k as a job of its own through the user's launcher (predict/simulation_job.hpp).
std::string launched_task(const PredictionRequest& request, std::size_t k,
                          const std::string& where) {
  request.progress(fmt::format("{} simulation {} as a job: {}", where, k, request.sim_launcher));
  return run_simulation_job(request.sim_launcher, request.job_command(k), k);
}

// Every simulation at every N side by side, `jobs` at a time, each in a process of its own (or
// a job through the launcher); combined as predict_one_by_one would.
std::vector<PointOutcome> predict_side_by_side(const PredictionRequest& request,
                                               const model::Slt& slt,
                                               const std::vector<std::int64_t>& counts,
                                               const std::set<std::int64_t>& traced,
                                               std::size_t jobs) {
  const std::vector<SimulationTask> tasks = simulation_tasks(request, counts);
  request.progress(fmt::format("[simulations] {} N, {} simulations, {} at a time", counts.size(),
                               tasks.size(), std::min(jobs, tasks.size())));
  const std::vector<std::string> texts =
      core::run_in_processes(tasks.size(), jobs, [&](std::size_t k) {
        return request.sim_launcher.empty()
                   ? task_result(request, slt, counts, traced, tasks[k])
                   : launched_task(request, k, point_label(counts, tasks[k].point));
      });
  std::vector<PointOutcome> outcomes(counts.size());
  std::vector<BoundPet> low(counts.size()), high(counts.size());
  for (std::size_t k = 0; k < tasks.size(); ++k) {
    const SimulationTask& t = tasks[k];
    const nlohmann::json j = nlohmann::json::parse(texts[k]);
    if (!t.bound) {
      outcomes[t.point] = outcome_from_json(j);
    } else {
      (*t.bound == model::FitBound::Low ? low : high)[t.point] = bound_from_json(j);
    }
  }
  if (!request.interval) return outcomes;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    PointOutcome& out = outcomes[i];
    // An N's bounds count only where its own simulation stands.
    if (!out.point) continue;
    out.point->pet_interval = interval_of(low[i], high[i], out.warnings);
    report_interval(request, point_label(counts, i), *out.point);
  }
  return outcomes;
}

}  // namespace

report::ScalingPrediction predict_scaling(PredictionRequest request) {
  if (!request.progress) request.progress = [](const std::string&) {};
  report::ScalingPrediction prediction;
  prediction.platform = request.platform_name;
  prediction.mode = std::string(sim::mode_name(request.simulation.mode));
  prediction.engine = std::string(sim::engine_name(request.simulation.engine));
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
  std::set<std::int64_t> all(request.targets.begin(), request.targets.end());
  all.insert(traced.begin(), traced.end());
  const std::vector<std::int64_t> counts(all.begin(), all.end());
  if (request.only_task) {
    const std::vector<SimulationTask> tasks = simulation_tasks(request, counts);
    if (*request.only_task >= tasks.size()) {
      throw core::RequestError(fmt::format("there is no simulation task {}: the plan has {}",
                                           *request.only_task, tasks.size()));
    }
    request.task_result(task_result(request, slt, counts, traced, tasks[*request.only_task]));
    return prediction;
  }
  if (request.prepare_dir) request.prepare_dir();
  model::write_slt(request.dir / "app.slt", slt);
  prediction.application = slt.application;
  prediction.fits = report::phase_fits(slt);
  prediction.not_modelled = report::not_modelled(slt);
  prediction.coverage = report::coverage_lines(slt);

  if (const auto warning = sim::smpi_collectives_warning(request.simulation))
    prediction.warnings.push_back(*warning);
  prediction.interval = request.interval ? "fits" : "";
  prediction.interval_level = request.interval_level;
  if (!request.replay_launcher.empty() && request.simulation.mode == sim::SimMode::Full) {
    prediction.warnings.push_back(
        "--full with --replay-launcher: the replayed PETs are beside the simulated ones, but no "
        "phase is cross-checked: --full simulates the run whole, with no PhaseET to set the "
        "replay's against (drop --full to cross-check)");
  }
  // A replay holds the machine, so the points are then predicted one after another, here.
  const std::size_t jobs = request.replay_launcher.empty() ? request.jobs : 1;
  const std::vector<PointOutcome> outcomes =
      jobs <= 1 && request.sim_launcher.empty()
          ? predict_one_by_one(request, slt, counts, traced)
          : predict_side_by_side(request, slt, counts, traced, jobs);
  for (const PointOutcome& outcome : outcomes) {
    prediction.warnings.insert(prediction.warnings.end(), outcome.warnings.begin(),
                               outcome.warnings.end());
    if (outcome.point) prediction.points.push_back(*outcome.point);
  }
  return prediction;
}

}  // namespace p3s::predict
