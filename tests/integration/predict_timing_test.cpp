// Timing truth on a platform (issue 5): p3s predicts an app's run time at N = 256 from SMPI runs
// at n <= 32 on the same SimGrid platform, and the prediction is held against the app's own
// simulated time under smpirun at N = 256.
//
// The apps are the smpi_APP_flops builds (tests/smpi): they declare their compute cost
// (APP_COMPUTE_FLOPS, tests/apps/app_common.h) and run with smpi/simulate-computation:no, so
// SMPI's clock advances by the declared flops only and the ground truth is deterministic
// instead of a max over 256 ranks of bursts timed on a busy machine. Training runs are traced
// with -trace-ti, imported at the platform's host speed (1 Gflop/s) so that the imported compute
// is the simulated one, then signature -> model -> simulate. Both smpirun and p3s simulate use
// SMPI's default settings and collective algorithms (no smpi/coll-selector, no smpi/<coll>).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "integration/run_helpers.hpp"
#include "integration/smpi_truth.hpp"
#include "model/slt_json.hpp"

namespace p3s::testing {
namespace {

namespace fs = std::filesystem;

const std::string kPlatform = default_platform();
constexpr double kHostSpeed = 1e9;  // default.xml's hosts, flops/s
constexpr int kTargetN = 256;
constexpr double kTolerance = 0.05;  // predicted PET within 5 % of smpirun's simulated time

struct TimingCase {
  std::string app;  // tests/apps/APP.c, built by smpicc as smpi_APP_flops
  std::vector<int> training;
  int size = 0;  // stencil2d: edge of the local block; butterfly: doubles per message
  int iters = 0;
  // Flops one rank declares over the whole run at n ranks, from the app's source.
  double (*declared_flops)(int n, int size, int iters) = nullptr;
};

// stencil2d.c: 10 flops per cell of the edge x edge block, once per iteration.
double stencil_flops(int /*n*/, int edge, int iters) {
  return 10.0 * edge * edge * iters;
}

// butterfly.c: per iteration, 4 per element to fill, 1 per element after each of the log2(n)
// exchanges, 3 per element to check.
double butterfly_flops(int n, int count, int iters) {
  return (7.0 + std::log2(static_cast<double>(n))) * count * iters;
}

// Names the case in ctest's and GoogleTest's output instead of dumping its bytes.
void PrintTo(const TimingCase& c, std::ostream* os) {
  *os << c.app << " " << c.size << " " << c.iters;
}

std::string case_name(const ::testing::TestParamInfo<TimingCase>& info) {
  return info.param.app;
}

// p3s simulate at N on the platform; the PET from its JSON.
std::optional<double> predicted_pet(const fs::path& slt, const fs::path& json,
                                    const std::vector<std::string>& mode) {
  std::vector<std::string> argv = {
      p3s_bin(),    "simulate", slt.string(), "-n",         std::to_string(kTargetN),
      "--platform", kPlatform,  "--json",     json.string()};
  argv.insert(argv.end(), mode.begin(), mode.end());
  CommandResult r = run_command(argv);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  if (r.exit_code != 0) return std::nullopt;
  std::ifstream in(json);
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_TRUE(j.contains("pet_seconds")) << j.dump(2);
  if (!j.contains("pet_seconds")) return std::nullopt;
  return j.at("pet_seconds").get<double>();
}

std::vector<std::string> app_args(const TimingCase& c) {
  return {std::to_string(c.size), std::to_string(c.iters)};
}

class PredictTiming : public ::testing::TestWithParam<TimingCase> {};

TEST_P(PredictTiming, PetWithinFivePercentOfSmpirunAtN256) {
  const TimingCase& c = GetParam();
  const fs::path dir = scratch_dir("predict-timing-" + c.app);

  // Ground truth: the app itself under smpirun at N.
  CommandResult truth_run = smpirun_declared(dir / "truth", kTargetN, c.app, app_args(c));
  ASSERT_EQ(truth_run.exit_code, 0) << truth_run.output;
  ASSERT_NE(truth_run.output.find("SUCCESS"), std::string::npos) << truth_run.output;
  const std::optional<double> truth = smpi_simulated_time(truth_run.output);
  ASSERT_TRUE(truth) << "no simulated time in smpirun's output:\n" << truth_run.output;

  // The sizes are chosen so that compute and communication both matter: a prediction that got
  // only one of them right would miss by far more than the tolerance.
  const double compute = c.declared_flops(kTargetN, c.size, c.iters) / kHostSpeed;
  EXPECT_GT(compute, 0.05 * *truth) << "compute is negligible at N = " << kTargetN;
  EXPECT_LT(compute, 0.95 * *truth) << "communication is negligible at N = " << kTargetN;

  SmpiTraining training;
  train_from_smpi(dir, c.app, app_args(c), c.training, training);
  if (HasFatalFailure()) return;
  std::vector<std::string> model_argv = {p3s_bin(), "model"};
  model_argv.insert(model_argv.end(), training.runs.begin(), training.runs.end());
  const fs::path slt = dir / "app.slt";
  model_argv.insert(model_argv.end(), {"-o", slt.string()});
  CommandResult modelled = run_command(model_argv);
  ASSERT_EQ(modelled.exit_code, 0) << modelled.output;
  const model::Slt model = model::read_slt(slt);
  ASSERT_FALSE(model.phases.empty()) << modelled.output;
  for (const auto& phase : model.phases)
    EXPECT_TRUE(phase.pattern_modelled) << phase.name << " not modelled:\n" << modelled.output;

  const std::vector<std::pair<std::string, std::vector<std::string>>> modes = {
      {"per-phase", {}}, {"full", {"--full"}}};
  for (const auto& [name, flags] : modes) {
    SCOPED_TRACE("p3s simulate " + name);
    const std::optional<double> pet = predicted_pet(slt, dir / (name + ".json"), flags);
    if (!pet) continue;
    const double error = (*pet - *truth) / *truth;
    std::printf("%s N=%d %s: smpirun %.6g s, predicted PET %.6g s, error %+.2f %%\n", c.app.c_str(),
                kTargetN, name.c_str(), *truth, *pet, 100.0 * error);
    EXPECT_LE(std::fabs(error), kTolerance)
        << "predicted PET " << *pet << " s against smpirun's " << *truth << " s at N = " << kTargetN
        << " (" << 100.0 * error << " %)";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Apps, PredictTiming,
    ::testing::Values(TimingCase{"stencil2d", {4, 9, 16, 25}, 64, 40, stencil_flops},
                      TimingCase{"butterfly", {4, 8, 16, 32}, 4096, 40, butterfly_flops}),
    case_name);

}  // namespace
}  // namespace p3s::testing
