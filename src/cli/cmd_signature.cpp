// p3s signature: the relevant phases of one run, found on each rank alone (EPAS), with their
// weights, the representative rank and how well they explain the run.
#include <fmt/core.h>

#include <boost/program_options.hpp>
#include <charconv>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "cli/commands.hpp"
#include "cli/parse_options.hpp"
#include "signature/run_analysis.hpp"
#include "signature/signature_json.hpp"
#include "signature/summary_table.hpp"

namespace p3s::cli {
namespace {
namespace po = boost::program_options;

// "1%" or "0.01": a share of something, from 0 to 1.
double parse_share(const std::string& text, const char* flag) {
  std::string_view number = text;
  double scale = 1.0;
  if (number.ends_with('%')) {
    number.remove_suffix(1);
    scale = 0.01;
  }
  double value = 0;
  auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (number.empty() || ec != std::errc() || end != number.data() + number.size()) {
    throw UsageError(fmt::format("{} '{}' is not a number or a percentage", flag, text));
  }
  value *= scale;
  if (value < 0 || value > 1) {
    throw UsageError(fmt::format("{} '{}' must lie between 0 and 1 (0 % and 100 %)", flag, text));
  }
  return value;
}

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
  std::string similarity = "0.85";
  int workers = 2;
  desc.add_options()("help,h", "show this help")("run", po::value(&dir)->required(),
                                                 "run directory")(
      "output,o", po::value(&output),
      "where to write the signature (default RUN_DIR/signature.json)")(
      "threshold", po::value(&threshold)->default_value(threshold),
      "a phase is relevant when weight x time is at least this share of the run (1% or 0.01)")(
      "similarity", po::value(&similarity)->default_value(similarity),
      "repetitions whose compute is at least this similar are the same phase (0.85 or 85%)")(
      "workers", po::value(&workers)->default_value(workers), "ranks analysed at once (threads)");
  po::positional_options_description pos;
  pos.add("run", 1);
  const auto parsed = parse_options(
      args, desc,
      "usage: p3s signature RUN_DIR [-o FILE] [--threshold 1%] [--similarity 0.85]\n\n"
      "Cuts each rank's events into phases (repeated event sequences with similar\n"
      "compute), weighs them by their repetitions, keeps the relevant ones, picks the\n"
      "representative rank and writes the signature as JSON. Prints a summary.\n\n",
      pos);
  if (!parsed) return 0;

  signature::AnalysisOptions options;
  options.phases.threshold = parse_share(threshold, "--threshold");
  options.phases.similarity = parse_share(similarity, "--similarity");
  if (options.phases.similarity <= 0) throw UsageError("--similarity must be above 0");
  if (workers < 1) throw UsageError("--workers must be at least 1");
  options.workers = workers;
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
