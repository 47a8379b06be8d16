#include "core/run_dir.hpp"

#include <limits>
#include <nlohmann/json.hpp>

#include "core/format_error.hpp"
#include "core/json_read.hpp"
#include "core/text_file.hpp"

namespace p3s::core {
namespace fs = std::filesystem;
using nlohmann::json;

fs::path rank_trace_path(const fs::path& run_dir, int rank) {
  return run_dir / rank_trace_file_name(rank);
}

nlohmann::ordered_json run_info_json(const RunInfo& info) {
  using ojson = nlohmann::ordered_json;
  return {{"nprocs", info.nprocs},
          {"command", info.command},
          {"workload", info.workload
                           ? ojson{{"label", info.workload->label}, {"size", info.workload->size}}
                           : ojson(nullptr)},
          {"date", info.date},
          {"host", info.host},
          {"counters", info.counters},
          {"clock", {{"wall", info.wall_clock}, {"cpu", info.cpu_clock}}},
          {"source", info.source},
          {"exit_code", info.exit_code},
          {"wall_seconds", info.wall_seconds},
          {"complete", info.complete}};
}

std::string run_info_text(const RunInfo& info) {
  nlohmann::ordered_json j = {{"format", kRunFormat}};
  j.update(run_info_json(info));
  return j.dump(2) + "\n";
}

void write_run_info(const fs::path& run_dir, const RunInfo& info) {
  write_text_file(run_dir / kRunInfoFile, run_info_text(info));
}

namespace {

std::string text_of(const json& j) {
  json_require(j.is_string(), j, std::string("must be a string, not ") + j.type_name());
  return j.get<std::string>();
}

std::vector<std::string> texts_of(const json& j) {
  json_require(j.is_array(), j, std::string("must be an array of strings, not ") + j.type_name());
  std::vector<std::string> out;
  for (const json& v : j) out.push_back(text_of(v));
  return out;
}

}  // namespace

Workload workload_from_json(const json& j) {
  Workload w;
  w.label = text_of(j.at("label"));
  json_require(!w.label.empty(), j.at("label"), "a workload needs a label");
  w.size = json_number(j.at("size"), 0, std::numeric_limits<double>::max());
  json_require(w.size > 0, j.at("size"), "a workload's size must be positive");
  return w;
}

RunInfo run_info_from_json(const json& j) {
  RunInfo info;
  // Any count of ranks a trace file can name (its rank numbers are 32-bit).
  info.nprocs = json_int32(j.at("nprocs"), 1, INT32_MAX);
  info.command = texts_of(j.at("command"));
  if (!j.at("workload").is_null()) info.workload = workload_from_json(j.at("workload"));
  info.date = text_of(j.at("date"));
  info.host = text_of(j.at("host"));
  info.counters = texts_of(j.at("counters"));
  json_require(info.counters.size() <= kCounterSlots, j.at("counters"),
               "at most " + std::to_string(kCounterSlots) + " counters");
  info.wall_clock = text_of(j.at("clock").at("wall"));
  info.cpu_clock = text_of(j.at("clock").at("cpu"));
  info.source = text_of(j.at("source"));
  json_require(info.source == "p3s-trace" || info.source == "smpi-ti", j.at("source"),
               "source must be \"p3s-trace\" or \"smpi-ti\"");
  info.exit_code = json_int32(j.at("exit_code"), 0, 255);
  info.wall_seconds = json_number(j.at("wall_seconds"), 0);
  json_require(j.at("complete").is_boolean(), j.at("complete"), "must be true or false");
  info.complete = j.at("complete").get<bool>();
  return info;
}

RunInfo parse_run_info(const std::string& text, const std::string& name) {
  RunInfo info;
  read_json_document(name, text, [&](const json& j) {
    json_require(j.is_object() && j.contains("format") && j.at("format").is_string(), j,
                 "not a p3s run description (no \"format\")");
    const std::string format = j.at("format").get<std::string>();
    json_require(
        format == kRunFormat, j.at("format"),
        "unsupported format '" + format + "' (expected '" + std::string(kRunFormat) + "')");
    info = run_info_from_json(j);
  });
  return info;
}

RunInfo read_run_info(const fs::path& run_dir) {
  const fs::path file = run_dir / kRunInfoFile;
  if (!fs::exists(file)) {
    throw FormatError(
        file.string(), 0,
        fs::is_directory(run_dir) ? "missing: not a p3s run directory" : "no such run directory");
  }
  return parse_run_info(read_text_file(file, "run description"), file.string());
}

void check_rank_files(const fs::path& run_dir, int nprocs) {
  for (int r = 0; r < nprocs; ++r) {
    if (!fs::exists(rank_trace_path(run_dir, r))) {
      throw FormatError(rank_trace_path(run_dir, r).string(), 0,
                        "missing: the run has " + std::to_string(nprocs) + " ranks but rank " +
                            std::to_string(r) + " left no trace");
    }
  }
  if (fs::exists(rank_trace_path(run_dir, nprocs))) {
    throw FormatError(rank_trace_path(run_dir, nprocs).string(), 0,
                      "extra rank file: run.json says " + std::to_string(nprocs) + " ranks");
  }
}

RankTrace read_run_rank(const fs::path& run_dir, const RunInfo& info, int rank,
                        const ReadOptions& options) {
  fs::path file = rank_trace_path(run_dir, rank);
  RankTrace trace = read_rank_trace(file, options);
  if (trace.rank != rank) {
    throw FormatError(
        file.string(), 2,
        "file says rank " + std::to_string(trace.rank) + ", expected " + std::to_string(rank));
  }
  if (trace.nprocs != info.nprocs) {
    throw FormatError(file.string(), 3,
                      "trace has nprocs " + std::to_string(trace.nprocs) + " but run.json says " +
                          std::to_string(info.nprocs) + ": files from different runs?");
  }
  return trace;
}

}  // namespace p3s::core
