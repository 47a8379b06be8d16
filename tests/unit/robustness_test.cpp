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

#include <array>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "core/format_error.hpp"
#include "core/run_dir.hpp"
#include "core/trace_format.hpp"
#include "model/slt_json.hpp"
#include "model/slt_scaled_trace.hpp"
#include "model/trace_consistency.hpp"
#include "signature/signature_json.hpp"
#include "sim/platform_spec.hpp"
#include "sim/rank_placement.hpp"
#include "ti/ti_import.hpp"

namespace p3s {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

// What a reader did with a case.
enum class Verdict { Clean, Accepted, Escaped };

// One bad input: `read` hands it to a reader, which must refuse it with core::FormatError
// whose message holds `names` (the file), or with the stage's documented exception
// (std::domain_error for an N an SLT cannot give, std::invalid_argument for platform options).
struct Case {
  std::string parser;
  std::string name;
  std::function<void()> read;
  std::string names;
};

std::string test_name(const ::testing::TestParamInfo<Case>& info) {
  std::string out = info.param.parser + "_" + info.param.name;
  for (char& c : out) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return out;
}

class Robustness : public ::testing::TestWithParam<Case> {};

TEST_P(Robustness, IsRefusedCleanly) {
  const Case& c = GetParam();
  Verdict v = Verdict::Accepted;
  std::string message;
  try {
    c.read();
  } catch (const core::FormatError& e) {
    v = Verdict::Clean;
    message = e.what();
  } catch (const std::domain_error& e) {
    v = c.parser == "slt" ? Verdict::Clean : Verdict::Escaped;
    message = e.what();
  } catch (const std::invalid_argument& e) {
    v = c.parser == "platform" ? Verdict::Clean : Verdict::Escaped;
    message = e.what();
  } catch (const std::exception& e) {
    v = Verdict::Escaped;
    message = e.what();
  }
  const char* verdict = v == Verdict::Clean      ? "clean"
                        : v == Verdict::Accepted ? "ACCEPTED"
                                                 : "ESCAPED";
  std::cout << "robustness: " << c.parser << " " << c.name << " " << verdict << ": " << message
            << "\n";
  EXPECT_EQ(v, Verdict::Clean) << message;
  if (v == Verdict::Clean) {
    EXPECT_NE(message.find(c.names), std::string::npos) << message;
  }
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  if (at == std::string::npos) throw std::logic_error("case does not apply: '" + from + "'");
  text.replace(at, from.size(), to);
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

// A fresh directory for one case, under one for the process that goes when it ends.
fs::path scratch_root() {
  return fs::temp_directory_path() / ("p3s-robustness-" + std::to_string(::getpid()));
}

fs::path scratch(const std::string& name) {
  const fs::path dir = scratch_root() / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

class ScratchCleanup : public ::testing::Environment {
 public:
  void TearDown() override { fs::remove_all(scratch_root()); }
};
const auto* const kCleanup = ::testing::AddGlobalTestEnvironment(new ScratchCleanup);

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

TEST(RobustnessInputs, TheValidTraceReads) {
  EXPECT_EQ(core::parse_rank_trace(kTrace, "t").events.size(), 6u);
}

std::vector<Case> rank_trace_cases() {
  const std::vector<std::array<std::string, 3>> edits = {
      {"comm-range-to-int32-max", "comm 1 1 0\n", "comm 1 1 0\ncomm 2 1 2147483647-2147483647\n"},
      {"comm-range-of-2^31-ranks", "comm 1 1 0\n", "comm 1 1 0\ncomm 2 2147483647 0-2147483646\n"},
      {"bytes-near-2^63", "isend 300 400 60 1 0 128", "isend 300 400 60 1 0 9223372036854775000"},
      {"negative-request-bytes", "= 0 r 3 0 128", "= 0 r 3 0 -5"},
      {"negative-times", "irecv 100 200", "irecv -300 -200"},
      {"burst-cpu-beyond-its-wall-time", "irecv 100 200 50", "irecv 100 200 150"},
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
  std::vector<Case> cases;
  for (const auto& [name, from, to] : edits) {
    const std::string text = replaced(kTrace, from, to);
    cases.push_back(
        {"rank-trace", name, [text] { core::parse_rank_trace(text, "bad.p3st"); }, "bad.p3st:"});
  }
  cases.push_back({"rank-trace", "a-directory", [] { core::read_rank_trace(scratch("trace-dir")); },
                   "trace-dir"});
  return cases;
}
INSTANTIATE_TEST_SUITE_P(RankTrace, Robustness, ::testing::ValuesIn(rank_trace_cases()), test_name);

// ---- run.json ---------------------------------------------------------------------------------

const json kRun = json::parse(R"({
  "clock": {"cpu": "CLOCK_THREAD_CPUTIME_ID", "wall": "CLOCK_MONOTONIC"},
  "command": ["mpirun", "-np", "4", "./app"], "complete": true, "counters": [],
  "date": "2026-11-24T20:29:55Z", "exit_code": 0, "format": "p3s-run 1", "host": "vm",
  "nprocs": 4, "source": "p3s-trace", "wall_seconds": 0.5, "workload": null})");

json edited(json j, const std::string& pointer, const json& value) {
  j[json::json_pointer(pointer)] = value;
  return j;
}

TEST(RobustnessInputs, AValidRunJsonReads) {
  const fs::path dir = scratch("valid-run");
  std::ofstream(dir / "run.json") << kRun.dump(2);
  EXPECT_EQ(core::read_run_info(dir).nprocs, 4);
}

std::vector<Case> run_json_cases() {
  const std::vector<std::tuple<std::string, std::string, json>> edits = {
      {"nprocs-4.7", "/nprocs", 4.7},
      {"nprocs-0", "/nprocs", 0},
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
  std::vector<Case> cases;
  for (const auto& edit : edits) {
    // Named copies: lambdas cannot capture structured bindings before clang 16.
    const std::string name = std::get<0>(edit);
    const std::string text = edited(kRun, std::get<1>(edit), std::get<2>(edit)).dump(2);
    cases.push_back({"run.json", name,
                     [text, name] {
                       const fs::path dir = scratch("run-" + name);
                       std::ofstream(dir / "run.json") << text;
                       core::read_run_info(dir);
                     },
                     "run.json"});
  }
  cases.push_back({"run.json", "a-directory",
                   [] {
                     const fs::path dir = scratch("run-dir");
                     fs::create_directory(dir / "run.json");
                     core::read_run_info(dir);
                   },
                   "run.json"});
  cases.push_back({"run.json", "written-on-a-full-disk",
                   [] {
                     // A full disk shows when the file is closed: not an empty run.json.
                     const fs::path dir = scratch("run-full");
                     fs::create_symlink("/dev/full", dir / "run.json");
                     core::RunInfo info;
                     info.nprocs = 2;
                     try {
                       core::write_run_info(dir, info);
                     } catch (const std::exception& e) {
                       throw core::FormatError((dir / "run.json").string(), 0, e.what());
                     }
                   },
                   "run.json"});
  return cases;
}
INSTANTIATE_TEST_SUITE_P(RunJson, Robustness, ::testing::ValuesIn(run_json_cases()), test_name);

// ---- signature.json ---------------------------------------------------------------------------

TEST(RobustnessInputs, TheSignatureSeedReads) {
  const json base = json::parse(read_file(seeds() / "fuzz_signature_json" / "ring-2.json"));
  EXPECT_NO_THROW(signature::signature_from_json(base, "valid"));
}

std::vector<Case> signature_cases() {
  const std::vector<std::tuple<std::string, std::string, json>> edits = {
      {"comms-0-2147483646", "/ranks/0/comms/1", "0-2147483646"},
      {"comms-2147483647", "/ranks/0/comms/1", "2147483647-2147483647"},
      {"comms-duplicate-member", "/ranks/0/comms/0", "0,0"},
      {"nprocs-2.7", "/run/nprocs", 2.7},
      {"event-bytes-9.3e18", "/ranks/0/phases/0/events/0/bytes", 9.3e18},
      {"call-time-spread-1e205-seconds", "/ranks/0/phases/0/events/0/call/stddev", 1.1e205},
      {"event-negative-tag", "/ranks/0/phases/0/events/0/tag", -7},
      {"event-peer-beyond-the-run", "/ranks/0/phases/0/events/0/dst", 1000},
      {"threshold-5", "/threshold", 5},
      {"aet-1e300-seconds", "/aet_seconds", 1e300},
      {"phase-weight-2.5", "/ranks/0/phases/0/weight", 2.5},
      {"phase-weight-0", "/ranks/0/phases/0/weight", 0},
      {"phase-weight-as-text", "/ranks/0/phases/0/weight", "3"},
      {"run-workload-without-size", "/run/workload", json{{"label", "grid"}, {"size", nullptr}}},
      {"negative-run-seconds", "/ranks/0/run_seconds", -4},
  };
  std::vector<Case> cases;
  for (const auto& edit : edits) {
    const std::string pointer = std::get<1>(edit);
    const json value = std::get<2>(edit);
    cases.push_back({"signature.json", std::get<0>(edit),
                     [pointer, value] {
                       const json base =
                           json::parse(read_file(seeds() / "fuzz_signature_json" / "ring-2.json"));
                       signature::signature_from_json(edited(base, pointer, value), "bad.json");
                     },
                     "bad.json"});
  }
  return cases;
}
INSTANTIATE_TEST_SUITE_P(SignatureJson, Robustness, ::testing::ValuesIn(signature_cases()),
                         test_name);

// ---- SLT --------------------------------------------------------------------------------------

// The SLT read, then instantiated at N = 4 and 8 with every rank's events and the consistency
// check, as generate does: a refusal must come as FormatError (reading) or std::domain_error
// (an N the model cannot give, an inconsistent ST4NP).
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
    const model::ConsistencyReport report = model::check_consistency(trace);
    if (!report.consistent()) throw std::domain_error(report.problems.front());
  }
}

json ring_slt() {
  return json::parse(read_file(seeds() / "fuzz_slt" / "ring.slt"));
}

TEST(RobustnessInputs, TheSltSeedInstantiates) {
  const json base = ring_slt();
  // The ring's main phase (a send and a receive on a ring) and its last one (a reduce to 0).
  ASSERT_EQ(base.at("phases").size(), 2u);
  EXPECT_NO_THROW(read_and_instantiate(base));
}

std::vector<Case> slt_cases() {
  const std::vector<std::tuple<std::string, std::string, json>> edits = {
      {"order-names-a-missing-slot", "/phases/0/order/variants/0/0", 99},
      {"order-modulus-0", "/phases/0/order/modulus", 0},
      {"shift-distance-int64-max", "/phases/0/dst/model/rules/0/distance/constant", INT64_MAX},
      {"formula-coefficient-int64-max", "/phases/0/dst/model/rules/0/distance/terms",
       json::array({{{"coefficient", INT64_MAX}, {"basis", "n"}}})},
      {"negative-slot-shares", "/compute/phases/0/slot_shares/0", -5},
      {"root-outside-the-ranks", "/phases/1/root/model/rules/0/peer/constant", 100},
      {"compute-modulus-2^62", "/compute/phases/0/groups/0/modulus", std::int64_t{1} << 62},
      {"runs-4.7", "/runs/0", 4.7},
      {"slot-tag-4.5", "/phases/0/slots/0/tag", 4.5},
      {"reduce-slot-that-sends", "/phases/1/slots/0/sends", true},
      {"coverage-share-7", "/coverage/0/modelled", 7},
  };
  std::vector<Case> cases;
  for (const auto& edit : edits) {
    const std::string pointer = std::get<1>(edit);
    const json value = std::get<2>(edit);
    cases.push_back({"slt", std::get<0>(edit),
                     [pointer, value] { read_and_instantiate(edited(ring_slt(), pointer, value)); },
                     ""});
  }
  cases.push_back({"slt", "a-deleted-slot",
                   [] {
                     json j = ring_slt();
                     j["phases"][0]["slots"].erase(j["phases"][0]["slots"].size() - 1);
                     read_and_instantiate(j);
                   },
                   ""});
  return cases;
}
INSTANTIATE_TEST_SUITE_P(Slt, Robustness, ::testing::ValuesIn(slt_cases()), test_name);

// ---- SimGrid TI traces ------------------------------------------------------------------------

// A two-rank SMPI trace: each rank computes, exchanges one message and finishes.
const std::string kTiRank0 =
    "0 init\n0 compute 2000\n0 send 1 0 16 0\n0 recv 1 0 16 0\n0 finalize\n";
const std::string kTiRank1 =
    "1 init\n1 compute 2000\n1 recv 0 0 16 0\n1 send 0 0 16 0\n1 finalize\n";

// Imports the trace with `rank0` as rank 0's file; what was imported must read back.
void import_two_ranks(const std::string& name, const std::string& rank0) {
  const fs::path dir = scratch("ti-" + name);
  std::ofstream(dir / "r1.txt") << rank0;
  std::ofstream(dir / "r2.txt") << kTiRank1;
  std::ofstream(dir / "trace.txt") << "r1.txt\nr2.txt\n";
  const ti::TiImport import = ti::import_ti(dir / "trace.txt", {20000, std::nullopt, dir});
  fs::create_directories(dir / "run");
  ti::write_ti_import(dir / "run", import);
  core::read_run_rank(dir / "run", import.info, 0);
}

TEST(RobustnessInputs, TheValidTiTraceImports) {
  EXPECT_NO_THROW(import_two_ranks("valid", kTiRank0));
}

std::vector<Case> ti_cases() {
  const std::vector<std::array<std::string, 3>> edits = {
      {"count-times-type-size-overflows", "0 send 1 0 16 0", "0 send 1 0 4611686018427387904 0"},
      {"count-beyond-int64", "0 send 1 0 16 0", "0 send 1 0 92233720368547758070 0"},
      // Each compute is 7.5e18 ns at 20,000 flop/s, within int64; both are not.
      {"clock-overflows", "0 compute 2000", "0 compute 1.5e14\n0 compute 1.5e14"},
      {"negative-tag", "0 send 1 0 16 0", "0 send 1 -5 16 0"},
  };
  std::vector<Case> cases;
  for (const auto& edit : edits) {
    const std::string name = edit[0];
    const std::string rank0 = replaced(kTiRank0, edit[1], edit[2]);
    cases.push_back({"ti", name, [name, rank0] { import_two_ranks(name, rank0); }, "r1.txt"});
  }
  return cases;
}
INSTANTIATE_TEST_SUITE_P(TiImport, Robustness, ::testing::ValuesIn(ti_cases()), test_name);

// ---- platform options -------------------------------------------------------------------------

std::vector<Case> platform_cases() {
  const std::vector<std::pair<std::string, std::function<void(sim::PlatformSpec&)>>> edits = {
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
  std::vector<Case> cases;
  for (const auto& named : edits) {
    const std::function<void(sim::PlatformSpec&)> edit = named.second;
    cases.push_back({"platform", named.first,
                     [edit] {
                       sim::PlatformSpec spec;
                       edit(spec);
                       sim::platform_xml(spec);
                     },
                     ""});
  }
  return cases;
}
INSTANTIATE_TEST_SUITE_P(Platform, Robustness, ::testing::ValuesIn(platform_cases()), test_name);

// --ranks-per-host 2147483647 overflowed in placement (undefined behaviour, then a wrong host).
TEST(RobustnessInputs, PlacementOfHugeRanksPerHost) {
  EXPECT_EQ(sim::place_ranks(8, 4, INT32_MAX, sim::Mapping::Block), std::vector<int>(8, 0));
  EXPECT_EQ(sim::place_ranks(8, 4, INT32_MAX, sim::Mapping::Cyclic), std::vector<int>(8, 0));
}

}  // namespace
}  // namespace p3s
