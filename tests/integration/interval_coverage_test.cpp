// How honest the PET's interval is (issue 13): on the test apps' SMPI timing-truth cases, the
// share of held-back process counts whose smpirun time falls inside [pet_low, pet_high].
//
// Every app is the smpi_APP_flops build under smpirun on simgrid_platforms/default.xml with
// declared compute (deterministic truth), trained from -trace-ti runs at small n, and predicted
// by `p3s predict` (per-phase and --full) at larger N that no training run saw. The interval is
// claimed at a nominal 90 %: the test prints every case and the coverage, and fails below that.
// It runs some fifty smpirun and p3s simulations (minutes), so it is labelled timing, not CI.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "integration/run_helpers.hpp"
#include "integration/smpi_truth.hpp"

namespace p3s::testing {
namespace {

namespace fs = std::filesystem;

constexpr double kNominal = 0.90;

struct CoverageCase {
  std::string app;
  std::vector<std::string> args;
  std::vector<int> training;
  std::vector<int> held_back;
};

struct Tally {
  int inside = 0;
  int cases = 0;
};

void cover(const CoverageCase& c, Tally& tally) {
  std::string name = c.app;
  for (const std::string& a : c.args) name += "-" + a;
  SCOPED_TRACE(name);
  const fs::path dir = scratch_dir("interval-coverage-" + name);
  SmpiTraining t;
  train_from_smpi(dir, c.app, c.args, c.training, t);
  if (::testing::Test::HasFatalFailure()) return;
  std::map<std::int64_t, double> truth;
  std::string targets;
  for (const int n : c.held_back) {
    const CommandResult r = smpirun_declared(dir / ("truth" + std::to_string(n)), n, c.app, c.args);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const std::optional<double> t_n = smpi_simulated_time(r.output);
    ASSERT_TRUE(t_n) << r.output;
    truth[n] = *t_n;
    targets += (targets.empty() ? "" : ",") + std::to_string(n);
  }
  for (const bool full : {false, true}) {
    const fs::path out = dir / (full ? "full" : "per-phase");
    std::vector<std::string> argv = {p3s_bin(), "predict", "--runs"};
    argv.insert(argv.end(), t.runs.begin(), t.runs.end());
    argv.insert(argv.end(), {"--targets", targets, "--platform", default_platform(), "-o",
                             out.string(), "--force"});
    if (full) argv.push_back("--full");
    const CommandResult r = run_command(argv);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    std::ifstream in(out / "prediction.json");
    const nlohmann::json j = nlohmann::json::parse(in);
    for (const auto& pt : j.at("points")) {
      const std::int64_t n = pt.at("n").get<std::int64_t>();
      if (!truth.contains(n)) continue;
      ASSERT_TRUE(pt.contains("pet_low_seconds")) << pt.dump(2);
      const double pet = pt.at("pet_seconds").get<double>();
      const double low = pt.at("pet_low_seconds").get<double>();
      const double high = pt.at("pet_high_seconds").get<double>();
      const bool inside = low <= truth[n] && truth[n] <= high;
      ++tally.cases;
      tally.inside += inside ? 1 : 0;
      std::printf(
          "%-22s %-9s N=%-4lld truth %.6g PET %.6g (%+6.2f %%) interval [%+6.2f %%, "
          "%+6.2f %%] of the PET: %s\n",
          name.c_str(), full ? "full" : "per-phase", static_cast<long long>(n), truth[n], pet,
          100 * (pet - truth[n]) / truth[n], 100 * (low - pet) / pet, 100 * (high - pet) / pet,
          inside ? "inside" : "OUTSIDE");
    }
  }
}

TEST(IntervalCoverage, HeldBackSmpiRunsFallInsideAtTheNominalRate) {
  const std::vector<CoverageCase> cases = {
      {"stencil2d", {"64", "40"}, {4, 9, 16, 25}, {36, 64, 100, 144, 256}},
      {"stencil2d", {"256", "20"}, {4, 9, 16, 25}, {64, 256}},
      {"butterfly", {"4096", "40"}, {4, 8, 16, 32}, {64, 128, 256}},
      {"butterfly", {"256", "40"}, {4, 8, 16, 32}, {64, 256}},
      {"ring", {"1024", "40"}, {4, 8, 16, 32}, {64, 256}},
      {"two_phase", {"8", "20"}, {4, 8, 16, 32}, {64, 256}},
  };
  Tally tally;
  for (const CoverageCase& c : cases) cover(c, tally);
  ASSERT_GT(tally.cases, 0);
  const double coverage = static_cast<double>(tally.inside) / tally.cases;
  std::printf("interval coverage: %d of %d held-back cases inside (%.1f %%; nominal %.0f %%)\n",
              tally.inside, tally.cases, 100 * coverage, 100 * kNominal);
  EXPECT_GE(coverage, kNominal);
}

}  // namespace
}  // namespace p3s::testing
