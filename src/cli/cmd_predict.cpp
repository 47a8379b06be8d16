// p3s predict: the whole pipeline from traced runs to a scaling report. Signature of every run,
// the SLT, then for every target N (and every traced n, to hold the prediction against the
// runs) the ST4NP, its consistency check and its simulation; the report is a table, CSV, JSON
// and an SVG picture of the scaling curve.
#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/checked_trace.hpp"
#include "cli/commands.hpp"
#include "cli/model_inputs.hpp"
#include "cli/parse_options.hpp"
#include "cli/phase_cross_check.hpp"
#include "cli/process_counts.hpp"
#include "cli/replay_launch.hpp"
#include "cli/report_dir.hpp"
#include "cli/simulation_setup.hpp"
#include "cli/simulation_table.hpp"
#include "model/slt_json.hpp"
#include "model/slt_scaled_trace.hpp"
#include "report/phase_fits.hpp"
#include "report/report_files.hpp"
#include "report/scaling_plot.hpp"
#include "sim/simulate.hpp"
#include "ti_import/ti_rank_converter.hpp"

namespace p3s::cli {
namespace {
namespace po = boost::program_options;
namespace fs = std::filesystem;

// p3s predict's own files in a report directory, which --force replaces.
bool predict_file(const std::string& name) {
  for (const char* file :
       {"app.slt", "prediction.txt", "prediction.csv", "prediction.json", "scaling.svg"}) {
    if (name == file) return true;
  }
  return (name.starts_with("sim-") || name.starts_with("replay-")) && name.ends_with(".json");
}

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

void progress(const std::string& what) {
  fmt::print("{}\n", what);
  std::fflush(stdout);
}

}  // namespace

int run_predict(const Args& args) {
  std::vector<std::string> runs, measurable;
  std::string targets_text, out_dir, scaling = "strong", replay_launcher;
  double threshold = 0.01, efficiency = 0.5, tolerance = 0.10;
  bool carry = false, force = false, allow_incomplete = false;
  SimulationFlags flags;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help")(
      "runs", po::value(&runs)->multitoken()->required(),
      "traced run directories at several process counts")(
      "targets", po::value(&targets_text)->required(), "process counts to predict, e.g. 64,256")(
      "output,o", po::value(&out_dir)->required(), "report directory")(
      "measurable", po::value(&measurable)->multitoken(),
      "runs of a smaller workload: measurable points for the compute model")(
      "threshold", po::value(&threshold)->default_value(threshold),
      "relevance threshold of a phase (share of a rank's run)")(
      "carry-nearest", po::bool_switch(&carry),
      "carry the largest run's pattern for phases that are not modelled")(
      "force", po::bool_switch(&force), "replace the report files in a non-empty directory")(
      "allow-incomplete", po::bool_switch(&allow_incomplete),
      "use runs whose ranks did not all finish (aborted, killed) instead of refusing them")(
      "scaling", po::value(&scaling)->default_value(scaling),
      "strong (same problem on more processes) or weak (fixed work per process): how speedup "
      "and efficiency are defined; given, it also narrows the compute model (p3s model "
      "--scaling)")(
      "replay-launcher", po::value(&replay_launcher),
      "also replay every N on the real machine (the Synthetic Signature) with this launcher, "
      "e.g. \"mpirun -np 16 --hostfile H\": its PET beside the simulator's")(
      "efficiency", po::value(&efficiency)->default_value(efficiency),
      "strong scaling: name the largest N whose parallel efficiency stays at least this")(
      "tolerance", po::value(&tolerance)->default_value(tolerance),
      "with --replay-launcher: flag a phase whose PhaseETs differ by more than this fraction");
  add_simulation_flags(desc, flags);
  const auto parsed = parse_options(
      args, desc,
      "usage: p3s predict --runs RUN... --targets N1,N2,... --platform P.xml -o REPORT/\n"
      "                   [--measurable RUN...] [--replay-launcher \"mpirun -np R\"]\n"
      "                   [simulation options]\n\n"
      "Runs signature, model, generate and simulate for every target N and every traced n,\n"
      "and writes REPORT/prediction.txt (the table, also printed), prediction.csv,\n"
      "prediction.json, scaling.svg (PET and speedup against N, with the traced runs and\n"
      "the ideal speedup), app.slt and sim-N.json per N.\n\n");
  if (!parsed) return 0;
  if (!(threshold >= 0 && threshold < 1)) throw UsageError("--threshold must be in [0, 1)");
  if (!(efficiency > 0 && efficiency <= 1)) throw UsageError("--efficiency must be in (0, 1]");
  if (!(tolerance > 0) || !std::isfinite(tolerance)) {
    throw UsageError("--tolerance must be a positive fraction (0.1: 10 %)");
  }
  if (scaling != "strong" && scaling != "weak") {
    throw UsageError(fmt::format("--scaling '{}' is neither strong nor weak", scaling));
  }
  const std::vector<std::int64_t> targets = parse_process_counts(targets_text, "--targets");
  sim::SimOptions options = simulation_options(flags);
  const fs::path dir(out_dir);
  check_report_dir(dir, force);
  const auto started = std::chrono::steady_clock::now();

  report::ScalingPrediction prediction;
  prediction.platform = fs::path(flags.platform).filename().string();
  prediction.mode = std::string(sim::mode_name(options.mode));
  prediction.weak_scaling = scaling == "weak";
  prediction.min_efficiency = efficiency;
  prediction.tolerance = tolerance;
  ModelRequest request;
  request.threshold = threshold;
  // Declared, the scaling also shapes the compute model; by default only the speedup's.
  if (!(*parsed)["scaling"].defaulted()) request.scaling = model::work_scaling_from_name(scaling);
  request.allow_incomplete = allow_incomplete;
  std::set<std::int64_t> traced;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    progress(fmt::format("[signature {}/{}] {}", i + 1, runs.size(), runs[i]));
    request.training.push_back(signature_of(runs[i]));
    const signature::Signature& sig = request.training.back();
    traced.insert(sig.run.nprocs);
    if (sig.run.wall_clock == ti_import::kTiWallClock) {
      // An imported SMPI trace holds no communication times: its AET is compute only.
      prediction.warnings.push_back(fmt::format(
          "{}: imported from SMPI, its wall clock is synthetic (compute only): no measured time "
          "to compare with",
          runs[i]));
      continue;
    }
    prediction.measured.push_back(
        {sig.run.nprocs, static_cast<double>(sig.aet_ns) * 1e-9, runs[i]});
  }
  for (const std::string& run : measurable) {
    progress(fmt::format("[signature] measurable run {}", run));
    request.measurable.push_back(signature_of(run));
  }
  std::sort(prediction.measured.begin(), prediction.measured.end(),
            [](const auto& a, const auto& b) { return a.n < b.n; });

  progress(fmt::format("[model] {} runs at n = {}", runs.size(),
                       fmt::join(traced.begin(), traced.end(), ", ")));
  const model::Slt slt = build_model(request).slt;
  if (slt.phases.empty()) {
    // Nothing to simulate: every N would come out as PET = 0.
    fmt::print(stderr,
               "p3s predict: error: no phase of the training runs is relevant (weight x time at "
               "least {} of a run), so there is nothing to predict. Runs imported from SMPI keep "
               "only compute time (their MPI calls last 0 ns): a run that only communicates has "
               "no time to judge relevance by.\n",
               threshold);
    return 1;
  }
  prepare_report_dir(dir, force, predict_file);
  model::write_slt(dir / "app.slt", slt);
  prediction.application = slt.application;
  prediction.fits = report::phase_fits(slt);
  prediction.not_modelled = report::not_modelled(slt);
  prediction.coverage = report::coverage_lines(slt);

  std::set<std::int64_t> all(targets.begin(), targets.end());
  all.insert(traced.begin(), traced.end());
  std::size_t step = 0;
  for (const std::int64_t n : all) {
    ++step;
    const std::string where = fmt::format("[N = {}, {}/{}]", n, step, all.size());
    const std::unique_ptr<model::SltScaledTrace> trace = checked_trace(
        slt, n, carry, prediction.warnings,
        [&](const std::string& what) { progress(fmt::format("{} {}", where, what)); });
    if (!trace) continue;
    options.progress = [&](std::string_view what) {
      progress(fmt::format("{}   {}", where, what));
    };
    const sim::SimResult result = sim::simulate(*trace, options);
    if (const auto problem = unusable_pet(result, *trace)) {
      prediction.warnings.push_back(*problem);
      progress(fmt::format("{} refused: PET = {}", where, result.pet));
      continue;
    }
    report::write_text(
        dir / fmt::format("sim-{}.json", n),
        simulation_json(result, (dir / "app.slt").string(), trace->warnings()).dump(2) + "\n");
    report::PredictedPoint point;
    point.n = n;
    point.traced = traced.contains(n);
    point.pet_seconds = result.pet;
    point.events = result.cost.events;
    point.sim_wall_seconds = result.cost.wall_seconds;
    point.covered = covered_share(slt, *trace, n);
    for (const model::OmittedPhase& o : trace->omitted()) {
      point.omitted.push_back(fmt::format("{}: {}", o.name, o.reason));
      prediction.warnings.push_back(
          fmt::format("N = {}: {} LEFT OUT of the prediction: {}", n, o.name, o.reason));
    }
    progress(fmt::format("{} PET {:.6g} s ({} events simulated in {:.1f} s)", where, result.pet,
                         result.cost.events, result.cost.wall_seconds));
    if (!replay_launcher.empty()) {
      progress(fmt::format("{} replaying on the real machine: {}", where, replay_launcher));
      ReplayLaunch launch{replay_launcher,
                          dir / "app.slt",
                          static_cast<int>(n),
                          dir / fmt::format("replay-{}.json", n),
                          {"--partial", "--force"}};
      if (carry) launch.extra.push_back("--carry-nearest");
      try {
        const replay::ReplayResult replayed = launch_replay(launch);
        point.replay_pet_seconds = replayed.pet;
        point.phase_checks = cross_check_phases(*trace, result, replayed, tolerance);
        for (const report::PhaseCheck& c : point.phase_checks) {
          if (c.flagged) {
            progress(fmt::format("{} FLAGGED {}: replayed {:+.1f} % against simulated; {}", where,
                                 c.name, c.difference_pct(), c.cause));
          }
        }
        progress(fmt::format("{} replayed PET {:.6g} s", where, *point.replay_pet_seconds));
      } catch (const std::runtime_error& e) {
        prediction.warnings.push_back(fmt::format("N = {} not replayed: {}", n, e.what()));
        progress(fmt::format("{} NOT REPLAYED: {}", where, e.what()));
      }
    }
    prediction.points.push_back(std::move(point));
  }
  if (prediction.points.empty()) {
    fmt::print(stderr, "p3s predict: no process count could be predicted\n");
    for (const std::string& w : prediction.warnings) fmt::print(stderr, "  {}\n", w);
    return 1;
  }
  const bool any_target = std::any_of(targets.begin(), targets.end(), [&](std::int64_t n) {
    return std::any_of(prediction.points.begin(), prediction.points.end(),
                       [n](const report::PredictedPoint& p) { return p.n == n; });
  });

  write_report(
      dir, "prediction", "scaling.svg",
      {report::prediction_table(prediction), report::prediction_csv(prediction),
       report::prediction_json(prediction).dump(2) + "\n", report::scaling_plot_svg(prediction)},
      started);
  if (!any_target) {
    fmt::print(stderr,
               "p3s predict: none of the targets ({}) could be predicted; see the "
               "warnings above\n",
               fmt::join(targets, ","));
    return 1;
  }
  return 0;
}

}  // namespace p3s::cli
