#include "core/run_dir.hpp"

#include <fstream>
#include <nlohmann/json.hpp>

#include "core/format_error.hpp"

namespace p3s::core {
namespace fs = std::filesystem;
using nlohmann::json;

fs::path rank_trace_path(const fs::path& run_dir, int rank) {
  return run_dir / rank_trace_file_name(rank);
}

void write_run_info(const fs::path& run_dir, const RunInfo& info) {
  json j;
  j["format"] = kRunFormat;
  j["nprocs"] = info.nprocs;
  j["command"] = info.command;
  j["workload"] = info.workload
                      ? json{{"label", info.workload->label}, {"size", info.workload->size}}
                      : json(nullptr);
  j["date"] = info.date;
  j["host"] = info.host;
  j["counters"] = info.counters;
  j["clock"] = {{"wall", info.wall_clock}, {"cpu", info.cpu_clock}};
  j["source"] = info.source;
  j["exit_code"] = info.exit_code;
  j["wall_seconds"] = info.wall_seconds;
  j["complete"] = info.complete;
  fs::path file = run_dir / kRunInfoFile;
  std::ofstream out(file);
  out << j.dump(2) << '\n';
  if (!out) throw FormatError(file.string(), 0, "cannot write");
}

RunInfo read_run_info(const fs::path& run_dir) {
  fs::path file = run_dir / kRunInfoFile;
  std::ifstream in(file);
  if (!in) {
    throw FormatError(
        file.string(), 0,
        fs::is_directory(run_dir) ? "missing: not a p3s run directory" : "no such run directory");
  }
  json j;
  try {
    j = json::parse(in);
  } catch (const json::parse_error& e) {
    throw FormatError(file.string(), 0, std::string("not valid JSON: ") + e.what());
  }
  try {
    if (j.at("format").get<std::string>() != kRunFormat) {
      throw FormatError(file.string(), 0,
                        "unsupported format '" + j.at("format").get<std::string>() +
                            "' (expected '" + std::string(kRunFormat) + "')");
    }
    RunInfo info;
    info.nprocs = j.at("nprocs").get<int>();
    if (info.nprocs <= 0) throw FormatError(file.string(), 0, "nprocs must be positive");
    info.command = j.at("command").get<std::vector<std::string>>();
    if (!j.at("workload").is_null()) {
      info.workload = Workload{j["workload"].at("label").get<std::string>(),
                               j["workload"].at("size").get<double>()};
    }
    info.date = j.at("date").get<std::string>();
    info.host = j.at("host").get<std::string>();
    info.counters = j.at("counters").get<std::vector<std::string>>();
    info.wall_clock = j.at("clock").at("wall").get<std::string>();
    info.cpu_clock = j.at("clock").at("cpu").get<std::string>();
    info.source = j.at("source").get<std::string>();
    info.exit_code = j.at("exit_code").get<int>();
    info.wall_seconds = j.at("wall_seconds").get<double>();
    info.complete = j.at("complete").get<bool>();
    return info;
  } catch (const json::exception& e) {
    throw FormatError(file.string(), 0, std::string("bad run description: ") + e.what());
  }
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
