// p3s signature: the relevant phases of one run, found on each rank alone (EPAS), with their
// weights, the representative rank and how well they explain the run.
#include <fmt/core.h>

#include <boost/program_options.hpp>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "cli/commands.hpp"
#include "cli/parse_options.hpp"
#include "cli/share_option.hpp"
#include "signature/run_analysis.hpp"
#include "signature/signature_json.hpp"
#include "signature/summary_table.hpp"

namespace p3s::cli {
namespace {
namespace po = boost::program_options;

// Threads beyond the cores only cost memory (one rank's trace each).
constexpr int kMaxWorkers = 256;

// Each rank's trace is a few large allocations freed before the next rank is read. By default
// glibc returns them to the system and the next rank faults every page in again, which costs
// as much as parsing; keeping them in the heap lets each worker reuse its memory. The peak
// stays what one rank per worker needs.
void keep_freed_memory() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 32 << 20);  // glibc's largest
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
#endif
}

}  // namespace

int run_signature(const Args& args) {
  po::options_description desc("options");
  std::string dir;
  std::string output;
  std::string threshold = "1%";
  std::string size_tolerance = "50%";
  int workers = 2;
  desc.add_options()("help,h", "show this help")("run", po::value(&dir)->required(),
                                                 "run directory")(
      "output,o", po::value(&output),
      "where to write the signature (default RUN_DIR/signature.json)")(
      "threshold", po::value(&threshold)->default_value(threshold),
      "a phase is relevant when weight x time is at least this share of the run (1% or 0.01)")(
      "size-tolerance", po::value(&size_tolerance)->default_value(size_tolerance),
      "repetitions of the same calls are one phase when each call's message size differs by "
      "at most this share (50% or 0.5); data-dependent sizes within it are kept as a spread")(
      "workers", po::value(&workers)->default_value(workers), "ranks analysed at once (threads)")(
      "accept-truncated",
      "read ranks whose trace was cut short (a rank killed by SIGKILL) as far as they go, "
      "instead of refusing the run");
  po::positional_options_description pos;
  pos.add("run", 1);
  const auto parsed = parse_options(
      args, desc,
      "usage: p3s signature RUN_DIR [-o FILE] [--threshold 1%] [--size-tolerance 50%]\n"
      "                     [--accept-truncated]\n\n"
      "Cuts each rank's events into phases (the bodies of its most repeated loops and\n"
      "the stretches between them), weighs them by their repetitions, relates the ranks'\n"
      "phases by what they do, keeps the relevant ones, picks the representative rank and\n"
      "writes the signature as JSON. Prints a summary.\n\n",
      pos);
  if (!parsed) return 0;

  signature::AnalysisOptions options;
  options.phases.threshold = parse_share(threshold, "--threshold");
  options.phases.size_tolerance = parse_share(size_tolerance, "--size-tolerance");
  if (workers < 1 || workers > kMaxWorkers) {
    throw UsageError("--workers must be 1 to " + std::to_string(kMaxWorkers));
  }
  options.workers = workers;
  options.read.allow_truncated = parsed->count("accept-truncated") > 0;
  keep_freed_memory();

  const signature::Signature sig = signature::analyse_run(dir, options);
  const std::filesystem::path file = output.empty()
                                         ? std::filesystem::path(dir) / signature::kSignatureFile
                                         : std::filesystem::path(output);
  signature::write_signature(file, sig);
  fmt::print("{}", signature::summary_table(sig));
  fmt::print("signature written to {}\n", file.string());
  return 0;
}

}  // namespace p3s::cli
