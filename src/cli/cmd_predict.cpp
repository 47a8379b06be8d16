// p3s predict: the options of the whole pipeline from traced runs to a scaling report, and the
// report's files (a table, CSV, JSON and an SVG picture of the scaling curve). The pipeline
// itself is predict_scaling (predict/predict_scaling.hpp).
#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/instantiation_flags.hpp"
#include "cli/parse_options.hpp"
#include "cli/process_counts.hpp"
#include "cli/report_dir.hpp"
#include "cli/simulation_jobs.hpp"
#include "cli/simulation_setup.hpp"
#include "core/process_pool.hpp"
#include "predict/predict_scaling.hpp"
#include "predict/simulation_job.hpp"
#include "report/report_files.hpp"
#include "report/scaling_plot.hpp"

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

void progress(const std::string& what) {
  fmt::print("{}\n", what);
  std::fflush(stdout);
}

// The numeric options within their ranges; throws UsageError naming the first that is not.
void check_numbers(double threshold, double efficiency, double tolerance, double interval_level,
                   std::size_t jobs) {
  if (!(threshold >= 0 && threshold < 1)) throw UsageError("--threshold must be in [0, 1)");
  if (!(efficiency > 0 && efficiency <= 1)) throw UsageError("--efficiency must be in (0, 1]");
  if (!(tolerance > 0) || !std::isfinite(tolerance)) {
    throw UsageError("--tolerance must be a positive fraction (0.1: 10 %)");
  }
  if (!(interval_level > 0 && interval_level < 1)) {
    throw UsageError("--interval-level must be in (0, 1), e.g. 0.9");
  }
  if (jobs < 1) throw UsageError("--jobs must be at least 1");
}

// A job of --sim-launcher: one simulation of the plan, its result on stdout after the mark;
// nothing else printed (the launching p3s prints the progress and the warnings).
int run_simulation_task(predict::PredictionRequest request, std::size_t task) {
  request.only_task = task;
  request.progress = [](const std::string&) {};
  request.model.warning = [](const std::string&) {};
  request.task_result = print_task_result;
  predict::predict_scaling(std::move(request));
  return 0;
}

}  // namespace

int run_predict(const Args& args) {
  std::vector<std::string> runs, measurable;
  std::string targets_text, out_dir, scaling = "strong", replay_launcher, interval = "fits";
  SimulationJobFlags job;
  double threshold = 0.01, efficiency = 0.5, tolerance = 0.10, interval_level = 0.9;
  bool force = false, allow_incomplete = false;
  std::size_t jobs = core::available_cores();
  InstantiationFlags instantiation;
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
      "with --replay-launcher: flag a phase whose PhaseETs differ by more than this fraction")(
      "interval", po::value(&interval)->default_value(interval),
      "fits: bound every PET by simulating the model with every weight, volume and compute fit "
      "at the low and at the high end of its predictive band at that N (two more simulations "
      "per N); none: no interval. Not with --carry-nearest (carried phases have no fits)")(
      "jobs,j", po::value(&jobs)->default_value(jobs),
      "run this many simulations side by side (an N's own and its interval's two), each in a "
      "process of its own (default: the cores this process may use); the results are those "
      "of one at a time. With --replay-launcher the N run one at a time (a replay holds the "
      "machine)")(
      "interval-level", po::value(&interval_level)->default_value(interval_level),
      "two-sided level of each fit's predictive band, in (0, 1): 0.9 puts 5 % of a fit's "
      "predictive distribution beyond each end (the PET interval's own coverage is measured, "
      "README)");
  add_simulation_job_flags(desc, job, "every simulation");
  add_instantiation_flags(desc, instantiation);
  add_simulation_flags(desc, flags);
  const auto parsed = parse_options(
      args, desc,
      "usage: p3s predict --runs RUN... --targets N1,N2,... --platform P.xml -o REPORT/\n"
      "                   [--measurable RUN...] [--replay-launcher \"mpirun -np R\"]\n"
      "                   [--jobs J] [--sim-launcher \"srun -N1 -n1\"]\n"
      "                   [--partial] [--accept-ambiguous] [--carry-nearest]\n"
      "                   [simulation options]\n\n"
      "Runs signature, model, generate and simulate for every target N and every traced n,\n"
      "and writes REPORT/prediction.txt (the table, also printed), prediction.csv,\n"
      "prediction.json, scaling.svg (PET and speedup against N, with the traced runs and\n"
      "the ideal speedup), app.slt and sim-N.json per N.\n\n");
  if (!parsed) return 0;
  check_numbers(threshold, efficiency, tolerance, interval_level, jobs);
  if (!job.launcher.empty() && !replay_launcher.empty()) {
    throw UsageError(
        "--sim-launcher with --replay-launcher: a replay holds the machine, so its N are "
        "simulated one after another, here; give one of them");
  }
  if (interval != "fits" && interval != "none") {
    throw UsageError(fmt::format("--interval '{}' is neither fits nor none", interval));
  }
  if (instantiation.carry_nearest && interval == "fits") {
    if (!(*parsed)["interval"].defaulted()) {
      throw UsageError(
          "--interval fits contradicts --carry-nearest: a carried phase has no fits, so its "
          "share of the PET would have no uncertainty (use --interval none)");
    }
    interval = "none";
  }
  if (scaling != "strong" && scaling != "weak") {
    throw UsageError(fmt::format("--scaling '{}' is neither strong nor weak", scaling));
  }
  const std::vector<std::int64_t> targets = parse_process_counts(targets_text, "--targets");
  predict::PredictionRequest request;
  request.runs = runs;
  request.measurable = measurable;
  request.targets = targets;
  request.simulation = simulation_options(flags);
  request.platform_name = fs::path(flags.platform).filename().string();
  request.weak_scaling = scaling == "weak";
  request.efficiency = efficiency;
  request.tolerance = tolerance;
  request.model.threshold = threshold;
  // Declared, the scaling also shapes the compute model; by default only the speedup's.
  if (!(*parsed)["scaling"].defaulted()) {
    request.model.scaling = model::work_scaling_from_name(scaling);
  }
  request.model.allow_incomplete = allow_incomplete;
  request.model.warning = print_warning;
  request.policy = instantiation.policy();
  request.interval = interval == "fits";
  request.interval_level = interval_level;
  request.replay_launcher = replay_launcher;
  request.jobs = jobs;
  request.dir = out_dir;
  request.sim_launcher = job.launcher;
  request.job_command = [args](std::size_t k) {
    return predict::simulation_job_words("predict", args, k);
  };
  if (is_simulation_job(*parsed)) return run_simulation_task(std::move(request), job.task);
  const fs::path dir(out_dir);
  check_report_dir(dir, force);
  request.prepare_dir = [&] { prepare_report_dir(dir, force, predict_file); };
  request.progress = progress;
  const auto started = std::chrono::steady_clock::now();
  report::ScalingPrediction prediction;
  try {
    prediction = predict::predict_scaling(std::move(request));
  } catch (const predict::NothingToPredict& e) {
    fmt::print(stderr, "p3s predict: error: {}\n", e.what());
    return 1;
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
