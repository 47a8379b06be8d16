// p3s calibrate as a user runs it: on the benchmark's real output (its smpicc build under
// smpirun, two ranks on one host), and on that output spoiled the ways real files get spoiled
// (cut short, a NaN or negative time, a single message size, another system's file): a clear
// error naming the file and line and no platform written, or a named warning.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "integration/run_helpers.hpp"

namespace p3s::testing {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> read_lines(const fs::path& file) {
  std::vector<std::string> lines;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

void write_lines(const fs::path& file, const std::vector<std::string>& lines) {
  std::ofstream out(file);
  for (const std::string& l : lines) out << l << "\n";
}

class CalibrateCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = scratch_dir("calibrate-cli");
    fs::create_directories(dir_);
    std::ofstream(dir_ / "hosts") << "node-0\nnode-0\n";
    const CommandResult bench =
        run_command({"env",
                     "-C",
                     dir_.string(),
                     P3S_SMPIRUN,
                     "-platform",
                     P3S_SMPI_PLATFORM,
                     "-hostfile",
                     (dir_ / "hosts").string(),
                     "-np",
                     "2",
                     "--cfg=smpi/simulate-computation:no",
                     std::string(P3S_SMPI_APPS_DIR) + "/smpi_calibrate_bench",
                     "--reps",
                     "1",
                     "--min-time",
                     "1e-5",
                     "--max-iters",
                     "20",
                     "--max-bytes",
                     "1048576",
                     "--out",
                     (dir_ / "good.jsonl").string()});
    ASSERT_EQ(bench.exit_code, 0) << bench.output;
    lines_ = read_lines(dir_ / "good.jsonl");
    ASSERT_GT(lines_.size(), 100u);
  }

  CommandResult calibrate(const std::string& file, const std::vector<std::string>& extra = {}) {
    std::vector<std::string> argv = {p3s_bin(), "calibrate", (dir_ / file).string(), "-o",
                                     (dir_ / "platform.xml").string()};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return run_command(argv);
  }

  // `lines_` with line `index` (0 = the header) changed by `edit`, written as `name`.
  void spoil(const std::string& name, std::size_t index,
             const std::function<void(std::string&)>& edit) {
    std::vector<std::string> lines = lines_;
    edit(lines.at(index));
    write_lines(dir_ / name, lines);
  }

  fs::path dir_;
  std::vector<std::string> lines_;
};

TEST_F(CalibrateCli, FitsTheBenchmarkAndNamesWhatItCouldNotMeasure) {
  const CommandResult r =
      calibrate("good.jsonl", {"--hosts", "8", "--report", (dir_ / "report").string()});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("warning [no-cross-node]"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("the network between hosts was not measured"), std::string::npos);
  EXPECT_NE(r.output.find("Largest error"), std::string::npos);
  for (const char* f : {"calibration.txt", "calibration.json", "calibration.svg"}) {
    EXPECT_TRUE(fs::exists(dir_ / "report" / f)) << f;
  }
  std::ifstream in(dir_ / "report" / "calibration.json");
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j["format"], "p3s-calibration-report 1");
  EXPECT_FALSE(j["routes"]["cross-node"]["measured"].get<bool>());
  std::ifstream xml(dir_ / "platform.xml");
  const std::string platform((std::istreambuf_iterator<char>(xml)), {});
  for (const char* key : {"smpi/bw-factor", "smpi/lat-factor", "smpi/os", "smpi/or", "smpi/ois",
                          "smpi/send-is-detached-thresh"}) {
    EXPECT_NE(platform.find(key), std::string::npos) << key;
  }

  // What the user wrote is kept unless --force.
  const CommandResult again = calibrate("good.jsonl");
  EXPECT_EQ(again.exit_code, 2) << again.output;
  EXPECT_NE(again.output.find("exists; give --force"), std::string::npos) << again.output;
  EXPECT_EQ(calibrate("good.jsonl", {"--force"}).exit_code, 0);
}

// The value of attribute `name` of the platform's <cluster>, empty when it has none.
std::string cluster_attribute(const std::string& platform, const std::string& name) {
  std::smatch m;
  const std::regex attribute("<cluster[^>]*\\s" + name + "=\"([^\"]*)\"");
  return std::regex_search(platform, m, attribute) ? m[1].str() : "";
}

std::string slurp(const fs::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), {}};
}

// --topology puts the calibrated hosts in that topology; --network-as-same-node gives the
// network the same-node path's latency and bandwidth (the benchmark ran on one host): a route
// between two hosts then has the loopback's bandwidth and, over its two links, its latency;
// without it the network keeps p3s platform's defaults.
TEST_F(CalibrateCli, TopologyAndNetworkAsSameNode) {
  ASSERT_EQ(calibrate("good.jsonl", {"--hosts", "64", "--topology", "torus"}).exit_code, 0);
  std::string platform = slurp(dir_ / "platform.xml");
  EXPECT_EQ(cluster_attribute(platform, "topology"), "TORUS") << platform;
  EXPECT_EQ(cluster_attribute(platform, "bw"), "10Gbps") << platform;
  EXPECT_EQ(cluster_attribute(platform, "lat"), "1us") << platform;

  ASSERT_EQ(calibrate("good.jsonl", {"--force", "--network-as-same-node"}).exit_code, 0);
  platform = slurp(dir_ / "platform.xml");
  EXPECT_EQ(cluster_attribute(platform, "topology"), "") << platform;
  EXPECT_FALSE(cluster_attribute(platform, "loopback_bw").empty()) << platform;
  EXPECT_EQ(cluster_attribute(platform, "bw"), cluster_attribute(platform, "loopback_bw"));
  // A route between two hosts crosses both hosts' links: each has half the path's latency.
  const std::string lat = cluster_attribute(platform, "lat");
  const std::string loopback_lat = cluster_attribute(platform, "loopback_lat");
  ASSERT_TRUE(lat.ends_with("s") && loopback_lat.ends_with("s")) << platform;
  // Both written with 6 significant digits.
  EXPECT_NEAR(2 * std::stod(lat), std::stod(loopback_lat), 1e-5 * std::stod(loopback_lat));
}

TEST_F(CalibrateCli, RefusesSpoiledFilesWithFileLineAndReason) {
  struct Case {
    std::string name;
    std::size_t line;  // 0-based in the file
    std::function<void(std::string&)> edit;
    std::string expected;
  };
  auto seconds_to = [](const std::string& value) {
    return [value](std::string& l) {
      const std::size_t at = l.find("\"seconds\":");
      l = l.substr(0, at) + "\"seconds\":" + value + "}";
    };
  };
  const std::vector<Case> cases = {
      {"nan.jsonl", 5, seconds_to("nan"), "nan.jsonl:6: a value is not a finite number"},
      {"negative.jsonl", 7, seconds_to("-2.5e-06"), "negative.jsonl:8: \"seconds\" is negative"},
      {"truncated.jsonl", lines_.size() - 1, [](std::string& l) { l.clear(); },
       "truncated.jsonl:" + std::to_string(lines_.size()) + ": truncated"},
      {"junk.jsonl", 3, [](std::string& l) { l.resize(l.size() / 2); }, "junk.jsonl:4: not JSON"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    spoil(c.name, c.line, c.edit);
    fs::remove(dir_ / "platform.xml");
    const CommandResult r = calibrate(c.name);
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find(c.expected), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(dir_ / "platform.xml")) << "a platform was fitted to nonsense";
  }

  write_lines(dir_ / "empty.jsonl", {});
  const CommandResult empty = calibrate("empty.jsonl");
  EXPECT_EQ(empty.exit_code, 1);
  EXPECT_NE(empty.output.find("empty.jsonl: empty"), std::string::npos) << empty.output;

  // Another system's file beside this one.
  spoil("other-system.jsonl", 0, [](std::string& header) {
    nlohmann::json j = nlohmann::json::parse(header);
    j["mpi_library"] = "MPICH 4.0";
    header = j.dump();
  });
  const CommandResult mixed =
      run_command({p3s_bin(), "calibrate", (dir_ / "good.jsonl").string(),
                   (dir_ / "other-system.jsonl").string(), "-o", (dir_ / "platform.xml").string()});
  EXPECT_EQ(mixed.exit_code, 1);
  EXPECT_NE(mixed.output.find("other-system.jsonl:1: inconsistent with"), std::string::npos)
      << mixed.output;
}

TEST_F(CalibrateCli, ASingleMessageSizeIsAnErrorNotAPlatform) {
  // Only the 4 KiB lines, with the end line's count to match.
  std::vector<std::string> kept = {lines_.front()};
  for (std::size_t i = 1; i + 1 < lines_.size(); ++i) {
    if (lines_[i].find("\"bytes\":4096,") != std::string::npos) kept.push_back(lines_[i]);
  }
  kept.push_back("{\"end\":\"complete\",\"measurements\":" + std::to_string(kept.size() - 1) + "}");
  write_lines(dir_ / "one-size.jsonl", kept);
  const CommandResult r = calibrate("one-size.jsonl");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("only one message size (4 KiB) was measured"), std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(dir_ / "platform.xml"));
}

}  // namespace
}  // namespace p3s::testing
