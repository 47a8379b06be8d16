// predict_scaling, the loop behind `p3s predict`, called as a library (issue 14): the same
// SMPI-trained stencil as the command's tests, its PET at a held-back N against smpirun's
// simulated time (independent truth), the interval around it, what it writes and when, the
// progress it reports, and a request with nothing to predict.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "integration/run_helpers.hpp"
#include "integration/smpi_truth.hpp"
#include "predict/predict_scaling.hpp"

namespace p3s::testing {
namespace {

namespace fs = std::filesystem;

constexpr int kTarget = 144;

predict::PredictionRequest stencil_request(const SmpiTraining& t, const fs::path& dir) {
  predict::PredictionRequest r;
  r.runs = t.runs;
  r.targets = {kTarget};
  r.platform_name = "default.xml";
  r.simulation.platform = default_platform();
  r.dir = dir;
  return r;
}

TEST(PredictScaling, StencilAtAHeldBackNAgainstSmpirun) {
  const fs::path dir = scratch_dir("predict-library");
  SmpiTraining t;
  train_from_smpi(dir, "stencil2d", {"64", "40"}, {4, 9, 16, 25}, t);
  if (HasFatalFailure()) return;
  const std::optional<double> truth = smpi_simulated_time(
      smpirun_declared(dir / "truth", kTarget, "stencil2d", {"64", "40"}).output);
  ASSERT_TRUE(truth);

  const fs::path out = dir / "report";
  predict::PredictionRequest request = stencil_request(t, out);
  int prepared = 0;
  request.prepare_dir = [&] {
    // Called once the model is built, before anything is written.
    EXPECT_FALSE(fs::exists(out / "app.slt"));
    fs::create_directories(out);
    ++prepared;
  };
  std::vector<std::string> lines;
  request.progress = [&](const std::string& line) { lines.push_back(line); };
  const report::ScalingPrediction p = predict::predict_scaling(request);

  EXPECT_EQ(prepared, 1);
  ASSERT_EQ(p.points.size(), 5u);  // the traced n and the target
  const report::PredictedPoint& at = p.points.back();
  EXPECT_EQ(at.n, kTarget);
  EXPECT_FALSE(at.traced);
  EXPECT_NEAR(at.pet_seconds, *truth, 0.05 * *truth);
  ASSERT_TRUE(at.pet_interval);
  EXPECT_LE(at.pet_interval->low, *truth);
  EXPECT_GE(at.pet_interval->high, *truth);
  std::printf("stencil2d N=%d: smpirun %.6g s, predict_scaling %.6g s in [%.6g, %.6g]\n", kTarget,
              *truth, at.pet_seconds, at.pet_interval->low, at.pet_interval->high);
  for (const report::PredictedPoint& point : p.points) {
    EXPECT_TRUE(fs::is_regular_file(out / ("sim-" + std::to_string(point.n) + ".json"))) << point.n;
  }
  EXPECT_TRUE(fs::is_regular_file(out / "app.slt"));
  EXPECT_FALSE(p.fits.empty());
  EXPECT_EQ(p.platform, "default.xml");

  // One line per training run's signature, the model, and the PET of every N (then its bounds).
  std::size_t signatures = 0, pets = 0;
  bool model = false;
  for (const std::string& line : lines) {
    signatures += line.starts_with("[signature ");
    model |= line.starts_with("[model] 4 runs at n = 4, 9, 16, 25");
    pets += line.find("] PET ") != std::string::npos &&
            line.find("events simulated") != std::string::npos;
  }
  EXPECT_EQ(signatures, 4u);
  EXPECT_TRUE(model);
  EXPECT_EQ(pets, 5u);
}

// The ring built without declared compute, run under smpirun with its MPI calls lasting 0 ns in
// the imported traces: no phase has any time, so none is relevant and nothing is written.
TEST(PredictScaling, RunsWithoutTimeHaveNothingToPredict) {
  const fs::path dir = scratch_dir("predict-library-nothing");
  std::vector<std::string> runs;
  for (const int n : {2, 3, 4}) {
    const fs::path at = dir / ("n" + std::to_string(n));
    fs::create_directories(at / "smpi" / "ti");
    const CommandResult ran = run_command(
        {"env", "-C", (at / "smpi").string(), P3S_SMPIRUN, "-platform", default_platform(),
         "--cfg=smpi/simulate-computation:no", "-trace-ti", "--cfg=tracing/filename:ti/trace.txt",
         "-np", std::to_string(n), std::string(P3S_SMPI_APPS_DIR) + "/smpi_ring", "16", "10"});
    ASSERT_EQ(ran.exit_code, 0) << ran.output;
    ASSERT_EQ(import_ti(at / "smpi" / "ti" / "trace.txt", at / "run").exit_code, 0);
    runs.push_back((at / "run").string());
  }
  predict::PredictionRequest none;
  none.runs = runs;
  none.targets = {16};
  none.simulation.platform = default_platform();
  none.dir = dir / "report";
  none.prepare_dir = [] { ADD_FAILURE() << "the directory was prepared for nothing"; };
  EXPECT_THROW(predict::predict_scaling(none), predict::NothingToPredict);
  EXPECT_FALSE(fs::exists(dir / "report"));
}

}  // namespace
}  // namespace p3s::testing
