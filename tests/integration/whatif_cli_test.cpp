// `p3s whatif` as a user runs it, on the model of the SMPI build of the 2D stencil (trained at
// n = 4, 9, 16, 25 under smpirun on simgrid_platforms/default.xml, as in predict_cli_test):
// what the variants must predict follows from the platforms' parameters and the stencil's
// declared compute, not from p3s's own output; bad input gives a clear message, and a variant or
// a point that fails is named while the others are still reported.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "csv_rows.hpp"
#include "integration/run_helpers.hpp"
#include "integration/smpi_truth.hpp"

namespace p3s::testing {
namespace {

namespace fs = std::filesystem;

constexpr int kEdge = 64, kIters = 40;  // stencil2d: local block edge, iterations
// stencil2d.c: 10 flops per cell of the edge x edge block per iteration, at 1 Gflop/s: the
// compute of every rank at every N (weak scaling: the block per rank is fixed).
constexpr double kComputeSeconds = 10.0 * kEdge * kEdge * kIters / 1e9;

CommandResult p3s(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {p3s_bin()};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_command(argv);
}

std::string slurp(const fs::path& file) {
  std::ifstream in(file);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

nlohmann::json read_json(const fs::path& file) {
  std::ifstream in(file);
  if (!in) {
    ADD_FAILURE() << "cannot read " << file;
    return nlohmann::json::object();
  }
  return nlohmann::json::parse(in);
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++count;
  }
  return count;
}

// The stencil's model, trained once for every test here.
class WhatifCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(scratch_dir("whatif-cli"));
    SmpiTraining t;
    train_from_smpi(*dir_, "stencil2d", {std::to_string(kEdge), std::to_string(kIters)},
                    {4, 9, 16, 25}, t);
    std::vector<std::string> model = {"model"};
    model.insert(model.end(), t.runs.begin(), t.runs.end());
    model.insert(model.end(), {"-o", (*dir_ / "app.slt").string()});
    const CommandResult r = p3s(model);
    if (r.exit_code != 0) ADD_FAILURE() << r.output;
  }
  static void TearDownTestSuite() { delete dir_; }
  void SetUp() override {
    if (!fs::is_regular_file(slt())) GTEST_SKIP_("no model: the training failed (see above)");
  }

  static fs::path slt() { return *dir_ / "app.slt"; }
  static fs::path dir() { return *dir_; }

  // p3s platform -o DIR/NAME --hosts H ARGS...
  static std::string platform(const std::string& name, int hosts,
                              const std::vector<std::string>& args = {}) {
    const fs::path file = *dir_ / name;
    std::vector<std::string> argv = {"platform", "-o", file.string(), "--hosts",
                                     std::to_string(hosts)};
    argv.insert(argv.end(), args.begin(), args.end());
    const CommandResult r = p3s(argv);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return file.string();
  }

  // p3s whatif app.slt ARGS... -o DIR/OUT
  static CommandResult whatif(const std::string& out, const std::vector<std::string>& args) {
    std::vector<std::string> argv = {"whatif", slt().string()};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.insert(argv.end(), {"-o", (*dir_ / out).string()});
    return p3s(argv);
  }

  // variant id -> N -> PET, from whatif.json.
  static std::map<std::string, std::map<std::int64_t, double>> pets(const nlohmann::json& j) {
    std::map<std::string, std::map<std::int64_t, double>> out;
    for (const auto& p : j.at("points")) {
      out[p.at("variant").get<std::string>()][p.at("n").get<std::int64_t>()] =
          p.at("pet_seconds").get<double>();
    }
    return out;
  }

  static fs::path* dir_;
};

fs::path* WhatifCli::dir_ = nullptr;

TEST_F(WhatifCli, TwiceTheBandwidthAndTwiceTheCpu) {
  // One rank per host: the cost of sharing cores, carried through, changes nothing here.
  const std::string base = platform("flat.xml", 256, {"--shared-core-round", "2.5e-06"});
  const CommandResult r = whatif("bw-cpu", {"-n", "64,256", "--platform", base, "--bandwidth", "x2",
                                            "--cpu-speedup", "2", "--repetitions", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const fs::path out = dir() / "bw-cpu";
  const nlohmann::json j = read_json(out / "whatif.json");
  EXPECT_EQ(j.at("format").get<std::string>(), "p3s-whatif 1");
  // Each axis starts from the platform as given: v1 itself, v2 its CPU x2, v3 its bandwidth x2,
  // v4 both.
  ASSERT_EQ(j.at("variants").size(), 4u) << j.dump(2);
  const auto& v = j.at("variants");
  EXPECT_EQ(v[0].at("platform").get<std::string>(), base);
  EXPECT_EQ(v[1].at("cpu_speedup").get<double>(), 2.0);
  EXPECT_EQ(v[1].at("bandwidth_factor").get<double>(), 1.0);
  EXPECT_EQ(v[2].at("cpu_speedup").get<double>(), 1.0);
  EXPECT_EQ(v[2].at("bandwidth_factor").get<double>(), 2.0);
  EXPECT_EQ(v[3].at("cpu_speedup").get<double>(), 2.0);
  EXPECT_EQ(v[3].at("bandwidth_factor").get<double>(), 2.0);
  // The doubled platform, written by the platform writer: 20 Gb/s links, all else the same.
  const std::string doubled = slurp(v[2].at("platform").get<std::string>());
  EXPECT_NE(doubled.find("bw=\"20Gbps\""), std::string::npos) << doubled;
  EXPECT_NE(doubled.find("lat=\"1us\""), std::string::npos) << doubled;
  EXPECT_NE(doubled.find("radical=\"0-255\""), std::string::npos) << doubled;
  EXPECT_NE(doubled.find("<prop id=\"p3s/shared-core-round\" value=\"2.5e-06\"/>"),
            std::string::npos)
      << doubled;

  const auto pet = pets(j);
  for (const std::int64_t n : {64, 256}) {
    SCOPED_TRACE("N = " + std::to_string(n));
    ASSERT_TRUE(pet.at("v1").contains(n) && pet.at("v2").contains(n) && pet.at("v3").contains(n) &&
                pet.at("v4").contains(n))
        << j.dump(2);
    // More bandwidth on every link can only shorten every message: never a longer PET.
    EXPECT_LE(pet.at("v3").at(n), pet.at("v1").at(n));
    EXPECT_LE(pet.at("v4").at(n), pet.at("v2").at(n));
    // A CPU twice as fast halves the compute share: the stencil's compute (10 flops per cell,
    // on the critical path before the allreduce) loses kComputeSeconds / 2 per run.
    const double saved = pet.at("v1").at(n) - pet.at("v2").at(n);
    EXPECT_NEAR(saved, kComputeSeconds / 2, 0.02 * kComputeSeconds / 2)
        << "PET " << pet.at("v1").at(n) << " -> " << pet.at("v2").at(n);
    // The speedup over v1 is v1's PET over the variant's, in the JSON and the CSV.
    for (const auto& p : j.at("points")) {
      if (p.at("n").get<std::int64_t>() != n) continue;
      const std::string id = p.at("variant").get<std::string>();
      EXPECT_NEAR(p.at("speedup_vs_first").get<double>(), pet.at("v1").at(n) / pet.at(id).at(n),
                  1e-12);
    }
  }
  const auto rows = csv_rows(slurp(out / "whatif.csv"));
  ASSERT_EQ(rows.size(), 9u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"variant", "n", "pet_seconds", "speedup_vs_first",
                                               "efficiency"}));
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_NEAR(std::stod(rows[i][2]), pet.at(rows[i][0]).at(std::stoll(rows[i][1])),
                1e-8 * std::stod(rows[i][2]));
  }
  // The table as printed and written; the picture, a curve per variant with its points.
  const std::string table = slurp(out / "whatif.txt");
  EXPECT_NE(r.output.find(table.substr(0, table.find('\n'))), std::string::npos);
  EXPECT_NE(table.find("bandwidth x2, cpu x2"), std::string::npos) << table;
  EXPECT_NE(table.find("best N (strong scaling"), std::string::npos) << table;
  const std::string svg = slurp(out / "whatif.svg");
  EXPECT_TRUE(svg.starts_with("<svg ")) << svg.substr(0, 80);
  EXPECT_EQ(occurrences(svg, "<path "), 4u);
  EXPECT_EQ(occurrences(svg, "<circle "), 4u * 2 + 4);
  EXPECT_TRUE(fs::is_regular_file(out / "sim-v4-256.json"));

  // The report directory is not replaced without --force.
  const CommandResult again = whatif("bw-cpu", {"-n", "64", "--platform", base});
  EXPECT_EQ(again.exit_code, 2) << again.output;
  EXPECT_NE(again.output.find("--force"), std::string::npos) << again.output;
  EXPECT_EQ(read_json(out / "whatif.json").at("variants").size(), 4u);
}

// Fat tree against 3D torus, both from `p3s platform --hosts 256`:
// - fat tree (16 leaves of 16 hosts, one uplink from every leaf to each of 16 spines): full
//   bisection, 128 links of 10 Gb/s between the two halves; any two hosts of different leaves
//   are 4 links apart.
// - torus (p3s rounds 256 up to 6 x 7 x 7 = 294 hosts, one per router): cutting it in two
//   across its 6-long dimension cuts 2 x 7 x 7 = 98 links, fewer than the fat tree's 128, and
//   hosts are up to 3 + 3 + 3 = 9 links apart (a block of 256 consecutive hosts spans the
//   whole torus).
// The stencil's halo messages go to ranks 1 and sqrt(256) = 16 apart, then an allreduce spans
// all ranks: on the torus each message crosses more links, each adding its latency, and the
// links are shared by more messages (less bisection bandwidth), so its PET cannot be shorter;
// with 1 us per link and 9 against 4 links apart, it is measurably longer.
TEST_F(WhatifCli, TorusAgainstFatTreeFollowsTheirBisections) {
  const std::string fat_tree = platform("fat_tree.xml", 256, {"--topology", "fat-tree"});
  const CommandResult r = whatif("topology", {"-n", "256", "--platform", fat_tree, "--topology",
                                              "torus", "--repetitions", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const nlohmann::json j = read_json(dir() / "topology" / "whatif.json");
  ASSERT_EQ(j.at("variants").size(), 2u) << j.dump(2);
  EXPECT_EQ(j.at("variants")[0].at("topology").get<std::string>(), "fat-tree");
  EXPECT_EQ(j.at("variants")[1].at("topology").get<std::string>(), "torus");
  const std::string torus = slurp(j.at("variants")[1].at("platform").get<std::string>());
  EXPECT_NE(torus.find("topo_parameters=\"6,7,7\""), std::string::npos) << torus;
  const auto pet = pets(j);
  ASSERT_TRUE(pet.at("v1").contains(256) && pet.at("v2").contains(256)) << j.dump(2);
  EXPECT_GT(pet.at("v2").at(256), pet.at("v1").at(256) * 1.001)
      << "torus " << pet.at("v2").at(256) << " s against fat tree " << pet.at("v1").at(256);
}

// A platform that is not one cluster as p3s writes it cannot have its links changed: that
// variant is named and the others are simulated. A point whose simulation fails (N = 256 on a
// platform of 64 hosts) is named, the rest still reported.
TEST_F(WhatifCli, AVariantOrAPointThatFailsIsNamed) {
  const std::string small = platform("small.xml", 64);
  const std::string own = (dir() / "own.xml").string();
  std::ofstream(own)
      << "<?xml version='1.0'?>\n"
         "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
         "<platform version=\"4.1\">\n"
         "  <cluster id=\"c\" prefix=\"node-\" radical=\"0-1023\" suffix=\"\" "
         "speed=\"1Gf\" bw=\"10Gbps\" lat=\"2us\" bb_bw=\"40Gbps\" bb_lat=\"1us\"/>\n"
         "</platform>\n";
  const CommandResult r = whatif("partial", {"-n", "64,256", "--platform", own, "--platform", small,
                                             "--latency", "/2", "--repetitions", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const nlohmann::json j = read_json(dir() / "partial" / "whatif.json");
  // own.xml as given, small.xml as given and with half the latency.
  ASSERT_EQ(j.at("variants").size(), 3u) << j.dump(2);
  EXPECT_EQ(j.at("variants")[0].at("name").get<std::string>(), "own.xml");
  EXPECT_EQ(j.at("variants")[1].at("name").get<std::string>(), "small.xml");
  EXPECT_EQ(j.at("variants")[2].at("name").get<std::string>(), "small.xml, latency /2");
  const std::string warnings = j.at("warnings").dump();
  EXPECT_NE(warnings.find("own.xml, latency /2"), std::string::npos) << warnings;
  EXPECT_NE(warnings.find("bb_bw"), std::string::npos) << warnings;
  EXPECT_NE(warnings.find("N = 256 on v2"), std::string::npos) << warnings;
  EXPECT_NE(warnings.find("N = 256 on v3"), std::string::npos) << warnings;
  const auto pet = pets(j);
  EXPECT_TRUE(pet.at("v1").contains(64) && pet.at("v1").contains(256)) << j.dump(2);
  EXPECT_TRUE(pet.at("v2").contains(64) && !pet.at("v2").contains(256)) << j.dump(2);
  EXPECT_LE(pet.at("v3").at(64), pet.at("v2").at(64));  // half the latency: never longer
  const std::string table = slurp(dir() / "partial" / "whatif.txt");
  EXPECT_NE(table.find("WARNING: N = 256 on v2"), std::string::npos) << table;
}

// --jobs: the N side by side, each in a process of its own, give one job's report (but the
// simulations' clocks), with a point that fails and a variant not built among them.
TEST_F(WhatifCli, SimulationsSideBySideGiveWhatOneAtATimeGives) {
  const std::string small = platform("jobs-small.xml", 64);
  const std::vector<std::string> args = {"-n",        "16,64,256", "--platform",    small,
                                         "--latency", "/2",        "--repetitions", "1"};
  std::vector<std::string> one = args, two = args;
  one.insert(one.end(), {"--jobs", "1"});
  two.insert(two.end(), {"--jobs", "2"});
  const CommandResult a = whatif("jobs-1", one);
  ASSERT_EQ(a.exit_code, 0) << a.output;
  const CommandResult b = whatif("jobs-2", two);
  ASSERT_EQ(b.exit_code, 0) << b.output;
  EXPECT_NE(b.output.find("[simulations] 3 N, 2 at a time"), std::string::npos) << b.output;
  // The reports differ in their clocks and in where they are (a changed platform is written
  // beside its report): the second, with its directory's name as the first's, is the first.
  const auto as_first = [](const fs::path& file) {
    return std::regex_replace(slurp(file), std::regex("jobs-2"), "jobs-1");
  };
  const auto without_clock = [](nlohmann::json j) {
    for (auto& p : j.at("points")) p.erase("simulation_wall_seconds");
    return j;
  };
  const nlohmann::json ja = without_clock(read_json(dir() / "jobs-1" / "whatif.json"));
  const nlohmann::json jb =
      without_clock(nlohmann::json::parse(as_first(dir() / "jobs-2" / "whatif.json")));
  EXPECT_EQ(ja, jb);
  EXPECT_NE(jb.at("warnings").dump().find("N = 256 on v1"), std::string::npos) << jb.dump(2);
  EXPECT_EQ(jb.at("points").size(), 4u) << jb.dump(2);  // 16 and 64 on both variants
  EXPECT_EQ(slurp(dir() / "jobs-1" / "whatif.txt"), as_first(dir() / "jobs-2" / "whatif.txt"));
  // Each N a job of its own through a launcher (mpirun here, a cluster's srun there): whatif
  // runs again under it, reads the changed platform its launcher wrote, and simulates that N.
  std::vector<std::string> launched = args;
  launched.insert(launched.end(),
                  {"--jobs", "2", "--sim-launcher", std::string(P3S_MPIRUN) + " -np 1"});
  const CommandResult c = whatif("jobs-mpirun", launched);
  ASSERT_EQ(c.exit_code, 0) << c.output;
  EXPECT_NE(c.output.find("[N = 256] as a job: "), std::string::npos) << c.output;
  const auto as_first_from = [](const fs::path& file, const std::string& name) {
    return std::regex_replace(slurp(file), std::regex(name), "jobs-1");
  };
  EXPECT_EQ(ja, without_clock(nlohmann::json::parse(
                    as_first_from(dir() / "jobs-mpirun" / "whatif.json", "jobs-mpirun"))));
  EXPECT_EQ(slurp(dir() / "jobs-1" / "whatif.txt"),
            as_first_from(dir() / "jobs-mpirun" / "whatif.txt", "jobs-mpirun"));
  std::vector<std::string> failing = args;
  failing.insert(failing.end(), {"--sim-launcher", "false"});
  const CommandResult failed = whatif("jobs-false", failing);
  EXPECT_NE(failed.exit_code, 0) << failed.output;
  EXPECT_NE(failed.output.find("simulation job 0 failed (exit status 1, no result printed)"),
            std::string::npos)
      << failed.output;
}

TEST_F(WhatifCli, BadInputFailsWithAClearMessage) {
  const std::string base = platform("bad.xml", 64);
  struct Case {
    std::vector<std::string> args;
    int exit_code;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"-n", "64", "--platform", base, "--bandwidth", "2"}, 2, "write x2"},
      {{"-n", "64", "--platform", base, "--bandwidth", "x2,*2"}, 2, "same factor"},
      {{"-n", "64", "--platform", base, "--latency", "x0"}, 2, "'x0'"},
      {{"-n", "64", "--platform", base, "--topology", "torus,ring"}, 2, "ring"},
      {{"-n", "64", "--platform", base, "--topology", "torus,torus"}, 2, "given twice"},
      {{"-n", "64", "--platform", base, "--cpu-speedup", "1,-2"}, 2, "'-2'"},
      {{"-n", "64", "--platform", base, "--platform", base}, 2, "given twice"},
      {{"-n", "64", "--platform", base, "--efficiency", "0"}, 2, "--efficiency"},
      {{"-n", "64", "--platform", base, "--jobs", "0"}, 2, "--jobs must be at least 1"},
      {{"-n", "64,x", "--platform", base}, 2, "'x'"},
      {{"-n", "64", "--platform", (dir() / "missing.xml").string()}, 2, "missing.xml"},
      {{"-n", "64", "--platform", base, "--mapping", "diagonal"}, 2, "diagonal"},
      {{"-n", "64"}, 2, "--platform"},
      // 50 is no square: the stencil's grid is not defined there, so nothing is predicted.
      {{"-n", "50", "--platform", base}, 1, "N = 50 not predicted"},
  };
  int k = 0;
  for (const Case& c : cases) {
    std::string shown;
    for (const auto& a : c.args) shown += a + " ";
    SCOPED_TRACE("p3s whatif ... " + shown);
    const CommandResult r = whatif("bad-" + std::to_string(k++), c.args);
    EXPECT_EQ(r.exit_code, c.exit_code) << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("terminate called"), std::string::npos) << r.output;
  }
  const CommandResult help = p3s({"whatif", "--help"});
  EXPECT_EQ(help.exit_code, 0) << help.output;
  EXPECT_NE(help.output.find("usage: p3s whatif"), std::string::npos) << help.output;
}

}  // namespace
}  // namespace p3s::testing
