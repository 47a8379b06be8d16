// p3s whatif: one model on the platforms a user is weighing. The SLT is instantiated at every
// N once and simulated on every platform variant (other platform files, links with more
// bandwidth or less latency, another topology, a faster CPU); the report is a table of the PETs
// with each variant's speedup over the first, CSV, JSON and one picture of the curves. The
// simulations themselves are predict::simulate_variants (predict/variant_simulations.hpp).
#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <filesystem>

#include "cli/commands.hpp"
#include "cli/instantiation_flags.hpp"
#include "cli/parse_options.hpp"
#include "cli/platform_variant_flags.hpp"
#include "cli/process_counts.hpp"
#include "cli/report_dir.hpp"
#include "cli/simulation_jobs.hpp"
#include "cli/simulation_setup.hpp"
#include "core/process_pool.hpp"
#include "model/slt_json.hpp"
#include "predict/platform_variants.hpp"
#include "predict/simulation_job.hpp"
#include "predict/variant_simulations.hpp"
#include "report/report_files.hpp"
#include "report/whatif_plot.hpp"
#include "report/whatif_report.hpp"
#include "sim/platform_spec.hpp"
#include "sim/sim_options.hpp"

namespace p3s::cli {
namespace {
namespace po = boost::program_options;
namespace fs = std::filesystem;

// p3s whatif's own files in a report directory, which --force replaces.
bool whatif_file(const std::string& name) {
  for (const char* file : {"whatif.txt", "whatif.csv", "whatif.json", "whatif.svg"}) {
    if (name == file) return true;
  }
  return (name.starts_with("sim-v") && name.ends_with(".json")) ||
         (name.starts_with("platform-v") && name.ends_with(".xml"));
}

void progress(const std::string& what) {
  fmt::print("{}\n", what);
  std::fflush(stdout);
}

// What --cpu-speedup, --bandwidth, --latency and --topology say, as written.
struct VariantTexts {
  std::string speedups, bandwidths, latencies, topologies;
};

// The platforms (files, each once) and the changes asked of them, parsed.
predict::VariantRequest variant_request(const std::vector<std::string>& platforms,
                                        const VariantTexts& texts) {
  predict::VariantRequest request;
  for (const std::string& p : platforms) {
    if (!fs::is_regular_file(p)) throw UsageError(fmt::format("--platform: no file '{}'", p));
    for (const std::string& seen : request.platforms) {
      if (fs::equivalent(seen, p)) {
        throw UsageError(fmt::format("--platform {} is given twice (as {})", p, seen));
      }
    }
    request.platforms.push_back(p);
  }
  if (!texts.speedups.empty()) request.cpu_speedups = parse_cpu_speedups(texts.speedups);
  if (!texts.bandwidths.empty())
    request.bandwidths = parse_scale_factors(texts.bandwidths, "--bandwidth");
  if (!texts.latencies.empty())
    request.latencies = parse_scale_factors(texts.latencies, "--latency");
  if (!texts.topologies.empty()) request.topologies = parse_topologies(texts.topologies);
  return request;
}

}  // namespace

int run_whatif(const Args& args) {
  std::string slt_file, counts_text, out_dir, speedups_text, bandwidth_text, latency_text,
      topology_text;
  std::vector<std::string> platforms;
  double efficiency = 0.5;
  bool force = false;
  std::size_t jobs = core::available_cores();
  SimulationJobFlags job;
  InstantiationFlags instantiation;
  SimulationFlags flags;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help")("slt", po::value(&slt_file)->required(),
                                                 "the model (app.slt)")(
      "nprocs,n", po::value(&counts_text)->required(), "process counts, e.g. 1024,4096")(
      "platform", po::value(&platforms)->composing()->required(),
      "a SimGrid platform file (repeatable): each is a variant, and the base of the changes")(
      "cpu-speedup", po::value(&speedups_text),
      "CPUs this many times faster than the traced machine's, e.g. 1,2")(
      "bandwidth", po::value(&bandwidth_text),
      "every network link's bandwidth times (x2) or divided by (/2) these factors, e.g. x2,x4")(
      "latency", po::value(&latency_text),
      "every network link's latency times or divided by, e.g. /2")(
      "topology", po::value(&topology_text),
      "the same hosts and links in these topologies: flat, fat-tree, torus, dragonfly")(
      "output,o", po::value(&out_dir)->required(), "report directory")(
      "force", po::bool_switch(&force), "replace the report files in a non-empty directory")(
      "efficiency", po::value(&efficiency)->default_value(efficiency),
      "strong scaling: name the largest N whose parallel efficiency stays at least this")(
      "jobs,j", po::value(&jobs)->default_value(jobs),
      "simulate this many N side by side, each in a process of its own (default: the cores "
      "this process may use); the results are those of one at a time");
  add_simulation_job_flags(desc, job, "every N (on every variant)");
  add_instantiation_flags(desc, instantiation);
  add_engine_flags(desc, flags);
  po::positional_options_description pos;
  pos.add("slt", 1);
  const auto parsed = parse_options(
      args, desc,
      "usage: p3s whatif app.slt -n N1,N2,... --platform A.xml [--platform B.xml ...]\n"
      "                  [--cpu-speedup 1,2] [--bandwidth x2] [--latency /2]\n"
      "                  [--topology fat-tree,torus,dragonfly] -o REPORT/ [simulation options]\n"
      "                  [--jobs J] [--sim-launcher \"srun -N1 -n1\"]\n"
      "                  [--partial] [--accept-ambiguous] [--carry-nearest]\n\n"
      "Simulates the model at every N on every combination of the platforms and the changes\n"
      "asked; each change starts from the platform as given, so the first variant (v1) is the\n"
      "first platform unchanged. --bandwidth, --latency and --topology rewrite a platform\n"
      "through the platform writer, and so need one as `p3s platform` or `p3s calibrate`\n"
      "writes it (one <cluster>); --cpu-speedup applies to any platform. Writes\n"
      "REPORT/whatif.txt (the table, also printed), whatif.csv, whatif.json, whatif.svg\n"
      "(PET against N, a curve per variant), platform-vK.xml for each changed platform and\n"
      "sim-vK-N.json per simulation.\n\n",
      pos);
  if (!parsed) return 0;
  const std::vector<std::int64_t> counts = parse_process_counts(counts_text, "-n");
  if (!(efficiency > 0 && efficiency <= 1)) throw UsageError("--efficiency must be in (0, 1]");
  if (jobs < 1) throw UsageError("--jobs must be at least 1");
  const predict::VariantRequest request =
      variant_request(platforms, {speedups_text, bandwidth_text, latency_text, topology_text});
  flags.platform = request.platforms.front();
  const sim::SimOptions engine = simulation_options(flags);  // checks the engine flags
  const fs::path dir(out_dir);
  const bool is_job = is_simulation_job(*parsed);
  if (!is_job) check_report_dir(dir, force);
  const auto started = std::chrono::steady_clock::now();

  report::WhatifPrediction prediction;
  std::vector<predict::PlannedVariant> planned =
      predict::plan_variants(request, prediction.warnings);
  if (!is_job) {
    for (const std::string& w : prediction.warnings) progress(fmt::format("NOT BUILT: {}", w));
  }
  if (planned.empty()) {
    fmt::print(stderr, "p3s whatif: no platform variant could be built\n");
    return 1;
  }
  const model::Slt slt = model::read_slt(slt_file);
  prediction.application = slt.application;
  prediction.mode = std::string(sim::mode_name(engine.mode));
  prediction.engine = std::string(sim::engine_name(engine.engine));
  prediction.weak_scaling = slt.compute.scaling == model::WorkScaling::Weak;
  prediction.min_efficiency = efficiency;
  prediction.ns = counts;
  std::sort(prediction.ns.begin(), prediction.ns.end());
  prediction.ns.erase(std::unique(prediction.ns.begin(), prediction.ns.end()), prediction.ns.end());

  if (!is_job) prepare_report_dir(dir, force, whatif_file);
  for (predict::PlannedVariant& v : planned) {
    if (v.spec) {
      v.variant.platform = (dir / fmt::format("platform-{}.xml", v.variant.id)).string();
      // A job finds the changed platforms where the whatif that launched it wrote them.
      if (!is_job) sim::write_platform(*v.spec, v.variant.platform);
    }
    prediction.variants.push_back(v.variant);
    if (!is_job)
      progress(fmt::format("{}: {} ({})", v.variant.id, v.variant.name, v.variant.platform));
  }

  const predict::VariantSimulations run{
      dir,
      slt_file,
      engine,
      instantiation.policy(),
      jobs,
      job.launcher,
      [args](std::size_t i) { return predict::simulation_job_words("whatif", args, i); },
      is_job ? [](const std::string&) {} : progress};
  if (is_job) {
    print_task_result(predict::variant_task(run, slt, prediction, job.task));
    return 0;
  }
  predict::simulate_variants(run, slt, prediction);
  if (prediction.points.empty()) {
    fmt::print(stderr, "p3s whatif: nothing could be predicted\n");
    for (const std::string& w : prediction.warnings) fmt::print(stderr, "  {}\n", w);
    return 1;
  }
  write_report(
      dir, "whatif", "whatif.svg",
      {report::whatif_table(prediction), report::whatif_csv(prediction),
       report::whatif_json(prediction).dump(2) + "\n", report::whatif_plot_svg(prediction)},
      started);
  return 0;
}

}  // namespace p3s::cli
