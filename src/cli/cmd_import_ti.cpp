// p3s trace import-ti: SimGrid's time-independent traces (smpirun -trace-ti) as a run directory.
#include <fmt/core.h>

#include <boost/program_options.hpp>
#include <cmath>
#include <filesystem>

#include "cli/commands.hpp"
#include "cli/parse_options.hpp"
#include "cli/run_options.hpp"
#include "ti/ti_import.hpp"

namespace p3s::cli {
namespace {
namespace po = boost::program_options;
namespace fs = std::filesystem;

constexpr const char* kUsage =
    "usage: p3s trace import-ti LIST -o DIR --flops-per-second F [--workload LABEL=SIZE] "
    "[--force]\n\n"
    "Reads the time-independent trace that 'smpirun -trace-ti --cfg=tracing/filename:LIST ...'\n"
    "wrote (LIST names one file per rank, or one shared file) and writes it to DIR as a p3s run,\n"
    "so a program simulated under SimGrid is analysed like a traced one. TI traces count compute\n"
    "in flops and carry no time: a compute of X flops becomes X/F seconds of CPU time, and event\n"
    "times are synthesised (each MPI call takes no time). To get back the CPU time SMPI measured,\n"
    "give F = the smpi/host-speed of the traced run (SimGrid's default is 20000 flops/s).\n"
    "See src/core/FORMATS.md for how every TI action is imported.\n\n";

}  // namespace

int run_import_ti(const Args& args) {
  po::options_description desc("options");
  std::string list, out, workload;
  double flops_per_second = 0;
  desc.add_options()("help,h", "show this help")("out,o", po::value(&out)->required(),
                                                 "run directory to write (created if missing)")(
      "flops-per-second", po::value(&flops_per_second)->required(),
      "host speed F in flops per second that turns TI compute into CPU time")(
      "workload,w", po::value(&workload), "problem size of this run as LABEL=SIZE (e.g. grid=512)")(
      "force,f", "replace an earlier run in DIR");
  po::options_description positional("list");
  positional.add_options()("list", po::value(&list)->required(), "the TI trace list");
  po::positional_options_description pos;
  pos.add("list", 1);
  const auto parsed = parse_options(args, desc, kUsage, pos, &positional);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  if (!(flops_per_second > 0) || !std::isfinite(flops_per_second)) {
    throw UsageError("--flops-per-second must be a positive number");
  }

  ti::TiImportOptions options{flops_per_second, parse_workload(workload), fs::current_path()};
  ti::TiImport import = ti::import_ti(list, options);
  // Only now, with the whole trace read and converted, is anything in DIR touched.
  fs::path dir = fs::absolute(out);
  const RunDirLock lock(dir);
  prepare_run_dir(dir, vm.count("force") > 0);
  ti::write_ti_import(dir, import);
  std::size_t events = 0;
  for (const auto& rank : import.ranks) events += rank.events.size();
  fmt::print(stderr, "p3s trace import-ti: {} ranks ({}), {} events, {:.6f} s synthetic -> {}\n",
             import.info.nprocs, import.shared_file ? "one shared file" : "one file per rank",
             events, import.info.wall_seconds, (dir / core::kRunInfoFile).string());
  return 0;
}

}  // namespace p3s::cli
