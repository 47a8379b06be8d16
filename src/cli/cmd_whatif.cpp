// p3s whatif: one model on the platforms a user is weighing. The SLT is instantiated at every
// N once and simulated on every platform variant (other platform files, links with more
// bandwidth or less latency, another topology, a faster CPU); the report is a table of the PETs
// with each variant's speedup over the first, CSV, JSON and one picture of the curves.
#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "cli/commands.hpp"
#include "cli/instantiation_flags.hpp"
#include "cli/parse_options.hpp"
#include "cli/platform_variant_flags.hpp"
#include "cli/process_counts.hpp"
#include "cli/report_dir.hpp"
#include "cli/simulation_setup.hpp"
#include "cli/simulation_table.hpp"
#include "core/process_pool.hpp"
#include "model/slt_json.hpp"
#include "predict/checked_trace.hpp"
#include "predict/platform_variants.hpp"
#include "predict/simulation_json.hpp"
#include "report/report_files.hpp"
#include "report/whatif_plot.hpp"
#include "report/whatif_report.hpp"
#include "sim/simulate.hpp"

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

// What every simulation of one whatif run shares.
struct WhatifRun {
  fs::path dir;
  std::string slt_file;
  SimulationFlags flags;
};

// What one N gives on every variant: its points and the warnings of those it has none for.
struct NOutcome {
  std::vector<report::WhatifPoint> points;
  std::vector<std::string> warnings;
};

// Simulates the trace at `n` on variant `v`: its point, or a warning saying why there is none.
void predict_variant(const WhatifRun& run, const model::SltScaledTrace& trace, std::int64_t n,
                     const report::WhatifVariant& variant, std::size_t v, NOutcome& out) {
  const std::string where = fmt::format("[N = {}, {}]", n, variant.id);
  SimulationFlags point_flags = run.flags;
  point_flags.platform = variant.platform;
  point_flags.cpu_speedup = variant.cpu_speedup;
  sim::SimOptions options = simulation_options(point_flags);
  options.progress = [&](std::string_view what) { progress(fmt::format("{}   {}", where, what)); };
  sim::SimResult result;
  try {
    result = sim::simulate(trace, options);
  } catch (const std::runtime_error& e) {
    out.warnings.push_back(fmt::format("N = {} on {} ({}) not predicted: the simulation failed: {}",
                                       n, variant.id, variant.name, e.what()));
    progress(fmt::format("{} FAILED: {}", where, e.what()));
    return;
  } catch (const std::invalid_argument& e) {
    out.warnings.push_back(
        fmt::format("N = {} on {} ({}) not predicted: {}", n, variant.id, variant.name, e.what()));
    progress(fmt::format("{} FAILED: {}", where, e.what()));
    return;
  }
  if (const auto problem = predict::unusable_pet(result, trace)) {
    out.warnings.push_back(fmt::format("{} ({})", *problem, variant.id));
    progress(fmt::format("{} refused: PET = {}", where, result.pet));
    return;
  }
  report::write_text(
      run.dir / fmt::format("sim-{}-{}.json", variant.id, n),
      predict::simulation_json(result, run.slt_file, trace.warnings()).dump(2) + "\n");
  out.points.push_back({v, n, result.pet, result.cost.events, result.cost.wall_seconds});
  progress(fmt::format("{} PET {:.6g} s ({} events simulated in {:.1f} s)", where, result.pet,
                       result.cost.events, result.cost.wall_seconds));
}

// Every variant at n.
NOutcome predict_n(const WhatifRun& run, const model::Slt& slt, const generate::Policy& policy,
                   const std::vector<report::WhatifVariant>& variants, std::int64_t n) {
  NOutcome out;
  const std::string at = fmt::format("[N = {}]", n);
  const auto trace = predict::checked_trace(
      slt, n, policy, out.warnings,
      [&](const std::string& what) { progress(fmt::format("{} {}", at, what)); });
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

// Every N on every variant, `jobs` N side by side (each in a process of its own; one job: here).
std::vector<NOutcome> predict_all(const WhatifRun& run, const model::Slt& slt,
                                  const generate::Policy& policy,
                                  const report::WhatifPrediction& prediction, std::size_t jobs) {
  const std::vector<std::int64_t>& ns = prediction.ns;
  if (jobs > 1 && ns.size() > 1) {
    progress(fmt::format("[simulations] {} N, {} at a time", ns.size(), std::min(jobs, ns.size())));
  }
  std::vector<NOutcome> outcomes;
  for (const std::string& text : core::run_in_processes(ns.size(), jobs, [&](std::size_t i) {
         return outcome_to_json(predict_n(run, slt, policy, prediction.variants, ns[i])).dump();
       })) {
    outcomes.push_back(outcome_from_json(nlohmann::json::parse(text)));
  }
  return outcomes;
}

}  // namespace

int run_whatif(const Args& args) {
  std::string slt_file, counts_text, out_dir, speedups_text, bandwidth_text, latency_text,
      topology_text;
  std::vector<std::string> platforms;
  double efficiency = 0.5;
  bool force = false;
  std::size_t jobs = core::available_cores();
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
  add_instantiation_flags(desc, instantiation);
  add_engine_flags(desc, flags);
  po::positional_options_description pos;
  pos.add("slt", 1);
  const auto parsed = parse_options(
      args, desc,
      "usage: p3s whatif app.slt -n N1,N2,... --platform A.xml [--platform B.xml ...]\n"
      "                  [--cpu-speedup 1,2] [--bandwidth x2] [--latency /2]\n"
      "                  [--topology fat-tree,torus,dragonfly] -o REPORT/ [simulation options]\n"
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
  check_report_dir(dir, force);
  const auto started = std::chrono::steady_clock::now();

  report::WhatifPrediction prediction;
  std::vector<predict::PlannedVariant> planned =
      predict::plan_variants(request, prediction.warnings);
  for (const std::string& w : prediction.warnings) progress(fmt::format("NOT BUILT: {}", w));
  if (planned.empty()) {
    fmt::print(stderr, "p3s whatif: no platform variant could be built\n");
    return 1;
  }
  const model::Slt slt = model::read_slt(slt_file);
  prediction.application = slt.application;
  prediction.mode = std::string(sim::mode_name(engine.mode));
  prediction.weak_scaling = slt.compute.scaling == model::WorkScaling::Weak;
  prediction.min_efficiency = efficiency;
  prediction.ns = counts;
  std::sort(prediction.ns.begin(), prediction.ns.end());
  prediction.ns.erase(std::unique(prediction.ns.begin(), prediction.ns.end()), prediction.ns.end());

  prepare_report_dir(dir, force, whatif_file);
  const WhatifRun run{dir, slt_file, flags};
  for (predict::PlannedVariant& v : planned) {
    if (v.spec) {
      v.variant.platform = (dir / fmt::format("platform-{}.xml", v.variant.id)).string();
      sim::write_platform(*v.spec, v.variant.platform);
    }
    prediction.variants.push_back(v.variant);
    progress(fmt::format("{}: {} ({})", v.variant.id, v.variant.name, v.variant.platform));
  }

  for (NOutcome& outcome : predict_all(run, slt, instantiation.policy(), prediction, jobs)) {
    prediction.points.insert(prediction.points.end(), outcome.points.begin(), outcome.points.end());
    prediction.warnings.insert(prediction.warnings.end(), outcome.warnings.begin(),
                               outcome.warnings.end());
  }
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
