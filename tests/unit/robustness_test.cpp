// Bad input, one fault per case, through every reader p3s has: each must be refused with a
// clean error (core::FormatError naming the file, or the documented exception of the stage),
// never accepted, never a crash. The cases are the reproducers of issue 10 and the classes of
// fault behind them: values out of range or of the wrong type, arithmetic that overflows,
// structures that name what does not exist. Each case is a valid file, written or read from a
// real output (fuzz/seeds/), with one thing broken.
//
// The test prints "robustness: PARSER CASE VERDICT" for each case, so the same file built
// against an older p3s shows what it did (clean, accepted, or which exception escaped).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/format_error.hpp"
#include "core/run_dir.hpp"
#include "core/ti_import.hpp"
#include "core/trace_format.hpp"
#include "model/slt_json.hpp"
#include "model/slt_scaled_trace.hpp"
#include "model/trace_consistency.hpp"
#include "signature/signature_json.hpp"
#include "sim/platform_spec.hpp"
#include "sim/rank_placement.hpp"

namespace p3s {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

// What a reader did with a case.
enum class Verdict { Clean, Accepted, Escaped };

std::string verdict_name(Verdict v, const std::string& detail) {
  switch (v) {
    case Verdict::Clean:
      return "clean";
    case Verdict::Accepted:
      return "ACCEPTED";
    case Verdict::Escaped:
      break;
  }
  return "ESCAPED(" + detail + ")";
}

// Runs `read`; the exceptions in `clean` count as clean refusals, any other escaping exception
// is reported by name, and no exception means the bad input was accepted.
template <typename Read>
Verdict judge(const std::string& parser, const std::string& name, Read&& read,
              std::string& message) {
  Verdict v = Verdict::Accepted;
  std::string detail;
  try {
    read();
  } catch (const core::FormatError& e) {
    v = Verdict::Clean;
    message = e.what();
  } catch (const std::domain_error& e) {
    // The SLT's documented refusal of an N (instantiation).
    v = Verdict::Clean;
    message = e.what();
  } catch (const std::invalid_argument& e) {
    // The platform writer's documented refusal.
    v = parser == "platform" ? Verdict::Clean : Verdict::Escaped;
    message = e.what();
    detail = "invalid_argument: " + message;
  } catch (const std::exception& e) {
    v = Verdict::Escaped;
    detail = e.what();
  }
  std::cout << "robustness: " << parser << " " << name << " " << verdict_name(v, detail) << "\n";
  return v;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "case does not apply: '" << from << "'";
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

std::string read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

fs::path seeds() {
  return fs::path(P3S_SOURCE_DIR) / "fuzz" / "seeds";
}

class Scratch : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("p3s-robustness-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

// ---- rank traces ------------------------------------------------------------------------------

const std::string kTrace =
    "p3s-trace 1\n"
    "rank 0\n"
    "nprocs 4\n"
    "host h\n"
    "counters none\n"
    "clock wall=CLOCK_MONOTONIC cpu=CLOCK_THREAD_CPUTIME_ID cpu_min_ns=2000\n"
    "start_unix_ns 1795867200000000000\n"
    "comm 0 4 0-3\n"
    "comm 1 1 0\n"
    "irecv 100 200 50 -1 -1 0 3 0 128 0 -1 0\n"
    "isend 300 400 60 1 0 128 -1 -1 0 0 -1 1\n"
    "waitall 500 600 70 -1 -1 0 -1 -1 0 0 -1 -1\n"
    "= 0 r 3 0 128\n"
    "= 1 s 1 0 128\n"
    "allreduce 700 800 80 -1 -1 8 -1 -1 8 0 -1 -1\n"
    "reduce 900 1000 10 -1 -1 8 -1 -1 8 0 0 -1\n"
    "finalize 1100 1100 5 -1 -1 0 -1 -1 0 0 -1 -1\n"
    "end complete 6\n";

struct TextCase {
  std::string name;
  std::string from;
  std::string to;
};

TEST(Robustness, TheValidTraceReads) {
  EXPECT_EQ(core::parse_rank_trace(kTrace, "t").events.size(), 6u);
}

TEST(Robustness, RankTraceFaultsAreRefused) {
  const std::vector<TextCase> cases = {
      {"comm-range-to-int32-max", "comm 1 1 0\n", "comm 1 1 0\ncomm 2 1 2147483647-2147483647\n"},
      {"comm-range-of-2^31-ranks", "comm 1 1 0\n", "comm 1 1 0\ncomm 2 2147483647 0-2147483646\n"},
      {"bytes-near-2^63", "isend 300 400 60 1 0 128", "isend 300 400 60 1 0 9223372036854775000"},
      {"negative-request-bytes", "= 0 r 3 0 128", "= 0 r 3 0 -5"},
      {"negative-times", "irecv 100 200", "irecv -300 -200"},
      {"negative-cpu-min-ns", "cpu_min_ns=2000", "cpu_min_ns=-7"},
      {"negative-start-time", "start_unix_ns 1795867200000000000", "start_unix_ns -1"},
      {"end-signal-minus-9", "end complete 6", "end signal -9 6"},
      {"duplicate-communicator-members", "comm 0 4 0-3", "comm 0 4 0,1,1,3"},
      {"world-smaller-than-nprocs", "comm 0 4 0-3", "comm 0 3 0-2"},
      {"allreduce-with-a-destination", "allreduce 700 800 80 -1 -1 8",
       "allreduce 700 800 80 2 0 8"},
      {"reduce-without-root", "reduce 900 1000 10 -1 -1 8 -1 -1 8 0 0 -1",
       "reduce 900 1000 10 -1 -1 8 -1 -1 8 0 -1 -1"},
      {"allreduce-with-a-root", "allreduce 700 800 80 -1 -1 8 -1 -1 8 0 -1 -1",
       "allreduce 700 800 80 -1 -1 8 -1 -1 8 0 2 -1"},
      {"send-to-any-source", "isend 300 400 60 1 0", "isend 300 400 60 -2 0"},
      {"negative-tag", "isend 300 400 60 1 0", "isend 300 400 60 1 -5"},
      {"bytes-without-destination", "isend 300 400 60 1 0 128", "isend 300 400 60 -1 -1 128"},
      {"bytes-on-a-wait", "waitall 500 600 70 -1 -1 0", "waitall 500 600 70 -1 -1 16"},
      {"negative-request-id", "= 1 s 1 0 128", "= -3 s 1 0 128"},
      {"negative-communicator-id", "comm 1 1 0\n", "comm 1 1 0\ncomm -4 1 0\n"},
  };
  for (const TextCase& c : cases) {
    const std::string text = replaced(kTrace, c.from, c.to);
    std::string message;
    EXPECT_EQ(judge(
                  "rank-trace", c.name, [&] { core::parse_rank_trace(text, "bad.p3st"); }, message),
              Verdict::Clean)
        << c.name;
    EXPECT_NE(message.find("bad.p3st:"), std::string::npos) << c.name << ": " << message;
  }
}

TEST_F(Scratch, ADirectoryWhereATraceIsExpectedIsNamed) {
  std::string message;
  EXPECT_EQ(judge(
                "rank-trace", "a-directory", [&] { core::read_rank_trace(dir_); }, message),
            Verdict::Clean);
  EXPECT_NE(message.find(dir_.string()), std::string::npos) << message;
}

// ---- run.json ---------------------------------------------------------------------------------

const json kRun = json::parse(R"({
  "clock": {"cpu": "CLOCK_THREAD_CPUTIME_ID", "wall": "CLOCK_MONOTONIC"},
  "command": ["mpirun", "-np", "4", "./app"], "complete": true, "counters": [],
  "date": "2026-11-24T20:29:55Z", "exit_code": 0, "format": "p3s-run 1", "host": "vm",
  "nprocs": 4, "source": "p3s-trace", "wall_seconds": 0.5, "workload": null})");

struct JsonCase {
  std::string name;
  std::string pointer;  // the value to replace ("" removes nothing)
  json value;
};

json edited(json j, const JsonCase& c) {
  j[json::json_pointer(c.pointer)] = c.value;
  return j;
}

TEST_F(Scratch, RunJsonFaultsAreRefused) {
  const std::vector<JsonCase> cases = {
      {"nprocs-4.7", "/nprocs", 4.7},
      {"nprocs-as-text", "/nprocs", "4"},
      {"nprocs-2^40", "/nprocs", std::int64_t{1} << 40},
      {"nprocs-1e30", "/nprocs", 1e30},
      {"exit-code-1e20", "/exit_code", 1e20},
      {"workload-size-0", "/workload", json{{"label", "grid"}, {"size", 0}}},
      {"workload-size-negative", "/workload", json{{"label", "grid"}, {"size", -3}}},
      {"workload-size-null", "/workload", json{{"label", "grid"}, {"size", nullptr}}},
      {"negative-wall-seconds", "/wall_seconds", -1},
      {"four-counters", "/counters", json{"a", "b", "c", "d"}},
      {"unknown-source", "/source", "somewhere"},
      {"complete-as-number", "/complete", 1},
  };
  for (const JsonCase& c : cases) {
    std::ofstream(dir_ / "run.json") << edited(kRun, c).dump(2);
    std::string message;
    EXPECT_EQ(judge(
                  "run.json", c.name, [&] { core::read_run_info(dir_); }, message),
              Verdict::Clean)
        << c.name;
  }
  fs::remove(dir_ / "run.json");
  fs::create_directory(dir_ / "run.json");
  std::string message;
  EXPECT_EQ(judge(
                "run.json", "a-directory", [&] { core::read_run_info(dir_); }, message),
            Verdict::Clean);
  EXPECT_NE(message.find("run.json"), std::string::npos) << message;
}

TEST_F(Scratch, ReadingAValidRunJsonStillWorks) {
  std::ofstream(dir_ / "run.json") << kRun.dump(2);
  EXPECT_EQ(core::read_run_info(dir_).nprocs, 4);
}

// A full disk shows when the file is closed: run.json must not be left empty without an error.
TEST_F(Scratch, RunJsonOnAFullDiskIsAnError) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full here";
  fs::create_symlink("/dev/full", dir_ / "run.json");
  core::RunInfo info;
  info.nprocs = 2;
  bool failed = false;
  try {
    core::write_run_info(dir_, info);
  } catch (const std::exception& e) {
    failed = true;
    EXPECT_NE(std::string(e.what()).find("run.json"), std::string::npos) << e.what();
  }
  std::cout << "robustness: run.json full-disk-write " << (failed ? "clean" : "ACCEPTED") << "\n";
  EXPECT_TRUE(failed) << "writing run.json on a full disk reported no error";
}

// ---- signature.json ---------------------------------------------------------------------------

TEST(Robustness, SignatureJsonFaultsAreRefused) {
  const json base = json::parse(read_file(seeds() / "fuzz_signature_json" / "ring-2.json"));
  ASSERT_NO_THROW(signature::signature_from_json(base, "valid"));
  const std::vector<JsonCase> cases = {
      {"comms-0-2147483646", "/ranks/0/comms/1", "0-2147483646"},
      {"comms-2147483647", "/ranks/0/comms/1", "2147483647-2147483647"},
      {"comms-duplicate-member", "/ranks/0/comms/0", "0,0"},
      {"nprocs-2.7", "/run/nprocs", 2.7},
      {"event-bytes-9.3e18", "/ranks/0/phases/0/events/0/bytes", 9.3e18},
      {"event-negative-tag", "/ranks/0/phases/0/events/0/tag", -7},
      {"event-peer-beyond-the-run", "/ranks/0/phases/0/events/0/dst", 1000},
      {"threshold-5", "/threshold", 5},
      {"aet-1e300-seconds", "/aet_seconds", 1e300},
      {"phase-weight-2.5", "/ranks/0/phases/0/weight", 2.5},
      {"phase-weight-as-text", "/ranks/0/phases/0/weight", "3"},
      {"run-workload-infinite", "/run/workload", json{{"label", "grid"}, {"size", nullptr}}},
      {"negative-run-seconds", "/ranks/0/run_seconds", -4},
  };
  for (const JsonCase& c : cases) {
    const json j = edited(base, c);
    std::string message;
    EXPECT_EQ(judge(
                  "signature.json", c.name, [&] { signature::signature_from_json(j, "bad.json"); },
                  message),
              Verdict::Clean)
        << c.name;
  }
}

// ---- SLT --------------------------------------------------------------------------------------

// The case's SLT read, then instantiated at N = 4 and 8 with every rank's events and the
// consistency check, as generate does: a refusal must come as FormatError (reading) or
// std::domain_error (an N the model cannot give).
void read_and_instantiate(const json& j) {
  const model::Slt slt = model::slt_from_json(j, "bad.slt");
  for (const int n : {4, 8}) {
    const model::SltScaledTrace trace(slt, n);
    std::vector<core::Event> events;
    for (int p = 0; p < static_cast<int>(trace.phases().size()); ++p) {
      for (int r = 0; r < n; ++r) {
        events.clear();
        trace.phase_events(p, r, events);
        for (const core::Event& e : events) {
          if (e.bytes < 0 || e.rbytes < 0 || e.burst_cpu < 0)
            throw std::logic_error("negative bytes or compute at N = " + std::to_string(n));
          if (core::is_rooted(e.op) && (e.root < 0 || e.root >= n))
            throw std::logic_error("a rooted collective without a root at N = " +
                                   std::to_string(n));
        }
      }
    }
    // generate refuses an inconsistent ST4NP, by name.
    const model::ConsistencyReport report = model::check_consistency(trace);
    if (!report.consistent()) throw std::domain_error(report.problems.front());
  }
}

TEST(Robustness, SltFaultsAreRefused) {
  const json base = json::parse(read_file(seeds() / "fuzz_slt" / "ring.slt"));
  ASSERT_NO_THROW(read_and_instantiate(base));
  // The ring's main phase (a send and a receive on a ring) and its last one (a reduce to 0).
  ASSERT_EQ(base.at("phases").size(), 2u);
  json no_slot = base;
  no_slot["phases"][0]["slots"].erase(no_slot["phases"][0]["slots"].size() - 1);
  json big_coefficient = base;
  big_coefficient["phases"][0]["dst"]["model"]["rules"][0]["distance"]["terms"] =
      json::array({{{"coefficient", INT64_MAX}, {"basis", "n"}}});
  const std::vector<std::pair<std::string, json>> cases = {
      {"order-names-a-missing-slot", edited(base, {"", "/phases/0/order/variants/0/0", 99})},
      {"a-deleted-slot", no_slot},
      {"shift-distance-int64-max",
       edited(base, {"", "/phases/0/dst/model/rules/0/distance/constant", INT64_MAX})},
      {"formula-coefficient-int64-max", big_coefficient},
      {"negative-slot-shares", edited(base, {"", "/compute/phases/0/slot_shares/0", -5})},
      {"root-outside-the-ranks",
       edited(base, {"", "/phases/1/root/model/rules/0/peer/constant", 100})},
      {"compute-modulus-2^62",
       edited(base, {"", "/compute/phases/0/groups/0/modulus", std::int64_t{1} << 62})},
      {"runs-4.7", edited(base, {"", "/runs/0", 4.7})},
      {"slot-tag-4.5", edited(base, {"", "/phases/0/slots/0/tag", 4.5})},
      {"reduce-slot-that-sends", edited(base, {"", "/phases/1/slots/0/sends", true})},
      {"coverage-share-7", edited(base, {"", "/coverage/0/modelled", 7})},
  };
  for (const auto& [name, j] : cases) {
    std::string message;
    EXPECT_EQ(judge(
                  "slt", name, [&] { read_and_instantiate(j); }, message),
              Verdict::Clean)
        << name;
  }
}

// ---- SimGrid TI traces ------------------------------------------------------------------------

TEST_F(Scratch, TiImportFaultsAreRefused) {
  // A two-rank SMPI trace: each rank computes, exchanges one message and finishes.
  const std::string rank0 =
      "0 init\n0 compute 2000\n0 send 1 0 16 0\n0 recv 1 0 16 0\n0 finalize\n";
  const std::string rank1 =
      "1 init\n1 compute 2000\n1 recv 0 0 16 0\n1 send 0 0 16 0\n1 finalize\n";
  struct TiCase {
    std::string name;
    std::string rank0;
  };
  const std::vector<TiCase> cases = {
      {"count-times-type-size-overflows",
       replaced(rank0, "0 send 1 0 16 0", "0 send 1 0 4611686018427387904 0")},
      {"count-beyond-int64",
       replaced(rank0, "0 send 1 0 16 0", "0 send 1 0 92233720368547758070 0")},
      {"clock-overflows", replaced(rank0, "0 compute 2000", "0 compute 9e22\n0 compute 9e22")},
      {"negative-tag", replaced(rank0, "0 send 1 0 16 0", "0 send 1 -5 16 0")},
  };
  const auto valid = [&](const std::string& r0) {
    std::ofstream(dir_ / "r1.txt") << r0;
    std::ofstream(dir_ / "r2.txt") << rank1;
    std::ofstream(dir_ / "trace.txt") << "r1.txt\nr2.txt\n";
  };
  valid(rank0);
  ASSERT_NO_THROW(core::import_ti(dir_ / "trace.txt", {20000, std::nullopt, dir_}));
  for (const TiCase& c : cases) {
    valid(c.rank0);
    std::string message;
    EXPECT_EQ(judge(
                  "ti", c.name,
                  [&] {
                    const core::TiImport import =
                        core::import_ti(dir_ / "trace.txt", {20000, std::nullopt, dir_});
                    // What was imported must read back as p3s traces.
                    fs::create_directories(dir_ / "run");
                    core::write_ti_import(dir_ / "run", import);
                    core::read_run_rank(dir_ / "run", import.info, 0);
                  },
                  message),
              Verdict::Clean)
        << c.name;
  }
}

// ---- platform options -------------------------------------------------------------------------

TEST(Robustness, PlatformFaultsAreRefused) {
  struct PlatformCase {
    std::string name;
    void (*edit)(sim::PlatformSpec&);
  };
  const std::vector<PlatformCase> cases = {
      {"negative-bandwidth", [](sim::PlatformSpec& s) { s.bandwidth = "-5Gbps"; }},
      {"zero-bandwidth", [](sim::PlatformSpec& s) { s.bandwidth = "0Gbps"; }},
      {"negative-latency", [](sim::PlatformSpec& s) { s.latency = "-1us"; }},
      {"zero-speed", [](sim::PlatformSpec& s) { s.speed = "0Gf"; }},
      {"unknown-bandwidth-unit", [](sim::PlatformSpec& s) { s.bandwidth = "10Gbpz"; }},
      {"latency-in-bytes", [](sim::PlatformSpec& s) { s.latency = "1MB"; }},
      {"infinite-bandwidth", [](sim::PlatformSpec& s) { s.bandwidth = "1e400Gbps"; }},
      {"junk-bw-factor", [](sim::PlatformSpec& s) { s.bw_factor = "junk"; }},
      {"negative-lat-factor", [](sim::PlatformSpec& s) { s.lat_factor = "0:-1"; }},
      {"os-without-per-byte", [](sim::PlatformSpec& s) { s.os = "1:2"; }},
      {"dragonfly-of-2^31-hosts",
       [](sim::PlatformSpec& s) {
         s.hosts = INT32_MAX;
         s.topology = sim::Topology::Dragonfly;
       }},
  };
  for (const PlatformCase& c : cases) {
    sim::PlatformSpec spec;
    c.edit(spec);
    std::string message;
    EXPECT_EQ(judge(
                  "platform", c.name, [&] { sim::platform_xml(spec); }, message),
              Verdict::Clean)
        << c.name;
  }
}

// --ranks-per-host 2147483647 overflowed in placement (undefined behaviour, then a wrong host).
TEST(Robustness, PlacementOfHugeRanksPerHost) {
  const std::vector<int> hosts = sim::place_ranks(8, 4, INT32_MAX, sim::Mapping::Block);
  EXPECT_EQ(hosts, std::vector<int>(8, 0));
  EXPECT_EQ(sim::place_ranks(8, 4, INT32_MAX, sim::Mapping::Cyclic), std::vector<int>(8, 0));
}

}  // namespace
}  // namespace p3s
