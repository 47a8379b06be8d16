#include "integration/model_helpers.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "model/holdout_check.hpp"
#include "model/model_runs.hpp"
#include "model/slt_json.hpp"
#include "signature/run_analysis.hpp"

namespace p3s::testing {

namespace {

signature::Signature every_phase_of(const std::filesystem::path& dir) {
  signature::AnalysisOptions every_phase;
  every_phase.phases.threshold = 0;
  return signature::analyse_run(dir, every_phase);
}

}  // namespace

model::LogicalRun logical_run(const std::filesystem::path& dir) {
  return model::logical_phases(every_phase_of(dir));
}

HeldOutModel model_with_holdout(const std::vector<std::filesystem::path>& training,
                                const std::filesystem::path& holdout) {
  std::vector<signature::Signature> signatures;
  for (const auto& dir : training) signatures.push_back(every_phase_of(dir));
  // The runs as `p3s model` relates them: cut like the largest where they read like it.
  model::RunsForModel runs = model::runs_for_model(signatures, {}, every_phase_of(holdout));
  model::SltInputs inputs;
  inputs.runs = std::move(runs.training);
  inputs.holdout = std::move(runs.holdout);
  HeldOutModel out;
  out.built = model::build_slt(inputs);
  out.holdout = *inputs.holdout;
  // As `p3s model --holdout` does: the run settles what the training runs left undecided.
  model::HoldoutCheck check =
      model::check_holdout(out.built.slt, out.holdout, out.built.holdout_phase);
  model::settle_by_holdout(out.built, check);
  // The loop: of the phases that repeat in the largest training run, the one with the largest
  // share there (a setup phase made once can take more of a small oversubscribed run when its
  // ranks wait their turns), else the largest phase.
  const model::Slt& slt = out.built.slt;
  const auto repeats = [&](const model::PhaseModel& p) {
    return !p.runs_n.empty() && p.weight.at(static_cast<double>(p.runs_n.back())) > 1;
  };
  for (std::size_t k = 1; k < slt.phases.size(); ++k) {
    const model::PhaseModel& candidate = slt.phases[k];
    const model::PhaseModel& chosen = slt.phases[out.main];
    const bool loop_first = repeats(candidate) && !repeats(chosen);
    const bool same_kind = repeats(candidate) == repeats(chosen);
    if (loop_first || (same_kind && candidate.shares.back() > chosen.shares.back())) out.main = k;
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
    // Every phase that matters gets the fits' bands at the hold-out's n, or the check says why
    // not (the fit of a small phase's CPU times, noise on a shared machine, may turn back
    // before n); the weight's band, exact, holds the run.
    EXPECT_TRUE((p.compute_band && p.weight_band) || !p.no_band.empty());
    if (p.weight_band) {
      EXPECT_TRUE(p.weight_band->holds());
    }
  }
}

ModelledApp trace_and_model(const std::filesystem::path& work, const std::string& app,
                            const std::vector<std::string>& args, const std::vector<int>& training,
                            int holdout) {
  auto traced = [&](int n) {
    const std::filesystem::path dir = work / (app + "-" + std::to_string(n));
    const CommandResult result = trace_app(dir, n, app, args);
    EXPECT_EQ(result.exit_code, 0) << result.output;
    return dir;
  };
  ModelledApp out;
  std::vector<std::string> cmd = {p3s_bin(), "model"};
  for (int n : training) {
    out.training.push_back(traced(n));
    cmd.push_back(out.training.back().string());
  }
  out.holdout = traced(holdout);
  cmd.insert(cmd.end(), {"--holdout", out.holdout.string(), "-o", (work / "app.slt").string()});
  out.modelled = run_command(cmd);
  return out;
}

void expect_covered(const std::filesystem::path& slt_file, const CommandResult& modelled,
                    std::size_t runs) {
  // Exit 0: every training run covered to 90 %, and nothing left undecided.
  ASSERT_EQ(modelled.exit_code, 0) << modelled.output;
  const model::Slt slt = model::read_slt(slt_file);
  EXPECT_EQ(slt.coverage.size(), runs) << modelled.output;
  for (const model::RunCoverage& cov : slt.coverage) {
    EXPECT_GE(cov.modelled, 0.9) << "n = " << cov.n << "\n" << modelled.output;
  }
}

}  // namespace p3s::testing
