#include "ti/ti_import.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <stdexcept>

#include "core/format_error.hpp"
#include "core/text_file.hpp"
#include "core/trace_format.hpp"
#include "ti/ti_action.hpp"
#include "ti/ti_list.hpp"
#include "ti/ti_rank_converter.hpp"

namespace p3s::ti {
namespace fs = std::filesystem;

namespace {

// TI traces hold no date: the run is dated by when SMPI last wrote its list.
std::chrono::system_clock::time_point recorded_at(const fs::path& list) {
  return std::chrono::time_point_cast<std::chrono::system_clock::duration>(
      std::chrono::file_clock::to_sys(fs::last_write_time(list)));
}

std::string iso_utc(std::chrono::system_clock::time_point t) {
  std::time_t seconds = std::chrono::system_clock::to_time_t(t);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&seconds));
  return buf;
}

}  // namespace

TiImport import_ti(const fs::path& list, const TiImportOptions& options) {
  if (!(options.flops_per_second > 0) || !std::isfinite(options.flops_per_second)) {
    throw std::invalid_argument("the host speed must be a positive number of flops per second");
  }
  const TiTrace trace = read_ti_trace(read_ti_list(list, options.cwd));
  const TiTiming timing{options.flops_per_second};
  const auto recorded = recorded_at(list);
  const std::int64_t start_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(recorded.time_since_epoch()).count();

  TiImport import;
  import.shared_file = trace.shared_file;
  std::int64_t longest_ns = 0;
  for (int r = 0; r < trace.nprocs(); ++r) {
    core::RankTrace rank = convert_ti_rank(trace, r, timing);
    rank.start_unix_ns = start_ns;
    longest_ns = std::max(longest_ns, rank.events.back().t_end);
    import.ranks.push_back(std::move(rank));
  }

  core::RunInfo& info = import.info;
  info.nprocs = trace.nprocs();
  info.command = {"smpirun-ti", fs::absolute(list).lexically_normal().string()};
  info.workload = options.workload;
  info.date = iso_utc(recorded);
  info.host = "smpi";
  info.wall_clock = core::kSyntheticWallClock;
  info.cpu_clock = ti_cpu_clock(timing);
  info.source = "smpi-ti";
  info.exit_code = 0;
  info.wall_seconds = static_cast<double>(longest_ns) / 1e9;  // synthetic: compute and sleep only
  info.complete = true;
  return import;
}

void write_ti_import(const fs::path& run_dir, const TiImport& import) {
  for (const core::RankTrace& rank : import.ranks) {
    core::write_text_file(core::rank_trace_path(run_dir, rank.rank), core::rank_trace_text(rank));
  }
  core::write_run_info(run_dir, import.info);
}

}  // namespace p3s::ti
