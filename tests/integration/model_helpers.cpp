#include "integration/model_helpers.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "model/holdout_check.hpp"
#include "signature/run_analysis.hpp"

namespace p3s::testing {

model::LogicalRun logical_run(const std::filesystem::path& dir) {
  signature::AnalysisOptions every_phase;
  every_phase.phases.threshold = 0;
  return model::logical_phases(signature::analyse_run(dir, every_phase));
}

HeldOutModel model_with_holdout(const std::vector<std::filesystem::path>& training,
                                const std::filesystem::path& holdout) {
  model::SltInputs inputs;
  for (const auto& dir : training) inputs.runs.push_back(logical_run(dir));
  inputs.holdout = logical_run(holdout);
  HeldOutModel out;
  out.built = model::build_slt(inputs);
  out.holdout = *inputs.holdout;
  const model::Slt& slt = out.built.slt;
  for (std::size_t k = 1; k < slt.phases.size(); ++k) {
    if (slt.phases[k].shares.back() > slt.phases[out.main].shares.back()) out.main = k;
  }
  if (out.main < out.built.holdout_phase.size() && out.built.holdout_phase[out.main]) {
    out.main_holdout = &out.holdout.phases[*out.built.holdout_phase[out.main]];
  }
  return out;
}

void expect_holdout_exact(const HeldOutModel& held, std::size_t loop, double loop_share,
                          Order order) {
  const model::HoldoutCheck check =
      model::check_holdout(held.built.slt, held.holdout, held.built.holdout_phase);
  ASSERT_EQ(check.phases.size(), held.built.slt.phases.size());
  ASSERT_LT(loop, check.phases.size());
  EXPECT_GE(check.phases[loop].share, loop_share) << check.text();
  for (const model::HoldoutPhase& p : check.phases) {
    if (p.share < 0.01) continue;
    SCOPED_TRACE(p.name + "\n" + check.text());
    EXPECT_TRUE(p.exact || (order == Order::Undecided && p.reordered))
        << p.pattern << " " << p.difference;
    ASSERT_TRUE(p.volume_pct && p.weight_pct);
    EXPECT_LE(std::abs(*p.volume_pct), 2.0);
    EXPECT_EQ(*p.weight_pct, 0.0);
  }
}

}  // namespace p3s::testing
