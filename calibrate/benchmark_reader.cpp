#include "calibrate/benchmark_reader.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "core/format_error.hpp"

namespace p3s::calibrate {
namespace {

using nlohmann::json;

// nlohmann rejects the nan and inf that printf writes for non-finite times: say so plainly.
bool mentions_non_finite(std::string line) {
  std::transform(line.begin(), line.end(), line.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return line.find("nan") != std::string::npos || line.find("inf") != std::string::npos;
}

class LineReader {
 public:
  LineReader(const std::string& file, std::size_t line) : file_(file), line_(line) {}

  [[noreturn]] void fail(const std::string& reason) const {
    throw core::FormatError(file_, line_, reason);
  }

  json parse(const std::string& text) const {
    try {
      json j = json::parse(text);
      if (!j.is_object()) fail("not a JSON object");
      return j;
    } catch (const json::parse_error& e) {
      if (mentions_non_finite(text)) fail("a value is not a finite number (NaN or infinity)");
      fail(std::string("not JSON: ") + e.what());
    }
  }

  const json& key(const json& j, const char* name) const {
    const auto it = j.find(name);
    if (it == j.end()) fail(fmt::format("no \"{}\"", name));
    return *it;
  }

  std::int64_t integer(const json& j, const char* name, std::int64_t lo, std::int64_t hi) const {
    const json& v = key(j, name);
    if (!v.is_number_integer()) fail(fmt::format("\"{}\" is not an integer", name));
    const auto value = v.get<std::int64_t>();
    if (value < lo || value > hi) {
      fail(fmt::format("\"{}\" is {}, outside {}..{}", name, value, lo, hi));
    }
    return value;
  }

  // A finite number >= 0 (> 0 when `positive`).
  double seconds(const json& j, const char* name, bool positive) const {
    const json& v = key(j, name);
    if (!v.is_number()) fail(fmt::format("\"{}\" is not a number", name));
    const double value = v.get<double>();
    if (!std::isfinite(value)) fail(fmt::format("\"{}\" is not finite", name));
    if (value < 0) fail(fmt::format("\"{}\" is negative ({:g})", name, value));
    if (positive && value == 0) fail(fmt::format("\"{}\" is 0", name));
    return value;
  }

  std::string text(const json& j, const char* name) const {
    const json& v = key(j, name);
    if (!v.is_string()) fail(fmt::format("\"{}\" is not a string", name));
    return v.get<std::string>();
  }

  std::string where() const { return fmt::format("{}:{}", file_, line_); }

 private:
  const std::string& file_;
  std::size_t line_;
};

struct Header {
  int nprocs = 0;
  std::int64_t max_bytes = 0;
  std::vector<std::string> hosts;
  SystemDescription system;
};

Header read_header(const LineReader& r, const std::string& line) {
  const json j = r.parse(line);
  if (r.text(j, "format") != kBenchmarkFormat) {
    r.fail(fmt::format("format '{}' is not '{}'", r.text(j, "format"), kBenchmarkFormat));
  }
  Header h;
  h.system.build = r.text(j, "build");
  if (h.system.build != "mpi" && h.system.build != "smpi") {
    r.fail(fmt::format("build '{}' is neither mpi nor smpi", h.system.build));
  }
  h.system.mpi_library = r.text(j, "mpi_library");
  h.nprocs = static_cast<int>(r.integer(j, "nprocs", 2, 1 << 24));
  h.max_bytes = r.integer(r.key(j, "options"), "max_bytes", 1, std::int64_t{1} << 40);
  const json& hosts = r.key(j, "hosts");
  if (!hosts.is_array() || hosts.size() != static_cast<std::size_t>(h.nprocs)) {
    r.fail(fmt::format("\"hosts\" is not a list of {} host names", h.nprocs));
  }
  for (const json& host : hosts) {
    if (!host.is_string()) r.fail("\"hosts\" holds something other than a name");
    h.hosts.push_back(host.get<std::string>());
  }
  return h;
}

std::optional<Test> test_from_name(std::string_view name) {
  for (Test t : kTests) {
    if (test_name(t) == name) return t;
  }
  return std::nullopt;
}

std::optional<LinkKind> link_from_name(std::string_view name) {
  for (LinkKind l : kLinkKinds) {
    if (link_name(l) == name) return l;
  }
  return std::nullopt;
}

ComputeSample read_compute(const LineReader& r, const json& j, const Header& h) {
  ComputeSample s;
  const json& ranks = r.key(j, "ranks");
  if (!ranks.is_array() || ranks.size() != 1 || !ranks[0].is_number_integer() ||
      ranks[0].get<std::int64_t>() < 0 || ranks[0].get<std::int64_t>() >= h.nprocs) {
    r.fail(fmt::format("\"ranks\" is not one rank of 0..{}", h.nprocs - 1));
  }
  s.concurrent = static_cast<int>(r.integer(j, "concurrent", 1, h.nprocs));
  s.flops = r.seconds(j, "flops", true);
  s.cpu_seconds = r.seconds(j, "cpu_seconds", true);
  s.wall_seconds = r.seconds(j, "wall_seconds", true);
  s.where = r.where();
  return s;
}

RoundSample read_round(const LineReader& r, const json& j, RoundTest test, const Header& h) {
  RoundSample s;
  s.test = test;
  s.ranks = static_cast<int>(r.integer(j, "ranks", h.nprocs, h.nprocs));
  s.ranks_per_node = static_cast<int>(r.integer(j, "ranks_per_node", 1, h.nprocs));
  s.cores_per_node = static_cast<int>(r.integer(j, "cores_per_node", 1, 1 << 24));
  r.integer(j, "bytes", 0, std::int64_t{1} << 40);
  r.integer(j, "iterations", 1, std::int64_t{1} << 40);
  s.seconds = r.seconds(j, "seconds", true);
  s.where = r.where();
  return s;
}

MessageSample read_message(const LineReader& r, const json& j, Test test, const Header& h) {
  MessageSample s;
  s.test = test;
  const std::string link = r.text(j, "link");
  const std::optional<LinkKind> kind = link_from_name(link);
  if (!kind) r.fail(fmt::format("unknown link '{}' (same-node or cross-node)", link));
  s.link = *kind;
  s.pairs = static_cast<int>(r.integer(j, "pairs", 1, h.nprocs / 2));
  r.integer(j, "pair", 0, s.pairs - 1);
  const json& ranks = r.key(j, "ranks");
  if (!ranks.is_array() || ranks.size() != 2 || !ranks[0].is_number_integer() ||
      !ranks[1].is_number_integer()) {
    r.fail("\"ranks\" is not a pair of ranks");
  }
  const auto a = ranks[0].get<std::int64_t>(), b = ranks[1].get<std::int64_t>();
  if (a < 0 || b < 0 || a >= h.nprocs || b >= h.nprocs || a == b) {
    r.fail(fmt::format("\"ranks\" [{}, {}] are not two ranks of 0..{}", a, b, h.nprocs - 1));
  }
  const std::string& host_a = h.hosts[static_cast<std::size_t>(a)];
  const std::string& host_b = h.hosts[static_cast<std::size_t>(b)];
  if ((host_a == host_b) != (s.link == LinkKind::SameNode)) {
    r.fail(fmt::format("inconsistent: a {} message between rank {} on {} and rank {} on {}", link,
                       a, host_a, b, host_b));
  }
  s.bytes = r.integer(j, "bytes", 0, h.max_bytes);
  r.integer(j, "iterations", 1, std::int64_t{1} << 40);
  s.seconds = r.seconds(j, "seconds", false);
  const bool ping_pong =
      test == Test::PingPong || test == Test::PingPongSsend || test == Test::PingPongIsend;
  if (ping_pong && s.seconds == 0) r.fail("a message that took 0 s");
  s.where = r.where();
  return s;
}

}  // namespace

SystemDescription read_benchmark_file(const std::string& file, const std::string& first_line,
                                      std::istream& rest, Measurements& out) {
  const Header h = read_header(LineReader(file, 1), first_line);
  std::size_t line_no = 1, samples = 0;
  bool ended = false;
  for (std::string line; std::getline(rest, line);) {
    ++line_no;
    const LineReader r(file, line_no);
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (ended) r.fail("text after the end line");
    const json j = r.parse(line);
    if (j.contains("end")) {
      if (r.text(j, "end") != "complete") r.fail("the benchmark did not complete");
      const std::int64_t count = r.integer(j, "measurements", 0, std::int64_t{1} << 40);
      if (count != static_cast<std::int64_t>(samples)) {
        r.fail(fmt::format("the end line counts {} measurements, the file has {}", count, samples));
      }
      ended = true;
      continue;
    }
    const std::string name = r.text(j, "test");
    ++samples;
    if (name == "compute") {
      out.compute.push_back(read_compute(r, j, h));
      continue;
    }
    if (name == round_test_name(RoundTest::Exchange) ||
        name == round_test_name(RoundTest::Allreduce)) {
      const RoundTest test =
          name == round_test_name(RoundTest::Exchange) ? RoundTest::Exchange : RoundTest::Allreduce;
      out.rounds.push_back(read_round(r, j, test, h));
      continue;
    }
    const std::optional<Test> test = test_from_name(name);
    if (!test) r.fail(fmt::format("unknown test '{}'", name));
    out.messages.push_back(read_message(r, j, *test, h));
  }
  if (!ended) {
    throw core::FormatError(file, line_no,
                            "truncated: no end line (the benchmark stopped before it finished)");
  }
  out.sources.push_back(fmt::format("{}: {} measurements of {} ranks on {} ({}, {})", file, samples,
                                    h.nprocs, h.hosts.front(), h.system.build,
                                    h.system.mpi_library));
  return h.system;
}

}  // namespace p3s::calibrate
