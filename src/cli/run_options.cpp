#include "cli/run_options.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
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
  // Finite too: JSON has no infinity, and run.json could not say it.
  if (ec != std::errc() || ptr != size.data() + size.size() || !(w.size > 0) ||
      !std::isfinite(w.size)) {
    throw UsageError("--workload size must be a positive number, got '" + size + "'");
  }
  return w;
}

RunDirLock::RunDirLock(const fs::path& dir) {
  if (fs::exists(dir) && !fs::is_directory(dir))
    throw UsageError(dir.string() + " exists and is not a directory");
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw UsageError("cannot create " + dir.string() + ": " + ec.message());
  fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd_ < 0) throw UsageError("cannot open " + dir.string() + ": " + std::strerror(errno));
  if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    throw UsageError(error == EWOULDBLOCK
                         ? dir.string() + " is in use by another p3s writing a run into it"
                         : "cannot lock " + dir.string() + ": " + std::strerror(error));
  }
  // The ranks will create their files here: better to find out now than after the run.
  const fs::path probe = dir / ".p3s-write-test";
  const int probe_fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (probe_fd < 0) {
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    throw UsageError("cannot write in " + dir.string() + ": " + std::strerror(error));
  }
  ::close(probe_fd);
  ::unlink(probe.c_str());
}

RunDirLock::~RunDirLock() {
  if (fd_ >= 0) ::close(fd_);
}

namespace {
bool is_p3s_file(const fs::path& p) {
  static const std::regex rank_file(R"(rank-\d{5,}\.p3st)");
  std::string name = p.filename().string();
  // signature.json: what `p3s signature RUN` writes into the run by default.
  return name == core::kRunInfoFile || name == "signature.json" ||
         std::regex_match(name, rank_file);
}
}  // namespace

void prepare_run_dir(const fs::path& dir, bool force) {
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

namespace {

// The first rank file in DIR that reads as a trace, to learn nprocs from when rank 0 left none.
std::optional<core::RankTrace> any_rank(const fs::path& dir, const core::ReadOptions& options) {
  static const std::regex rank_file(R"(rank-\d{5,}\.p3st)");
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (!std::regex_match(entry.path().filename().string(), rank_file)) continue;
    try {
      return core::read_rank_trace(entry.path(), options);
    } catch (const core::FormatError&) {
    }
  }
  return std::nullopt;
}

}  // namespace

TraceSummary describe_traces(const fs::path& dir, core::RunInfo& info) {
  TraceSummary summary;
  const core::ReadOptions lenient{.allow_truncated = true};
  std::optional<core::RankTrace> first;
  try {
    first = core::read_rank_trace(core::rank_trace_path(dir, 0), lenient);
  } catch (const core::FormatError& e) {
    summary.problems.push_back(e.what());
    first = any_rank(dir, lenient);
  }
  if (!first) return summary;
  summary.found = true;
  info.nprocs = first->nprocs;
  info.counters = first->counter_names;
  info.wall_clock = first->wall_clock;
  info.cpu_clock = first->cpu_clock;
  info.complete = summary.problems.empty();
  const bool rank0_failed = !summary.problems.empty();
  for (int r = rank0_failed ? 1 : 0; r < info.nprocs; ++r) {
    try {
      if (first->rank == r) {
        if (first->end != core::TraceEnd::Complete) info.complete = false;
        continue;
      }
      const core::RankTrace trace = core::read_run_rank(dir, info, r, lenient);
      if (trace.end != core::TraceEnd::Complete) info.complete = false;
    } catch (const core::FormatError& e) {
      info.complete = false;
      if (summary.problems.size() < 8) summary.problems.push_back(e.what());
    }
  }
  if (fs::exists(core::rank_trace_path(dir, info.nprocs))) {
    info.complete = false;
    summary.problems.push_back(core::rank_trace_path(dir, info.nprocs).string() +
                               ": extra rank file: the traces say " + std::to_string(info.nprocs) +
                               " ranks");
  }
  return summary;
}

}  // namespace p3s::cli
