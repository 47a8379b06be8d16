// p3s generate: the SLT instantiated at N processes as an ST4NP, streamed rank by rank, checked
// for consistency (every send received, every collective complete), optionally exported as
// SimGrid time-independent traces.
#include <fmt/core.h>

#include <boost/program_options.hpp>
#include <filesystem>
#include <fstream>

#include "cli/commands.hpp"
#include "cli/instantiation_flags.hpp"
#include "cli/parse_options.hpp"
#include "cli/progress_trace.hpp"
#include "generate/st4np_writer.hpp"
#include "model/slt_json.hpp"
#include "model/slt_scaled_trace.hpp"
#include "model/trace_consistency.hpp"
#include "ti/ti_export.hpp"

namespace p3s::cli {
namespace {
namespace po = boost::program_options;
namespace fs = std::filesystem;

std::pair<int, int> parse_range(const std::string& text, int nprocs) {
  const auto dash = text.find('-');
  try {
    const int first = std::stoi(text.substr(0, dash));
    const int last = dash == std::string::npos ? first : std::stoi(text.substr(dash + 1));
    if (first < 0 || last < first || last >= nprocs) throw std::out_of_range(text);
    return {first, last};
  } catch (const std::logic_error&) {
    throw UsageError(fmt::format("--ranks '{}' is not a range a-b within 0..{}", text, nprocs - 1));
  }
}

}  // namespace

int run_generate(const Args& args) {
  po::options_description desc("options");
  std::string slt_file;
  int nprocs = 0;
  std::string out_dir;
  std::string ranks;
  std::string ti_dir;
  bool force = false;
  InstantiationFlags flags;
  desc.add_options()("help,h", "show this help")("slt", po::value(&slt_file)->required(),
                                                 "the model (app.slt)")(
      "nprocs,n", po::value(&nprocs)->required(), "process count N")(
      "output,o", po::value(&out_dir), "directory for the ST4NP (default st4np-N)")(
      "ranks", po::value(&ranks), "only ranks a-b")(
      "export-ti", po::value(&ti_dir), "also write SimGrid time-independent traces here")(
      "force", po::bool_switch(&force),
      "replace the st4np.txt (and TI traces) an earlier p3s generate wrote in the directory");
  add_instantiation_flags(desc, flags);
  po::positional_options_description pos;
  pos.add("slt", 1);
  const auto parsed =
      parse_options(args, desc,
                    "usage: p3s generate app.slt -n N [-o DIR] [--ranks a-b] [--export-ti DIR]\n"
                    "                    [--carry-nearest] [--partial] [--accept-ambiguous]\n"
                    "                    [--force]\n\n"
                    "Writes DIR/st4np.txt, the trace the application would produce at N\n"
                    "processes, and checks it is consistent. Refuses N (exit 1) where a phase\n"
                    "cannot be instantiated, its peers are undecided, or part of the largest\n"
                    "training run would be left out, naming what and how much.\n\n",
                    pos);
  if (!parsed) return 0;
  if (nprocs < 1) throw UsageError("-n must be at least 1");

  const fs::path dir =
      out_dir.empty() ? fs::path(fmt::format("st4np-{}", nprocs)) : fs::path(out_dir);
  const fs::path file = dir / "st4np.txt";
  if (fs::exists(file) && !force) {
    throw UsageError(fmt::format("{} exists; --force replaces it", file.string()));
  }
  if (!ti_dir.empty() && fs::exists(ti_dir) && !fs::is_empty(ti_dir) && !force) {
    throw UsageError(fmt::format("{} is not empty; --force replaces the TI traces in it", ti_dir));
  }
  const model::Slt slt = model::read_slt(slt_file);
  const std::optional<generate::Instantiation> inst =
      instantiate_for(slt, nprocs, flags.policy(), "generate");
  if (!inst) return 1;
  const model::SltScaledTrace& trace = *inst->trace;

  const auto [first, last] = ranks.empty() ? std::pair{0, nprocs - 1} : parse_range(ranks, nprocs);
  ProgressTrace progress(trace, "generate");
  progress.set_step("checking consistency");
  const model::ConsistencyReport report = model::check_consistency(progress);
  if (!report.consistent()) {
    fmt::print(stderr, "p3s generate: the ST4NP is INCONSISTENT ({} problems); nothing written:\n",
               report.problem_count);
    for (const std::string& p : report.problems) fmt::print(stderr, "  {}\n", p);
    return 1;
  }
  fs::create_directories(dir);
  {
    progress.set_step("writing " + file.string());
    std::ofstream out(file);
    generate::write_st4np(progress, out, first, last);
    out.close();
    if (!out) throw std::runtime_error(fmt::format("error writing {}", file.string()));
  }
  fmt::print("ST4NP for N = {} (ranks {}-{}) written to {}\n", nprocs, first, last, file.string());

  fmt::print("consistent: every send has its receive, every collective all its members\n");
  if (!ti_dir.empty()) {
    ti::TiExportOptions options;
    const auto lists = ti::export_ti(trace, ti_dir, options);
    fmt::print("SimGrid TI traces written: {}\n", lists.front().string());
  }
  return 0;
}

}  // namespace p3s::cli
