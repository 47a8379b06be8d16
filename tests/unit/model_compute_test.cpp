// The compute model on synthetic data: instruction groups, the IPT and its lookup, placing
// measurable points, the notes, and the compute section's JSON round trip.
#include <gtest/gtest.h>

#include "core/format_error.hpp"
#include "model/instruction_groups.hpp"
#include "model/instruction_prediction.hpp"
#include "model/phase_compute_model.hpp"
#include "model/scaling_model_search.hpp"
#include "model/slt_json.hpp"

namespace p3s::model {
namespace {

ScalingFit constant(double value) {
  const std::vector<ScalingPoint> points = {{2, value}, {4, value}};
  return fit_scaling_model(points);
}

// A strong-scaling phase: `total` instructions and `total_ns` of CPU over n ranks, per
// repetition, split evenly.
PhaseComputeRun strong_run(std::int64_t n, double total, double total_ns, bool counters,
                           std::optional<double> workload, std::int64_t weight = 10) {
  PhaseComputeRun run;
  run.n = n;
  run.workload = workload;
  for (std::int64_t r = 0; r < n; ++r) {
    run.cpu_ns.push_back(total_ns / static_cast<double>(n));
    if (counters) run.instructions.push_back(total / static_cast<double>(n));
    run.weight.push_back(weight);
  }
  return run;
}

TEST(ComputeModel, GroupsAreBlocksOfSimilarRanks) {
  const std::vector<double> values = {100, 99, 97, 50, 51, 100};
  EXPECT_EQ(group_starts(values, {}), (std::vector<std::int64_t>{0, 3, 5}));
  // Below the noise floor every rank is one group whatever the ratio.
  EXPECT_EQ(group_starts(values, {.ratio = 0.95, .floor = 60}), (std::vector<std::int64_t>{0}));
}

TEST(ComputeModel, GroupSharesMustAgreeAcrossRuns) {
  const std::vector<RunGroups> halves = {{4, {0, 2}}, {8, {0, 4}}};
  EXPECT_EQ(common_group_shares(halves), (std::vector<double>{0, 0.5, 1}));
  EXPECT_EQ(group_ranks(0.5, 1, 16), (std::pair<std::int64_t, std::int64_t>{8, 16}));
  const std::vector<RunGroups> different = {{4, {0, 1}}, {8, {0, 4}}};
  EXPECT_FALSE(common_group_shares(different).has_value());
}

TEST(ComputeModel, IptPredictsAndLooksUpInstructionsPerRank) {
  const InstructionPrediction ipt{1e9, 1.0};
  const ScalingFit weight = constant(10);
  EXPECT_DOUBLE_EQ(ipt.per_rank(100, weight), 1e6);
  const auto n = ipt.n_for(1e6, weight);
  ASSERT_TRUE(n.has_value());
  EXPECT_NEAR(*n, 100, 1e-6);
  EXPECT_FALSE(ipt.n_for(1e9, weight).has_value());  // more than one rank does at n = 1
}

TEST(ComputeModel, CountersPlaceMeasurablePointsByTheIpt) {
  const double total = 8e9;
  std::vector<PhaseComputeRun> training = {strong_run(2, total, 8e6, true, std::nullopt),
                                           strong_run(4, total, 8e6, true, std::nullopt),
                                           strong_run(8, total, 8e6, true, std::nullopt)};
  // A smaller workload on 4 ranks with the instructions per rank of the original at n = 64.
  const std::vector<PhaseComputeRun> measurable = {
      strong_run(4, total / 16, 8e6 / 16, true, std::nullopt)};
  const PhaseCompute c = model_phase_compute(training, measurable, constant(10), std::nullopt);
  ASSERT_EQ(c.groups.size(), 1u);
  ASSERT_TRUE(c.groups[0].total_instructions.has_value());
  EXPECT_NEAR(*c.groups[0].total_instructions, total * 10, 1);
  ASSERT_EQ(c.groups[0].points.size(), 4u);
  EXPECT_TRUE(c.groups[0].points.back().measurable);
  EXPECT_NEAR(c.groups[0].points.back().n, 64, 1e-6);
  EXPECT_NEAR(c.groups[0].per_rank_ns.at(64), 8e6 / 64, 8e6 / 64 * 0.01);
  EXPECT_TRUE(c.notes.empty()) << c.notes.front();
}

TEST(ComputeModel, NonConstantTotalInstructionsAreReported) {
  std::vector<PhaseComputeRun> training = {strong_run(2, 1e9, 1e6, true, std::nullopt),
                                           strong_run(4, 2e9, 1e6, true, std::nullopt)};
  const PhaseCompute c = model_phase_compute(training, {}, constant(10), std::nullopt);
  EXPECT_FALSE(c.groups[0].total_instructions.has_value());
  ASSERT_FALSE(c.notes.empty());
  EXPECT_NE(c.notes.front().find("not constant"), std::string::npos) << c.notes.front();
}

TEST(ComputeModel, CpuTimePlacesMeasurablePointsByDeclaredWorkload) {
  const double work = 1 << 20;
  std::vector<PhaseComputeRun> training = {strong_run(1, 0, 1e7, false, work),
                                           strong_run(2, 0, 1e7, false, work),
                                           strong_run(4, 0, 1e7, false, work)};
  // Size W/8 on 2 ranks: the work per rank of W on 16 ranks. A regime change: per unit of
  // work this point costs half (it fits in cache, say).
  const std::vector<PhaseComputeRun> measurable = {strong_run(2, 0, 1e7 / 16, false, work / 8)};
  const PhaseCompute c = model_phase_compute(training, measurable, constant(10), work);
  ASSERT_EQ(c.groups[0].points.size(), 4u);
  EXPECT_DOUBLE_EQ(c.groups[0].points.back().n, 16);
  bool regime = false;
  for (const std::string& note : c.notes) regime |= note.find("regime") != std::string::npos;
  EXPECT_TRUE(regime);
}

TEST(ComputeModel, TwoGroupsGetTheirOwnModel) {
  // Ranks in the first half of n do twice the work of the second half, at every n.
  std::vector<PhaseComputeRun> training;
  for (std::int64_t n : {2, 4, 8}) {
    PhaseComputeRun run = strong_run(n, 0, 0, false, std::nullopt);
    for (std::int64_t r = 0; r < n; ++r)
      run.cpu_ns[static_cast<std::size_t>(r)] = (r < n / 2 ? 2e7 : 1e7) / static_cast<double>(n);
    training.push_back(run);
  }
  const PhaseCompute c = model_phase_compute(training, {}, constant(10), std::nullopt);
  ASSERT_EQ(c.groups.size(), 2u);
  EXPECT_DOUBLE_EQ(c.groups[1].first, 0.5);
  EXPECT_NEAR(c.groups[0].per_rank_ns.at(64), 2e7 / 64, 1);
  EXPECT_NEAR(c.groups[1].per_rank_ns.at(64), 1e7 / 64, 1);
}

TEST(ComputeModel, RanksThatRepeatEveryFewAreClassesOfTheirOwn) {
  // Ranks with r mod 4 == 3 do three times the work of the others, at every n.
  std::vector<PhaseComputeRun> training;
  for (std::int64_t n : {4, 8, 12, 16}) {
    PhaseComputeRun run = strong_run(n, 0, 0, false, std::nullopt);
    for (std::int64_t r = 0; r < n; ++r)
      run.cpu_ns[static_cast<std::size_t>(r)] = r % 4 == 3 ? 3e6 : 1e6;
    training.push_back(run);
  }
  const PhaseCompute c = model_phase_compute(training, {}, constant(10), std::nullopt);
  ASSERT_EQ(c.groups.size(), 2u);
  EXPECT_EQ(c.groups[0].modulus, 4);
  EXPECT_EQ(c.groups[0].residues, (std::vector<std::int64_t>{0, 1, 2}));
  EXPECT_EQ(c.groups[1].residues, (std::vector<std::int64_t>{3}));
  EXPECT_FALSE(c.groups[1].slowest);
  EXPECT_NEAR(c.groups[1].per_rank_ns.at(256), 3e6, 1);
  EXPECT_NEAR(c.groups[0].per_rank_ns.at(256), 1e6, 1);
}

TEST(ComputeModel, ClassesOfRanksStandOutOfCpuTimeNoise) {
  // CPU microseconds per repetition measured by p3s trace on app_imbalanced (ranks r mod 4 == 3
  // sweep three times as often), 4 to 12 ranks on 2 cores: ranks doing the same work differ by
  // up to a quarter, from run to run by more.
  const std::vector<std::vector<double>> measured = {
      {234, 173, 230, 516},
      {233, 232, 230, 666, 228, 233, 232, 671},
      {174, 174, 179, 513, 175, 175, 174, 514, 175, 174, 177, 509}};
  std::vector<PhaseComputeRun> training;
  for (const std::vector<double>& us : measured) {
    PhaseComputeRun run =
        strong_run(static_cast<std::int64_t>(us.size()), 0, 0, false, std::nullopt);
    for (std::size_t r = 0; r < us.size(); ++r) run.cpu_ns[r] = 1000 * us[r];
    training.push_back(run);
  }
  const PhaseCompute c = model_phase_compute(training, {}, constant(50), std::nullopt);
  ASSERT_EQ(c.groups.size(), 2u);
  EXPECT_EQ(c.groups[0].modulus, 4);
  EXPECT_EQ(c.groups[1].residues, (std::vector<std::int64_t>{3}));
  // Each class goes at its slowest rank's pace.
  EXPECT_DOUBLE_EQ(c.groups[1].points[1].cpu_ns, 671e3);
  EXPECT_DOUBLE_EQ(c.groups[0].points[0].cpu_ns, 234e3);
}

TEST(ComputeModel, ClassesNeedTwoRunsWithEveryResidueTwice) {
  // Every 7th rank is slow at n = 8 only: a run of 8 ranks cannot confirm a rule mod 7.
  std::vector<PhaseComputeRun> training;
  for (std::int64_t n : {4, 6, 8}) {
    PhaseComputeRun run = strong_run(n, 0, 0, false, std::nullopt);
    for (std::int64_t r = 0; r < n; ++r) run.cpu_ns[static_cast<std::size_t>(r)] = 1e6;
    training.push_back(run);
  }
  training.back().cpu_ns[0] = 3e6;
  training.back().cpu_ns[7] = 3e6;
  const PhaseCompute c = model_phase_compute(training, {}, constant(50), std::nullopt);
  ASSERT_EQ(c.groups.size(), 1u);
  EXPECT_TRUE(c.groups[0].slowest);
}

TEST(ComputeModel, RanksThatDifferByNoRuleAreGivenTheSlowest) {
  // One rank per run is twice as slow, a different one each time: no block, no class.
  std::vector<PhaseComputeRun> training;
  const std::vector<std::int64_t> slow = {1, 6, 3};
  for (std::size_t i = 0; i < 3; ++i) {
    const std::int64_t n = std::int64_t{4} << i;
    PhaseComputeRun run = strong_run(n, 0, 0, false, std::nullopt);
    for (std::int64_t r = 0; r < n; ++r)
      run.cpu_ns[static_cast<std::size_t>(r)] = r == slow[i] ? 2e6 : 1e6;
    training.push_back(run);
  }
  const PhaseCompute c = model_phase_compute(training, {}, constant(10), std::nullopt);
  ASSERT_EQ(c.groups.size(), 1u);
  EXPECT_TRUE(c.groups[0].slowest);
  for (const ComputePoint& p : c.groups[0].points) EXPECT_DOUBLE_EQ(p.cpu_ns, 2e6);
  ASSERT_FALSE(c.notes.empty());
  EXPECT_NE(c.notes.front().find("slowest rank"), std::string::npos) << c.notes.front();
}

TEST(ComputeModel, ComputeSectionRoundTripsThroughJson) {
  Slt slt;
  slt.application = "app";
  slt.runs = {2, 4};
  slt.coverage = {{2, "runs/2", 1.0, {}},
                  {4, "runs/4", 0.9, {{"phase 1 (bcast)", 0.1, "why", 1, true}}}};
  PhaseModel phase;
  phase.name = "phase 0";
  phase.weight = constant(10);
  slt.phases.push_back(phase);
  slt.compute.machine = "host";
  slt.compute.workload = core::Workload{"grid", 4096};
  std::vector<PhaseComputeRun> training = {strong_run(2, 0, 1e6, false, 4096.0),
                                           strong_run(4, 0, 1e6, false, 4096.0)};
  PhaseCompute compute = model_phase_compute(training, {}, phase.weight, 4096.0);
  compute.slot_shares = {0.25, 0.75};
  slt.compute.phases.push_back(compute);
  const Slt back = slt_from_json(slt_to_json(slt), "test");
  EXPECT_EQ(back.compute, slt.compute);
  EXPECT_EQ(back.coverage, slt.coverage);
  nlohmann::json broken = slt_to_json(slt);
  broken["compute"]["phases"][0]["groups"][0]["ranks"] = {0, 0.5};  // ranks left uncovered
  EXPECT_THROW(slt_from_json(broken, "test"), core::FormatError);
  broken = slt_to_json(slt);
  broken["compute"]["phases"][0]["groups"][0]["modulus"] = 2;  // residue 1 in no group
  EXPECT_THROW(slt_from_json(broken, "test"), core::FormatError);
}

}  // namespace
}  // namespace p3s::model
