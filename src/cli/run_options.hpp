#pragma once
// What the commands that write a run directory share: workload flags, the output directory
// and the description of the traces found in it.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/run_dir.hpp"

namespace p3s::cli {

// "LABEL=SIZE" -> Workload; empty text -> none. Throws UsageError when malformed.
std::optional<core::Workload> parse_workload(const std::string& text);

// Holds a run directory for one writer: creates DIR if missing, checks that files can be
// created in it, and takes an exclusive lock on it (flock on the directory itself, released
// when this object goes or the process ends), so two `p3s trace` into one --out cannot
// interleave or replace each other's traces. Throws UsageError naming DIR when it is taken or
// cannot be written.
class RunDirLock {
 public:
  explicit RunDirLock(const std::filesystem::path& dir);
  RunDirLock(const RunDirLock&) = delete;
  RunDirLock& operator=(const RunDirLock&) = delete;
  ~RunDirLock();

 private:
  int fd_ = -1;
};

// Empties an earlier run in DIR when `force`; refuses a directory that holds anything when not
// forced, and never deletes files that are not p3s's own (traces, run.json, signature.json).
void prepare_run_dir(const std::filesystem::path& dir, bool force);

// What the rank files in DIR say about the run.
struct TraceSummary {
  bool found = false;                 // some rank left a readable trace: nprocs is known
  std::vector<std::string> problems;  // ranks missing, unreadable or cut short, in words
};

// Fills nprocs, counters, clocks and completeness from the rank files in DIR. A missing,
// corrupt or truncated rank makes the run incomplete and is named in `problems`; `found` is
// false when no rank left a readable trace (then nothing is known to write run.json with).
TraceSummary describe_traces(const std::filesystem::path& dir, core::RunInfo& info);

}  // namespace p3s::cli
