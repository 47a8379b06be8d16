// Timing truth of the compute model on this machine: app_stencil2d traced at n = 1, 4, 9 with
// one total grid, plus measurable points (n = 9 with smaller grids), predicts the CPU time of
// the main phase per rank at n = 16, which is then traced for real and compared.
//
// app_stencil2d's `edge` is the LOCAL block edge, so a strong-scaling series keeps the total
// grid fixed: edge = 1152 / sqrt(n) (1152, 576, 384, 288), and --workload declares the total
// number of grid points n * edge^2, which is proportional to the work. A measurable run at
// n_m with edge e then does the work per rank of the original grid at n = 1152^2 / e^2.
//
// Sizes: the whole grid (21 MB of doubles, two copies) fits the 32 MB L3 of the CI machine
// and a rank's block exceeds its L2 from n = 16 down, so every run streams from L3 and CPU
// time per grid point stays within a few % between runs. The measurable runs use 9 ranks
// (oversubscribed too, as the real n = 16 is): a single rank alone on the machine
// computes 10-15 % faster per point than 16 ranks sharing 2 cores, which is oversubscription,
// not scaling. CPU time is the per-thread clock, which does not count the time a rank waits
// for a core.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "integration/model_helpers.hpp"
#include "integration/run_helpers.hpp"
#include "model/logical_phases.hpp"
#include "model/slt_json.hpp"
#include "model/slt_scaled_trace.hpp"
#include "signature/signature_json.hpp"

namespace p3s::testing {
namespace {

namespace fs = std::filesystem;

constexpr int kTotalEdge = 1152;
constexpr int kIterations = 100;

fs::path traced_run(const fs::path& work, int n, int edge) {
  const fs::path dir = work / ("stencil-" + std::to_string(n) + "-" + std::to_string(edge));
  const long points = static_cast<long>(n) * edge * edge;
  const CommandResult traced =
      trace_app(dir, n, "app_stencil2d", {std::to_string(edge), std::to_string(kIterations)},
                {"--workload", "grid=" + std::to_string(points)});
  EXPECT_EQ(traced.exit_code, 0) << traced.output;
  const CommandResult sig = run_command({p3s_bin(), "signature", dir.string()});
  EXPECT_EQ(sig.exit_code, 0) << sig.output;
  return dir;
}

TEST(ModelCompute, Stencil2dMeasurablePointsPredictN16Within10Percent) {
  const fs::path work = scratch_dir("model_compute_stencil");
  std::vector<std::string> model_cmd = {p3s_bin(), "model"};
  std::vector<fs::path> training;
  for (int n : {1, 4, 9}) {
    const int edge = kTotalEdge / static_cast<int>(std::lround(std::sqrt(n)));
    training.push_back(traced_run(work, n, edge));
    model_cmd.push_back(training.back().string());
  }
  model_cmd.push_back("--measurable");
  // Placed at n = 1152^2 / 300^2 = 14.75 and 1152^2 / 270^2 = 18.2, around the n = 16 to
  // predict: blocks of nearly its shape, since the time per grid point depends on the block's
  // edge (an edge of 235 costs 25 % more per point than 288 on the machine this was written on).
  for (int edge : {300, 270}) model_cmd.push_back(traced_run(work, 9, edge).string());
  const fs::path slt_file = work / "app.slt";
  model_cmd.insert(model_cmd.end(), {"-o", slt_file.string()});
  const CommandResult modelled = run_command(model_cmd);
  ASSERT_EQ(modelled.exit_code, 0) << modelled.output;
  EXPECT_NE(modelled.output.find("placed at n = 14.75"), std::string::npos) << modelled.output;

  const model::Slt slt = model::read_slt(slt_file);
  ASSERT_FALSE(slt.phases.empty());
  ASSERT_EQ(slt.compute.phases.size(), slt.phases.size());
  EXPECT_EQ(slt.compute.metric, "cpu_time");
  ASSERT_TRUE(slt.compute.workload.has_value());
  EXPECT_EQ(slt.compute.workload->size, double(kTotalEdge) * kTotalEdge);
  std::size_t measurable = 0;
  for (const model::ComputePoint& p : slt.compute.phases.front().groups.front().points)
    measurable += p.measurable ? 1 : 0;
  EXPECT_EQ(measurable, 2u);

  constexpr int kBig = 16;
  // Square training grids (1, 4, 9) leave the stencil's peers at 16 undecided between a
  // sqrt(n) grid and others; this test is about compute, so the model's choice is taken.
  const model::SltScaledTrace predicted(slt, kBig, {.accept_undecided = true});
  const HeldOutModel held = model_with_holdout(training, traced_run(work, kBig, kTotalEdge / 4));
  ASSERT_NE(held.main_holdout, nullptr);
  const std::size_t main = held.main;
  const model::LogicalPhase& loop = *held.main_holdout;
  ASSERT_EQ(loop.ranks.size(), static_cast<std::size_t>(kBig));
  double predicted_ns = 0;
  double real_ns = 0;
  std::string strays;
  for (int r = 0; r < kBig; ++r) {
    const double p = predicted.compute_ns(static_cast<int>(main), r);
    const double m = loop.ranks[static_cast<std::size_t>(r)].cpu_ns;
    predicted_ns += p;
    real_ns += m;
    if (std::abs(p - m) > 0.25 * m) {
      strays += "rank " + std::to_string(r) + ": predicted " + std::to_string(p) + " ns, real " +
                std::to_string(m) + " ns\n";
    }
  }
  std::printf(
      "phase 0 compute per rank at n = %d: predicted %.0f ns, measured %.0f ns (%+.1f %%)\n", kBig,
      predicted_ns / kBig, real_ns / kBig, 100 * (predicted_ns - real_ns) / real_ns);
  // One rank alone is noisier than their mean: with 16 ranks on 2 cores, context switches and
  // cache evictions land on a few ranks (seen: one rank 26 % slower than its neighbours).
  EXPECT_LE(std::count(strays.begin(), strays.end(), '\n'), 2) << strays << modelled.output;
  EXPECT_LE(std::abs(predicted_ns - real_ns), 0.10 * real_ns)
      << "mean per rank: predicted " << predicted_ns / kBig << " ns, real " << real_ns / kBig
      << " ns\n"
      << modelled.output;
}

}  // namespace
}  // namespace p3s::testing
