// The hold-out report on runs made by a known generating function: a ring in which every rank
// isends 65536 / n bytes to r + 1, irecvs them from r - 1 and waits, 10 times, with a CPU time
// of 1e6 / n ns per repetition. A model of four such runs predicts a fifth exactly; a fifth
// run that departs from the function (another peer, more bytes, more repetitions) is reported
// by how much.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "model/holdout_check.hpp"
#include "model/slt_builder.hpp"

namespace p3s::model {
namespace {

using signature::EventToken;

struct Ring {
  std::int64_t distance = 1;  // to whom each rank sends
  std::int64_t bytes_total = 65536;
  std::int64_t weight = 10;
};

LogicalRun ring_run(std::int64_t n, const Ring& ring = {}) {
  LogicalRun run;
  run.n = n;
  LogicalPhase phase;
  const std::int64_t bytes = ring.bytes_total / n;
  for (std::int64_t r = 0; r < n; ++r) {
    EventToken send;
    send.op = core::Op::Isend;
    send.dst = static_cast<std::int32_t>(ring.distance % n);  // relative: (peer - r) mod n
    send.tag = 0;
    send.bytes = bytes;
    EventToken receive;
    receive.op = core::Op::Irecv;
    receive.src = static_cast<std::int32_t>((n - ring.distance % n) % n);
    receive.rtag = 0;
    receive.rbytes = bytes;
    EventToken wait;
    wait.op = core::Op::Waitall;
    wait.requests = 2;
    LogicalRankPhase rank;
    rank.events = {receive, send, wait};
    rank.weight = ring.weight;
    rank.cpu_ns = 1e6 / static_cast<double>(n);
    rank.slot_cpu_ns = {rank.cpu_ns, 0, 0};
    rank.share = 0.5;
    phase.ranks.push_back(std::move(rank));
  }
  run.phases.push_back(std::move(phase));
  return run;
}

Slt ring_model() {
  return build_slt({ring_run(4), ring_run(8), ring_run(16), ring_run(32)});
}

struct ReportLine {
  std::string pattern;
  double volume_pct = 0;
  double weight_pct = 0;
  double compute_pct = 0;
};

// The row of `phase` in the report's table: name, pattern (may hold spaces), three numbers.
std::optional<ReportLine> row_of(const std::string& report, const std::string& phase) {
  std::istringstream lines(report);
  std::string line;
  while (std::getline(lines, line)) {
    const auto start = line.find_first_not_of(' ');
    if (start == std::string::npos || line.compare(start, phase.size() + 1, phase + " ") != 0)
      continue;
    std::istringstream fields(line.substr(start + phase.size()));
    std::vector<std::string> words;
    for (std::string w; fields >> w;) words.push_back(w);
    if (words.size() < 4) return std::nullopt;
    ReportLine out;
    try {
      out.compute_pct = std::stod(words[words.size() - 1]);
      out.weight_pct = std::stod(words[words.size() - 2]);
      out.volume_pct = std::stod(words[words.size() - 3]);
    } catch (const std::logic_error&) {
      return std::nullopt;  // a row without numbers
    }
    for (std::size_t i = 0; i + 3 < words.size(); ++i) out.pattern += (i > 0 ? " " : "") + words[i];
    return out;
  }
  return std::nullopt;
}

TEST(HoldoutReport, GeneratingFunctionIsPredictedExactly) {
  const Slt slt = ring_model();
  ASSERT_EQ(slt.phases.size(), 1u);
  ASSERT_TRUE(slt.phases[0].pattern_modelled);
  const std::string report = holdout_report(slt, ring_run(64));
  EXPECT_NE(report.find("hold-out check at n = 64"), std::string::npos) << report;
  const auto row = row_of(report, "phase 0");
  ASSERT_TRUE(row.has_value()) << report;
  EXPECT_EQ(row->pattern, "exact") << report;
  EXPECT_DOUBLE_EQ(row->volume_pct, 0.0) << report;
  EXPECT_DOUBLE_EQ(row->weight_pct, 0.0) << report;
  EXPECT_LT(std::abs(row->compute_pct), 1.0) << report;
}

TEST(HoldoutReport, AnotherPeerIsAWrongPattern) {
  // At n = 64 every rank sends to r + 2: the first rank compared is already wrong.
  const std::string report = holdout_report(ring_model(), ring_run(64, {.distance = 2}));
  const auto row = row_of(report, "phase 0");
  ASSERT_TRUE(row.has_value()) << report;
  EXPECT_EQ(row->pattern, "wrong (rank 0)") << report;
  EXPECT_DOUBLE_EQ(row->volume_pct, 0.0) << report;  // the same bytes, to other ranks
}

TEST(HoldoutReport, OneRankWithAnotherPeerIsNamed) {
  LogicalRun holdout = ring_run(64);
  holdout.phases[0].ranks[37].events[1].dst = 5;  // rank 37 sends to 42 instead of 38
  const auto row = row_of(holdout_report(ring_model(), holdout), "phase 0");
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->pattern, "wrong (rank 37)");
}

TEST(HoldoutReport, VolumeAndWeightErrorsArePercentOfTheHoldout) {
  // The hold-out moves 81920 / 64 = 1280 bytes per message where the model says 1024, and
  // repeats 16 times where the model says 10: (1024 - 1280) / 1280 and (10 - 16) / 16.
  const std::string report =
      holdout_report(ring_model(), ring_run(64, {.bytes_total = 81920, .weight = 16}));
  const auto row = row_of(report, "phase 0");
  ASSERT_TRUE(row.has_value()) << report;
  EXPECT_EQ(row->pattern, "exact") << report;
  EXPECT_DOUBLE_EQ(row->volume_pct, -20.0) << report;
  EXPECT_DOUBLE_EQ(row->weight_pct, -37.5) << report;
}

TEST(HoldoutReport, PhaseMissingFromTheHoldoutIsSaid) {
  LogicalRun holdout = ring_run(64);
  holdout.phases.clear();
  const std::string report = holdout_report(ring_model(), holdout);
  EXPECT_NE(report.find("phase 0"), std::string::npos) << report;
  EXPECT_NE(report.find("has no counterpart at n = 64"), std::string::npos) << report;
  EXPECT_FALSE(row_of(report, "phase 0").has_value()) << report;
}

}  // namespace
}  // namespace p3s::model
