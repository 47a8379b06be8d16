#include "cli/run_options.hpp"

#include <charconv>
#include <regex>

#include "cli/commands.hpp"
#include "core/format_error.hpp"
#include "core/trace_format.hpp"

namespace p3s::cli {
namespace fs = std::filesystem;

std::optional<core::Workload> parse_workload(const std::string& text) {
  if (text.empty()) return std::nullopt;
  auto eq = text.find('=');
  if (eq == 0 || eq == std::string::npos)
    throw UsageError("--workload must be LABEL=SIZE, got '" + text + "'");
  core::Workload w{text.substr(0, eq), 0};
  std::string size = text.substr(eq + 1);
  auto [ptr, ec] = std::from_chars(size.data(), size.data() + size.size(), w.size);
  if (ec != std::errc() || ptr != size.data() + size.size() || !(w.size > 0)) {
    throw UsageError("--workload size must be a positive number, got '" + size + "'");
  }
  return w;
}

namespace {
bool is_p3s_file(const fs::path& p) {
  static const std::regex rank_file(R"(rank-\d{5,}\.p3st)");
  std::string name = p.filename().string();
  return name == core::kRunInfoFile || std::regex_match(name, rank_file);
}
}  // namespace

void prepare_run_dir(const fs::path& dir, bool force) {
  if (fs::exists(dir) && !fs::is_directory(dir))
    throw UsageError(dir.string() + " exists and is not a directory");
  if (!fs::exists(dir)) {
    fs::create_directories(dir);
    return;
  }
  std::vector<fs::path> ours;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (!is_p3s_file(entry.path())) {
      throw UsageError(dir.string() + " holds " + entry.path().filename().string() +
                       ", which is not a p3s file: choose another --out");
    }
    ours.push_back(entry.path());
  }
  if (!ours.empty() && !force) {
    throw UsageError(dir.string() + " already holds a run: pass --force to replace it");
  }
  for (const auto& p : ours) fs::remove(p);
}

void describe_traces(const fs::path& dir, core::RunInfo& info) {
  fs::path first = core::rank_trace_path(dir, 0);
  if (!fs::exists(first)) {
    throw core::FormatError(first.string(), 0,
                            "no trace written: did the command run an MPI program (built against "
                            "Open MPI, dynamically linked)?");
  }
  core::ReadOptions lenient{.allow_truncated = true};
  core::RankTrace rank0 = core::read_rank_trace(first, lenient);
  info.nprocs = rank0.nprocs;
  info.counters = rank0.counter_names;
  info.wall_clock = rank0.wall_clock;
  info.cpu_clock = rank0.cpu_clock;
  core::check_rank_files(dir, info.nprocs);
  info.complete = true;
  for (int r = 0; r < info.nprocs; ++r) {
    core::TraceEnd end = r == 0 ? rank0.end : core::read_run_rank(dir, info, r, lenient).end;
    if (end != core::TraceEnd::Complete) info.complete = false;
  }
}

}  // namespace p3s::cli
