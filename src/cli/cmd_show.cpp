// p3s show: check a run directory strictly and summarise what its traces hold.
#include <fmt/core.h>
#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/parse_options.hpp"
#include "core/checked_math.hpp"
#include "core/run_dir.hpp"

namespace p3s::cli {
namespace {
namespace po = boost::program_options;

struct OpTotals {
  std::int64_t calls = 0;
  std::int64_t bytes_sent = 0;
  std::int64_t seconds_ns = 0;
};

// total += value, or an error naming what no longer fits in 64 bits.
void add_to(std::int64_t& total, std::int64_t value, const std::string& what) {
  const std::optional<std::int64_t> sum = core::checked_add(total, value);
  if (!sum) throw std::runtime_error("the run's total " + what + " do not fit in 64 bits");
  total = *sum;
}

}  // namespace

int run_show(const Args& args) {
  po::options_description desc("options");
  std::string dir;
  int only_rank = -1;
  desc.add_options()("help,h", "show this help")("run", po::value(&dir)->required(),
                                                 "run directory")(
      "rank,r", po::value(&only_rank), "summarise this rank only")("json",
                                                                   "print JSON instead of a table")(
      "accept-truncated",
      "read ranks whose trace was cut short (a rank killed by SIGKILL) as far as they go");
  po::positional_options_description pos;
  pos.add("run", 1);
  const auto parsed = parse_options(
      args, desc,
      "usage: p3s show RUN_DIR [--rank R] [--json] [--accept-truncated]\n\n"
      "Reads every rank's trace strictly (a corrupt, truncated or missing file is an error\n"
      "naming it; --accept-truncated reads cut-short ranks as far as they go) and prints the\n"
      "MPI calls per operation: count, bytes sent, time inside.\n\n",
      pos);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;

  core::RunInfo info = core::read_run_info(dir);
  core::check_rank_files(dir, info.nprocs);
  if (only_rank < -1 || only_rank >= info.nprocs)
    throw UsageError("--rank " + std::to_string(only_rank) + " but the run has " +
                     std::to_string(info.nprocs) + " ranks");
  const core::ReadOptions read{.allow_truncated = vm.count("accept-truncated") > 0};
  std::map<std::string, OpTotals> totals;
  std::int64_t events = 0, max_time = 0;
  std::vector<int> truncated;
  for (int r = 0; r < info.nprocs; ++r) {
    if (only_rank >= 0 && r != only_rank) continue;
    core::RankTrace t = core::read_run_rank(dir, info, r, read);
    if (t.end == core::TraceEnd::Truncated) truncated.push_back(r);
    events += static_cast<std::int64_t>(t.events.size());
    if (!t.events.empty()) max_time = std::max(max_time, t.events.back().t_end);
    for (const auto& e : t.events) {
      OpTotals& o = totals[std::string(core::op_name(e.op))];
      ++o.calls;
      add_to(o.bytes_sent, e.bytes, "bytes");
      add_to(o.seconds_ns, e.t_end - e.t_start, "times");
    }
  }
  if (!truncated.empty()) {
    fmt::print(stderr, "p3s show: warning: {} rank(s) cut short, read as far as they go: {}\n",
               truncated.size(), fmt::join(truncated, ","));
  }
  if (vm.count("json")) {
    nlohmann::json j = {{"nprocs", info.nprocs},
                        {"events", events},
                        {"complete", info.complete},
                        {"truncated_ranks", truncated},
                        {"traced_seconds", static_cast<double>(max_time) * 1e-9}};
    for (const auto& [op, o] : totals) {
      j["ops"][op] = {{"calls", o.calls},
                      {"bytes_sent", o.bytes_sent},
                      {"seconds", static_cast<double>(o.seconds_ns) * 1e-9}};
    }
    std::cout << j.dump(2) << '\n';
    return 0;
  }
  fmt::print("run {}: {} ranks, {} events, {:.3f} s traced (MPI_Init to MPI_Finalize), {}\n", dir,
             info.nprocs, events, static_cast<double>(max_time) * 1e-9,
             info.complete ? "complete" : "INCOMPLETE");
  fmt::print("counters: {}\n", info.counters.empty()
                                   ? "none (compute is CPU time)"
                                   : fmt::format("{}", fmt::join(info.counters, " ")));
  fmt::print("\n{:<22} {:>12} {:>16} {:>14}\n", "operation", "calls", "bytes sent", "seconds in");
  for (const auto& [op, o] : totals) {
    fmt::print("{:<22} {:>12} {:>16} {:>14.6f}\n", op, o.calls, o.bytes_sent,
               static_cast<double>(o.seconds_ns) * 1e-9);
  }
  return 0;
}

}  // namespace p3s::cli
