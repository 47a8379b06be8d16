#include "calibrate/measurements.hpp"

#include <fmt/core.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>

#include "calibrate/benchmark_reader.hpp"
#include "calibrate/replay_messages.hpp"
#include "core/format_error.hpp"

namespace p3s::calibrate {

std::string_view link_name(LinkKind link) {
  return link == LinkKind::SameNode ? "same-node" : "cross-node";
}

std::string_view test_name(Test test) {
  switch (test) {
    case Test::PingPong:
      return "pingpong";
    case Test::PingPongSsend:
      return "pingpong-ssend";
    case Test::PingPongIsend:
      return "pingpong-isend";
    case Test::SendOverhead:
      return "send-overhead";
    case Test::IsendOverhead:
      return "isend-overhead";
    case Test::AppMessage:
      return "app-message";
  }
  return "?";
}

std::string_view round_test_name(RoundTest test) {
  return test == RoundTest::Exchange ? "round-exchange" : "round-allreduce";
}

int communication_rounds(RoundTest test, int ranks) {
  if (test == RoundTest::Exchange) return 1;
  int rounds = 0;
  while ((1 << rounds) < ranks) ++rounds;
  return rounds;
}

std::string bytes_text(std::int64_t b) {
  if (b >= (1 << 20) && b % (1 << 20) == 0) return fmt::format("{} MiB", b >> 20);
  if (b >= 1024 && b % 1024 == 0) return fmt::format("{} KiB", b >> 10);
  return fmt::format("{} B", b);
}

namespace {

// The "format" of a file's first line, when it is a JSON object that has one.
std::optional<std::string> format_of(const std::string& line) {
  try {
    const nlohmann::json j = nlohmann::json::parse(line);
    if (j.is_object() && j.contains("format") && j["format"].is_string()) {
      return j["format"].get<std::string>();
    }
  } catch (const nlohmann::json::parse_error&) {
  }
  return std::nullopt;
}

}  // namespace

Measurements read_measurements(const std::vector<std::filesystem::path>& files) {
  if (files.empty()) throw std::invalid_argument("no measurement file given");
  Measurements out;
  std::optional<std::pair<std::string, SystemDescription>> first;
  for (const std::filesystem::path& path : files) {
    const std::string file = path.string();
    std::ifstream in(path);
    if (!in) {
      throw core::FormatError(file, 0,
                              std::filesystem::exists(path) ? "cannot read" : "no such file");
    }
    std::string line;
    while (std::getline(in, line) && line.find_first_not_of(" \t\r") == std::string::npos) {
    }
    if (line.find_first_not_of(" \t\r") == std::string::npos) {
      throw core::FormatError(file, 0, "empty: no measurements");
    }
    // One reader per kind of input: the benchmark's JSON lines say what they are on the first
    // line, a replay result is one JSON document.
    const std::optional<std::string> format = format_of(line);
    if (format != kBenchmarkFormat) {
      in.close();
      if (!read_replay_messages(path, out)) {
        throw core::FormatError(
            file, 1,
            fmt::format("not calibration measurements: neither the benchmark's output (its first "
                        "line has format '{}') nor a replay result ('{}')",
                        kBenchmarkFormat, kReplayFormat));
      }
      out.sources.push_back(
          fmt::format("{}: messages measured by a Synthetic Signature replay", file));
      continue;
    }
    const SystemDescription system = read_benchmark_file(file, line, in, out);
    out.benchmark = true;
    if (!first) {
      first.emplace(file, system);
    } else if (first->second.build != system.build ||
               first->second.mpi_library != system.mpi_library) {
      throw core::FormatError(
          file, 1,
          fmt::format("inconsistent with {}: measured with {} ({}), that file with {} ({})",
                      first->first, system.mpi_library, system.build, first->second.mpi_library,
                      first->second.build));
    }
    out.simulated = system.build == "smpi";
  }
  return out;
}

}  // namespace p3s::calibrate
