// p3s::calibrate on hand-made data: the segmented fit finds breakpoints it was not told, the
// calibration recovers parameters from measurements written by this file's own rendering of
// SMPI's model (the integration test checks that rendering against smpirun), and bad
// measurement files are refused with the file, the line and the reason.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "calibrate/calibration.hpp"
#include "calibrate/calibration_platform.hpp"
#include "calibrate/measurements.hpp"
#include "calibrate/segmented_fit.hpp"
#include "calibrate/smpi_model.hpp"
#include "core/format_error.hpp"
#include "replay_mpi/replay_result.hpp"

namespace p3s::calibrate {
namespace {

namespace fs = std::filesystem;

// ------------------------------------------------------------------ segmented fit

TEST(SegmentedFit, FindsThreeSegmentsItWasNotTold) {
  // y = 2 + 0.5 x up to x = 10, 10 + 0.1 x up to 30, 1 + 0.4 x beyond.
  std::vector<FitPoint> points;
  for (int i = 0; i < 45; ++i) {
    const double x = i;
    const double y = x <= 10 ? 2 + 0.5 * x : x <= 30 ? 10 + 0.1 * x : 1 + 0.4 * x;
    points.push_back({x, y, 1 / (y * y)});
  }
  const SegmentedFit fit = fit_segments_auto(points, 6, 3, 1e-3);
  ASSERT_EQ(fit.segments.size(), 3u);
  EXPECT_EQ(fit.segments[0].last, 10u);
  EXPECT_EQ(fit.segments[1].first, 11u);
  EXPECT_EQ(fit.segments[1].last, 30u);
  EXPECT_NEAR(fit.segments[0].intercept, 2, 1e-9);
  EXPECT_NEAR(fit.segments[0].slope, 0.5, 1e-9);
  EXPECT_NEAR(fit.segments[1].intercept, 10, 1e-9);
  EXPECT_NEAR(fit.segments[2].slope, 0.4, 1e-9);
}

TEST(SegmentedFit, NoiseWithinTheFloorKeepsOneLine) {
  std::vector<FitPoint> points;
  for (int i = 0; i < 40; ++i) {
    const double wobble = (i % 3 - 1) * 1e-3;  // +-0.1 %, below the 0.5 % floor
    const double y = (5 + 2 * i) * (1 + wobble);
    points.push_back({static_cast<double>(i), y, 1 / (y * y)});
  }
  EXPECT_EQ(fit_segments_auto(points, 6, 3, 5e-3).segments.size(), 1u);
}

TEST(SegmentedFit, KeepsInterceptAndSlopeNonNegative) {
  // A falling line: the best non-negative one is flat.
  std::vector<FitPoint> points;
  for (int i = 0; i < 5; ++i) points.push_back({static_cast<double>(i), 10.0 - i, 1});
  const SegmentedFit fit = fit_segments(points, 1, 3);
  EXPECT_GE(fit.segments[0].slope, 0);
  EXPECT_GE(fit.segments[0].intercept, 0);
}

// ------------------------------------------------------------------ SMPI's factor syntax

TEST(SizeFactor, APayloadAboveTheSizeTakesTheValue) {
  const SizeFactor f({{0, 0.5}, {1400, 0.8}});
  EXPECT_DOUBLE_EQ(f.at(0), 1.0);  // at or below the first size: none
  EXPECT_DOUBLE_EQ(f.at(16), 0.5);
  EXPECT_DOUBLE_EQ(f.at(1400), 0.5);
  EXPECT_DOUBLE_EQ(f.at(1401), 0.8);
  EXPECT_EQ(f.smpi(), "0:0.5;1400:0.8");
  EXPECT_EQ(SizeFactor().smpi(), "0:1");  // SimGrid 3.32 crashes on a bare "1"
}

// ------------------------------------------------------------------ synthetic measurements

// SMPI 3.32's point-to-point times written out here, independently of smpi_model.cpp.
struct Truth {
  double latency[2] = {0.4e-6, 3.0e-6};   // same-node, cross-node route latency
  double bandwidth[2] = {1.2e10, 2.5e9};  // bytes/s
  std::vector<std::pair<long, double>> bw = {{0, 0.4}, {1500, 0.7}, {50000, 1.0}};
  std::vector<std::pair<long, double>> lat = {{0, 1.0}, {1500, 1.6}, {50000, 4.0}};
  double os = 1.1e-6, os_per_byte = 1e-10, or_ = 0.7e-6, or_per_byte = 2e-10, ois = 0.3e-6;
  long eager = 8192;

  static double factor(const std::vector<std::pair<long, double>>& f, long payload) {
    double v = 1;
    for (const auto& [above, value] : f) {
      if (payload > above) v = value;
    }
    return v;
  }
  double transfer(int kind, long bytes) const {
    const long p = bytes + 16;
    return latency[kind] * factor(lat, p) +
           static_cast<double>(p) / (bandwidth[kind] * factor(bw, p));
  }
  double time(const std::string& test, int kind, long b) const {
    const auto x = static_cast<double>(b);
    const double t = transfer(kind, b), s = os + os_per_byte * x, r = or_ + or_per_byte * x;
    const bool eagerly = b < eager;
    if (test == "pingpong") return t + (eagerly ? s + r : 0);
    if (test == "pingpong-ssend") return t + s;
    if (test == "pingpong-isend") return t + ois + (eagerly ? r : 0);
    if (test == "send-overhead") return eagerly ? s : t;
    return ois;  // isend-overhead
  }
};

fs::path temp_file(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / "p3s-unit-calibrate";
  fs::create_directories(dir);
  std::ofstream(dir / name) << text;
  return dir / name;
}

std::string header(const std::string& library = "Open MPI v4.1.4") {
  return R"({"format":"p3s-calibration 1","build":"mpi","nprocs":4,"mpi_library":")" + library +
         R"(","options":{"max_bytes":16777216},"hosts":["a","a","b","b"]})"
         "\n";
}

std::string line(const std::string& test, int kind, long bytes, double seconds) {
  char buf[320];
  std::snprintf(buf, sizeof buf,
                R"({"test":"%s","link":"%s","pairs":1,"pair":0,"ranks":[0,%d],"bytes":%ld,)"
                R"("rep":0,"seq":0,"iterations":10,"seconds":%.12g})"
                "\n",
                test.c_str(), kind == 0 ? "same-node" : "cross-node", kind == 0 ? 1 : 2, bytes,
                seconds);
  return buf;
}

std::vector<long> sizes() {
  std::vector<long> s = {0};
  for (int j = 0; j <= 24 * 4; ++j) {
    const long v = std::lround(std::pow(2.0, j / 4.0));
    if (v != s.back()) s.push_back(v);
  }
  return s;
}

// The benchmark's output for `truth`, for the link kinds in `kinds` and the tests in `tests`.
std::string synthetic(const Truth& truth, std::vector<int> kinds,
                      std::vector<std::string> tests = {"pingpong", "pingpong-ssend",
                                                        "pingpong-isend", "send-overhead",
                                                        "isend-overhead"},
                      const std::vector<long>& at = sizes()) {
  std::string out = header();
  long count = 0;
  for (int kind : kinds) {
    for (long b : at) {
      for (const std::string& t : tests) out += line(t, kind, b, truth.time(t, kind, b)), ++count;
    }
  }
  out += R"({"test":"compute","ranks":[0],"concurrent":1,"rep":0,"seq":1,"sweeps":10,)"
         R"("flops":4e9,"cpu_seconds":2,"wall_seconds":2.1})"
         "\n";
  return out + "{\"end\":\"complete\",\"measurements\":" + std::to_string(count + 1) + "}\n";
}

Calibration calibrate_text(const std::string& name, const std::string& text) {
  return calibrate(read_measurements({temp_file(name, text)}));
}

bool has_warning(const Calibration& c, const std::string& name) {
  for (const NamedWarning& w : c.warnings) {
    if (w.name == name) return true;
  }
  return false;
}

TEST(Calibrate, RecoversEveryParameterFromExactMeasurements) {
  const Truth truth;
  const Calibration c = calibrate_text("exact.jsonl", synthetic(truth, {0, 1}));
  const SmpiPointToPoint& m = c.model;
  EXPECT_EQ(c.primary, LinkKind::CrossNode);
  // Latency x lat-factor and bandwidth x bw-factor are what a message sees; check them where
  // every segment has sizes (the split between a value and its factor is a convention).
  for (long payload : {100L, 1000L, 3000L, 40000L, 100000L, 8000000L}) {
    for (int kind : {0, 1}) {
      const LinkKind link = kind == 0 ? LinkKind::SameNode : LinkKind::CrossNode;
      const Route& r = m.route(link);
      EXPECT_NEAR(r.latency * m.latency_factor.at(payload),
                  truth.latency[kind] * Truth::factor(truth.lat, payload),
                  1e-6 * truth.latency[kind] * 4)
          << "payload " << payload << " kind " << kind;
      EXPECT_NEAR(r.bandwidth * m.bandwidth_factor.at(payload) /
                      (truth.bandwidth[kind] * Truth::factor(truth.bw, payload)),
                  1, 1e-4)
          << "payload " << payload << " kind " << kind;
    }
  }
  // The threshold lies between two measured sizes: the smallest rendezvous one is written.
  EXPECT_EQ(m.eager_threshold, 8192);
  EXPECT_NEAR(m.send.seconds(1000), 1.1e-6 + 1e-7, 1e-12);
  EXPECT_NEAR(m.receive.seconds(1000), 0.7e-6 + 2e-7, 1e-12);
  EXPECT_NEAR(m.isend.seconds(100000), 0.3e-6, 1e-12);
  EXPECT_DOUBLE_EQ(c.compute.flops_per_second, 2e9);
  ASSERT_TRUE(c.worst);
  EXPECT_LT(std::fabs(c.worst->error), 1e-4);
  EXPECT_TRUE(c.warnings.empty()) << c.warnings.front().name << ": " << c.warnings.front().text;
}

TEST(Calibrate, OneLinkKindNamesTheOther) {
  const Calibration c = calibrate_text("same-only.jsonl", synthetic(Truth(), {0}));
  EXPECT_EQ(c.primary, LinkKind::SameNode);
  EXPECT_TRUE(has_warning(c, "no-cross-node"));
  EXPECT_FALSE(c.covered(LinkKind::CrossNode).measured);
}

TEST(Calibrate, WithoutOverheadTestsSaysWhatItLeftAtTheDefaults) {
  Truth t;
  t.os = t.or_ = t.ois = t.os_per_byte = t.or_per_byte = 0;
  const Calibration c = calibrate_text("pingpong-only.jsonl", synthetic(t, {1}, {"pingpong"}));
  EXPECT_TRUE(has_warning(c, "no-overhead-tests"));
  EXPECT_FALSE(c.overheads_measured);
}

TEST(CalibratedPlatform, HostLinksGetHalfTheRouteLatency) {
  const Truth truth;
  const Calibration c = calibrate_text("platform.jsonl", synthetic(truth, {0, 1}));
  std::vector<std::string> assumed;
  const sim::PlatformSpec spec =
      calibrated_platform(c, {64, 4, sim::Topology::Flat, false}, assumed);
  EXPECT_TRUE(assumed.empty()) << assumed.front();
  // A flat cluster's route crosses the sender's link and the receiver's.
  EXPECT_NEAR(std::stod(spec.latency) * 2, c.model.cross_node.latency, 1e-12);
  EXPECT_NEAR(std::stod(spec.bandwidth), c.model.cross_node.bandwidth, 1e-6 * 2.5e9);
  EXPECT_NEAR(std::stod(spec.loopback_latency), c.model.same_node.latency, 1e-12);
  EXPECT_EQ(spec.config.at("smpi/send-is-detached-thresh"), "8192");
  EXPECT_EQ(spec.bw_factor, c.model.bandwidth_factor.smpi());
  EXPECT_EQ(spec.speed, "2e+09f");
  EXPECT_EQ(spec.cores_per_host, 4);
}

TEST(CalibratedPlatform, AnUnmeasuredNetworkIsNamedAndChosenByTheUser) {
  const Calibration c = calibrate_text("same-node-platform.jsonl", synthetic(Truth(), {0}));
  std::vector<std::string> assumed;
  const sim::PlatformSpec kept =
      calibrated_platform(c, {4, 2, sim::Topology::Flat, false}, assumed);
  EXPECT_EQ(kept.bandwidth, sim::PlatformSpec().bandwidth);
  ASSERT_EQ(assumed.size(), 1u);
  EXPECT_NE(assumed[0].find("the network between hosts was not measured"), std::string::npos);
  assumed.clear();
  const sim::PlatformSpec larger =
      calibrated_platform(c, {4, 2, sim::Topology::Flat, true}, assumed);
  EXPECT_NEAR(std::stod(larger.latency) * 2, c.model.same_node.latency, 1e-12);
  EXPECT_NEAR(std::stod(larger.bandwidth), c.model.same_node.bandwidth, 1e-6 * 1.2e10);
  EXPECT_EQ(assumed.size(), 1u);
}

TEST(Calibrate, ASingleMessageSizeIsRefused) {
  try {
    calibrate_text("one-size.jsonl", synthetic(Truth(), {0, 1}, {"pingpong"}, {1024}));
    FAIL() << "a single size was fitted";
  } catch (const CalibrationError& e) {
    EXPECT_NE(std::string(e.what()).find("only one message size (1 KiB)"), std::string::npos)
        << e.what();
  }
}

TEST(Calibrate, TwoSizesAreTooFew) {
  EXPECT_THROW(calibrate_text("two-sizes.jsonl",
                              synthetic(Truth(), {1}, {"pingpong"}, std::vector<long>{8, 4096})),
               CalibrationError);
}

TEST(Calibrate, ComputeOnlyHasNothingToFit) {
  const std::string text = header() +
                           R"({"test":"compute","ranks":[0],"concurrent":1,"rep":0,"seq":1,)"
                           R"("sweeps":10,"flops":4e9,"cpu_seconds":2,"wall_seconds":2.1})"
                           "\n{\"end\":\"complete\",\"measurements\":1}\n";
  EXPECT_THROW(calibrate_text("compute-only.jsonl", text), CalibrationError);
}

// ------------------------------------------------------------------ bad files

// The reader's error for `text`, or "" when it read it.
std::string read_error(const std::string& name, const std::string& text) {
  try {
    read_measurements({temp_file(name, text)});
  } catch (const core::FormatError& e) {
    return e.what();
  }
  return "";
}

const std::string kEnd = "{\"end\":\"complete\",\"measurements\":1}\n";

TEST(ReadMeasurements, RefusesEmptyAndForeignFiles) {
  EXPECT_NE(read_error("empty.jsonl", "").find("empty.jsonl: empty"), std::string::npos);
  EXPECT_NE(read_error("blank.jsonl", "\n  \n").find("empty"), std::string::npos);
  EXPECT_NE(read_error("foreign.jsonl", "{\"format\":\"p3s-run 1\"}\n")
                .find("foreign.jsonl:1: not calibration measurements"),
            std::string::npos);
  EXPECT_NE(read_error("csv.jsonl", "bytes,seconds\n").find("not calibration"), std::string::npos);
}

TEST(ReadMeasurements, RefusesATruncatedFile) {
  const std::string e = read_error("truncated.jsonl", header() + line("pingpong", 0, 8, 1e-6));
  EXPECT_NE(e.find("truncated.jsonl:2: truncated"), std::string::npos) << e;
}

TEST(ReadMeasurements, RefusesNonFiniteAndNegativeTimes) {
  std::string nan_line = line("pingpong", 0, 8, 1e-6);
  nan_line.replace(nan_line.find("1e-06"), 5, "nan");
  EXPECT_NE(read_error("nan.jsonl", header() + nan_line + kEnd)
                .find("nan.jsonl:2: a value is not a finite number"),
            std::string::npos);
  const std::string neg =
      read_error("negative.jsonl", header() + line("pingpong", 0, 8, -1e-6) + kEnd);
  EXPECT_NE(neg.find("negative.jsonl:2: \"seconds\" is negative"), std::string::npos) << neg;
  const std::string zero = read_error("zero.jsonl", header() + line("pingpong", 0, 8, 0) + kEnd);
  EXPECT_NE(zero.find("zero.jsonl:2: a message that took 0 s"), std::string::npos) << zero;
}

TEST(ReadMeasurements, RefusesInconsistentLines) {
  // Ranks 0 and 2 are on hosts a and b: not a same-node pair.
  std::string wrong = line("pingpong", 0, 8, 1e-6);
  wrong.replace(wrong.find("[0,1]"), 5, "[0,2]");
  EXPECT_NE(read_error("placement.jsonl", header() + wrong + kEnd)
                .find("placement.jsonl:2: inconsistent: a same-node message between rank 0 on a "
                      "and rank 2 on b"),
            std::string::npos);
  EXPECT_NE(read_error("count.jsonl", header() + line("pingpong", 0, 8, 1e-6) +
                                          "{\"end\":\"complete\",\"measurements\":7}\n")
                .find("count.jsonl:3: the end line counts 7 measurements, the file has 1"),
            std::string::npos);
  EXPECT_NE(read_error("after.jsonl", header() + line("pingpong", 0, 8, 1e-6) + kEnd +
                                          line("pingpong", 0, 16, 1e-6))
                .find("after.jsonl:4: text after the end line"),
            std::string::npos);
  EXPECT_NE(read_error("unknown.jsonl", header() + line("pingpang", 0, 8, 1e-6) + kEnd)
                .find("unknown test 'pingpang'"),
            std::string::npos);
  EXPECT_NE(read_error("size.jsonl", header() + line("pingpong", 0, 1L << 30, 1e-6) + kEnd)
                .find("size.jsonl:2: \"bytes\" is 1073741824, outside 0..16777216"),
            std::string::npos);
}

TEST(ReadMeasurements, RefusesFilesOfDifferentSystems) {
  const fs::path a = temp_file("system-a.jsonl", header() + line("pingpong", 0, 8, 1e-6) + kEnd);
  const fs::path b =
      temp_file("system-b.jsonl", header("MPICH 4.0") + line("pingpong", 0, 8, 1e-6) + kEnd);
  try {
    read_measurements({a, b});
    FAIL() << "files of two systems were merged";
  } catch (const core::FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("system-b.jsonl:1: inconsistent with"), std::string::npos)
        << e.what();
  }
}

// ------------------------------------------------------------------ ranks sharing cores

std::string round_line(const std::string& test, int ranks, int per_node, int cores,
                       double seconds) {
  return "{\"test\":\"" + test + "\",\"ranks\":" + std::to_string(ranks) +
         ",\"ranks_per_node\":" + std::to_string(per_node) +
         ",\"cores_per_node\":" + std::to_string(cores) +
         ",\"bytes\":8,\"rep\":0,\"seq\":0,\"iterations\":64,\"seconds\":" +
         nlohmann::json(seconds).dump() + "}\n";
}

TEST(SharedCoreFit, RecoversTheRoundCostFromRoundsAndRanksPerCore) {
  // y = 2 us. 8 ranks on 2 cores: 4 per core, 3 extra; 24 ranks: 12 per core, 11 extra. An
  // allreduce among 8 ranks takes 3 rounds, among 24 ranks 5 (the next power of two is 32).
  const double y = 2e-6;
  const std::vector<RoundSample> samples = {
      {RoundTest::Exchange, 8, 8, 2, y * 1 * 3, "a:1"},
      {RoundTest::Allreduce, 8, 8, 2, y * 3 * 3, "a:2"},
      {RoundTest::Exchange, 24, 24, 2, y * 1 * 11, "b:1"},
      {RoundTest::Allreduce, 24, 24, 2, y * 5 * 11, "b:2"},
      {RoundTest::Exchange, 2, 2, 2, 0.3e-6, "c:1"},  // no sharing: not in the fit
  };
  const SharedCoreFit fit = fit_shared_core(samples);
  ASSERT_TRUE(fit.measured);
  EXPECT_NEAR(fit.round_seconds, y, 1e-12);
  EXPECT_LT(fit.max_error, 1e-9);
  ASSERT_EQ(fit.comparisons.size(), 4u);
  EXPECT_EQ(fit.comparisons[3].rounds, 5);
}

TEST(SharedCoreFit, RanksThatFitTheirCoresMeasureNothing) {
  const SharedCoreFit fit = fit_shared_core({{RoundTest::Allreduce, 4, 2, 2, 1e-6, "a:1"}});
  EXPECT_FALSE(fit.measured);
}

TEST(SharedCoreFit, ReadFromTheBenchmarksRoundLinesIntoThePlatform) {
  const std::string text = header() + line("pingpong", 0, 8, 1e-6) +
                           round_line("round-exchange", 4, 2, 1, 3e-6) +
                           "{\"end\":\"complete\",\"measurements\":2}\n";
  const Measurements m = read_measurements({temp_file("rounds.jsonl", text)});
  ASSERT_EQ(m.rounds.size(), 1u);
  EXPECT_EQ(m.rounds[0].ranks_per_node, 2);
  EXPECT_EQ(m.rounds[0].cores_per_node, 1);
  const SharedCoreFit fit = fit_shared_core(m.rounds);
  ASSERT_TRUE(fit.measured);
  EXPECT_NEAR(fit.round_seconds, 3e-6, 1e-15);  // one round, one extra rank per core
  Calibration c;
  c.shared_core = fit;
  std::vector<std::string> assumed;
  const sim::PlatformSpec spec = calibrated_platform(c, {4, 1, sim::Topology::Flat, true}, assumed);
  EXPECT_EQ(spec.host_properties.at("p3s/shared-core-round"), "3e-06");
  EXPECT_TRUE(calibrated_platform(Calibration{}, {4, 1, sim::Topology::Flat, true}, assumed)
                  .host_properties.empty());
}

TEST(ReadMeasurements, RefusesBadRoundLines) {
  const std::string wrong_count =
      read_error("rounds-n.jsonl", header() + round_line("round-exchange", 3, 2, 1, 3e-6) + kEnd);
  EXPECT_NE(wrong_count.find("rounds-n.jsonl:2: \"ranks\" is 3, outside 4..4"), std::string::npos)
      << wrong_count;
  const std::string zero =
      read_error("rounds-0.jsonl", header() + round_line("round-allreduce", 4, 2, 1, 0) + kEnd);
  EXPECT_NE(zero.find("rounds-0.jsonl:2: \"seconds\" is 0"), std::string::npos) << zero;
  const std::string cores =
      read_error("rounds-c.jsonl", header() + round_line("round-allreduce", 4, 2, 0, 1e-6) + kEnd);
  EXPECT_NE(cores.find("\"cores_per_node\" is 0"), std::string::npos) << cores;
}

// ------------------------------------------------------------------ replay results

// A replay result whose received messages took `seconds(bytes)`, at `sizes`, on one link kind;
// each is also sent (the sender's side, which the calibration leaves out) in 1 ns.
std::string replay_text(const std::vector<std::int64_t>& sizes, bool same_node,
                        const std::function<double(std::int64_t)>& seconds) {
  replay::ReplayResult r;
  r.source = "app.slt";
  r.nprocs = r.processes = r.measurable = 4;
  r.repetitions = 3;
  r.compute = "spin";
  for (const std::int64_t b : sizes) {
    for (int rep = 0; rep < 3; ++rep) {
      // The least repetition is the message itself, the others waited longer.
      r.messages.push_back({0, rep, 1, 0, false, b, same_node, seconds(b) * (1 + rep), 1});
      r.messages.push_back({0, rep, 0, 1, true, b, same_node, 1e-9, 1});
    }
  }
  return to_json(r).dump(1) + "\n";
}

TEST(CalibrateFromReplay, TwoSizesGiveTheLatencyAndBandwidthThroughThem) {
  // 3 us and 2 GB/s over the payload (bytes + SMPI's 16-byte envelope).
  const auto t = [](std::int64_t b) { return 3e-6 + static_cast<double>(b + 16) / 2e9; };
  const Calibration c = calibrate_text("two.json", replay_text({512, 65536}, false, t));
  ASSERT_TRUE(c.covered(LinkKind::CrossNode).measured);
  EXPECT_FALSE(c.covered(LinkKind::SameNode).measured);
  EXPECT_NEAR(c.model.cross_node.latency, 3e-6, 1e-12);
  EXPECT_NEAR(c.model.cross_node.bandwidth, 2e9, 1e-3 * 2e9);
  EXPECT_FALSE(c.overheads_measured);
  EXPECT_FALSE(c.compute.measured);
  EXPECT_TRUE(has_warning(c, "app-messages-only"));
  EXPECT_TRUE(has_warning(c, "no-same-node"));
}

TEST(CalibrateFromReplay, OneSizeKeepsTheDefaultBandwidthAndNamesIt) {
  // p3s platform's default loopback: 100 Gbps = 12.5 GB/s.
  const Calibration c =
      calibrate_text("one.json", replay_text({1024}, true, [](std::int64_t) { return 2e-6; }));
  ASSERT_TRUE(c.covered(LinkKind::SameNode).measured);
  EXPECT_DOUBLE_EQ(c.model.same_node.bandwidth, 12.5e9);
  EXPECT_NEAR(c.model.same_node.latency, 2e-6 - 1040 / 12.5e9, 1e-15);
  bool named = false;
  for (const NamedWarning& w : c.warnings) {
    if (w.name == "app-messages-only") {
      named = w.text.find("the bandwidth of same-node messages (one size") != std::string::npos;
    }
  }
  EXPECT_TRUE(named);
}

TEST(CalibrateFromReplay, WithTheBenchmarkTheyAreOnlyCompared) {
  const Truth truth;
  const Measurements m =
      read_measurements({temp_file("bench.jsonl", synthetic(truth, {0, 1})),
                         temp_file("app.json", replay_text({512}, false, [&](std::int64_t b) {
                                     return 2 * truth.time("pingpong", 1, b);
                                   }))});
  const Calibration c = calibrate(m);
  EXPECT_FALSE(has_warning(c, "app-messages-only"));
  EXPECT_TRUE(c.overheads_measured);
  bool compared = false;
  for (const Comparison& cmp : c.comparisons) {
    if (cmp.test != calibrate::Test::AppMessage) continue;
    compared = true;
    EXPECT_NEAR(cmp.error, -0.5, 1e-3);  // the app's messages took twice the fitted time
  }
  EXPECT_TRUE(compared);
}

TEST(CalibrateFromReplay, BadReplayResultsAreRefusedWithTheirPath) {
  std::string text = replay_text({512}, false, [](std::int64_t) { return 1e-6; });
  std::string sideways = text;
  sideways.replace(sideways.find("\"recv\""), 6, "\"back\"");
  const std::string e = read_error("sideways.json", sideways);
  EXPECT_NE(e.find("sideways.json"), std::string::npos) << e;
  EXPECT_NE(e.find("/messages/rows/0/4"), std::string::npos) << e;
  std::string negative = text;
  negative.replace(negative.find("1e-06"), 5, "-1e-06");
  EXPECT_NE(read_error("negative.json", negative).find("/messages/rows/"), std::string::npos);
  const std::string none = replay_text({}, false, [](std::int64_t) { return 1e-6; });
  EXPECT_NE(read_error("none.json", none).find("measured no messages"), std::string::npos);
  std::string cut = text.substr(0, text.size() / 2);
  EXPECT_NE(read_error("cut.json", cut).find("not calibration measurements"), std::string::npos);
}

}  // namespace
}  // namespace p3s::calibrate
