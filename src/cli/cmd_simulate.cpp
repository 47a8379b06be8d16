// p3s simulate: the SLT instantiated at N, replayed in SimGrid's SMPI on a platform file; prints
// each phase's simulated time and the PET, optionally as JSON.
#include <fmt/core.h>

#include <boost/program_options.hpp>

#include "cli/commands.hpp"
#include "cli/instantiation_flags.hpp"
#include "cli/parse_options.hpp"
#include "cli/simulation_setup.hpp"
#include "cli/simulation_table.hpp"
#include "core/process_pool.hpp"
#include "model/slt_json.hpp"
#include "model/slt_scaled_trace.hpp"
#include "predict/simulation_json.hpp"
#include "report/report_files.hpp"
#include "sim/simulate.hpp"

namespace p3s::cli {

int run_simulate(const Args& args) {
  namespace po = boost::program_options;
  std::string slt_file, json_file;
  int nprocs = 0;
  std::size_t jobs = core::available_cores();
  InstantiationFlags instantiation;
  SimulationFlags flags;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help")("slt", po::value(&slt_file)->required(),
                                                 "the model (app.slt)")(
      "nprocs,n", po::value(&nprocs)->required(), "process count N")(
      "json", po::value(&json_file), "also write the result as JSON (p3s-simulation 1) here")(
      "jobs,j", po::value(&jobs)->default_value(jobs),
      "per phase: simulate this many phases side by side, each in a process of its own "
      "(default: the cores this process may use; each holds its own engine at N, so memory "
      "grows with it); the results are those of one at a time");
  add_instantiation_flags(desc, instantiation);
  add_simulation_flags(desc, flags);
  po::positional_options_description pos;
  pos.add("slt", 1);
  const auto parsed = parse_options(
      args, desc,
      "usage: p3s simulate app.slt -n N --platform P.xml [--ranks-per-host k]\n"
      "                    [--mapping block|cyclic] [--cfg smpi/KEY:VALUE]... [--cpu-speedup X]\n"
      "                    [--full] [--repetitions M] [--json FILE] [--jobs J] [--partial]\n"
      "                    [--carry-nearest] [--accept-ambiguous]\n\n"
      "Replays the model at N processes in SimGrid's SMPI. By default each relevant phase is\n"
      "simulated on its own (a warm-up, then M measured repetitions): PhaseET is the slowest\n"
      "rank's time per repetition and PET = sum of PhaseET x weight. --full simulates every\n"
      "phase in order, each repeated its weight, as one run. Compute times are those of the\n"
      "traced machine, divided by --cpu-speedup.\n\n",
      pos);
  if (!parsed) return 0;
  if (nprocs < 1) throw UsageError("-n must be at least 1");
  if (jobs < 1) throw UsageError("--jobs must be at least 1");
  sim::SimOptions options = simulation_options(flags);
  options.phase_jobs = jobs;

  const model::Slt slt = model::read_slt(slt_file);
  const std::optional<generate::Instantiation> inst =
      instantiate_for(slt, nprocs, instantiation.policy(), "simulate");
  if (!inst) return 1;
  const auto& trace = inst->trace;

  fmt::print("simulating {} at N = {} on {} ({} rank(s) per host, {}), {}, {} engine\n", slt_file,
             nprocs, options.platform.string(), options.ranks_per_host,
             sim::mapping_name(options.mapping), sim::mode_name(options.mode),
             sim::engine_name(options.engine));
  std::fflush(stdout);
  options.progress = [](std::string_view what) {
    fmt::print(stderr, "  {}\n", what);
    std::fflush(stderr);
  };
  if (const auto warning = sim::smpi_collectives_warning(options))
    fmt::print(stderr, "WARNING: {}\n", *warning);
  const sim::SimResult result = sim::simulate(*trace, options);
  print_simulation_table(result);

  if (!json_file.empty()) {
    report::write_text(
        json_file, predict::simulation_json(result, slt_file, trace->warnings()).dump(2) + "\n");
    fmt::print("JSON written to {}\n", json_file);
  }
  return 0;
}

}  // namespace p3s::cli
