#pragma once
// A run directory: run.json (what was run, where, how it was measured) and one trace per rank.
#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/event.hpp"
#include "core/trace_format.hpp"

namespace p3s::core {

inline constexpr std::string_view kRunFormat = "p3s-run 1";
inline constexpr std::string_view kRunInfoFile = "run.json";

// The problem size a run was made with, as the user declared it (`p3s trace --workload`).
struct Workload {
  std::string label;
  double size = 0;
  bool operator==(const Workload&) const = default;
};

struct RunInfo {
  int nprocs = 0;
  std::vector<std::string> command;
  std::optional<Workload> workload;
  std::string date;  // ISO 8601, UTC
  std::string host;
  std::vector<std::string> counters;  // hardware counters recorded; empty when none
  std::string wall_clock;
  std::string cpu_clock;
  std::string source = "p3s-trace";  // or "smpi-ti" for imported SimGrid traces
  int exit_code = 0;
  double wall_seconds = 0;  // of the whole traced command
  bool complete = true;     // every rank's trace ended with 'end complete'
  bool operator==(const RunInfo&) const = default;
};

std::filesystem::path rank_trace_path(const std::filesystem::path& run_dir, int rank);
// Writes run.json; throws std::runtime_error naming the file when it cannot (a full disk too).
void write_run_info(const std::filesystem::path& run_dir, const RunInfo& info);
RunInfo read_run_info(const std::filesystem::path& run_dir);
// run.json's text, and back (`name` in error messages).
std::string run_info_text(const RunInfo& info);
RunInfo parse_run_info(const std::string& text, const std::string& name);
// The run description as JSON, the one writer of it: run.json adds its format, signature.json
// keeps it as "run" with the run's directory.
nlohmann::ordered_json run_info_json(const RunInfo& info);

// The run description inside a larger document (signature.json's "run"); throws
// core::JsonValueError or nlohmann's exceptions (see json_read.hpp) on a bad value.
RunInfo run_info_from_json(const nlohmann::json& j);
Workload workload_from_json(const nlohmann::json& j);
// Throws FormatError naming the first rank whose trace file is missing, or an extra one.
void check_rank_files(const std::filesystem::path& run_dir, int nprocs);
// Reads one rank of a run and checks it belongs to it (rank number and process count).
RankTrace read_run_rank(const std::filesystem::path& run_dir, const RunInfo& info, int rank,
                        const ReadOptions& options = {});

}  // namespace p3s::core
