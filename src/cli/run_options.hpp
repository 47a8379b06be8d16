#pragma once
// What the commands that write a run directory share: workload flags, the output directory
// and the description of the traces found in it.
#include <filesystem>
#include <optional>
#include <string>

#include "core/run_dir.hpp"

namespace p3s::cli {

// "LABEL=SIZE" -> Workload; empty text -> none. Throws UsageError when malformed.
std::optional<core::Workload> parse_workload(const std::string& text);

// Creates DIR, or empties an earlier run in it when `force`; refuses to touch a directory that
// holds anything when not forced, and never deletes files that are not p3s's own.
void prepare_run_dir(const std::filesystem::path& dir, bool force);

// Fills nprocs, counters, clocks and completeness from the rank files in DIR. Throws
// FormatError when no rank wrote a trace, a rank is missing, or a file is corrupt.
void describe_traces(const std::filesystem::path& dir, core::RunInfo& info);

}  // namespace p3s::cli
