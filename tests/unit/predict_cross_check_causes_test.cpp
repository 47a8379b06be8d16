// The cross-check's rule for naming causes (predict/phase_cross_check): a branch is a cause when
// what it moves per repetition is at least half the tolerance of the simulated PhaseET, the
// largest first, whatever its sign.
#include <gtest/gtest.h>

#include "predict/phase_cross_check.hpp"

namespace p3s::predict {
namespace {

std::vector<std::string> branches(const std::vector<CauseEvidence>& causes) {
  std::vector<std::string> out;
  for (const CauseEvidence& c : causes) out.push_back(c.branch);
  return out;
}

TEST(CrossCheckCauses, OnlyWhatMovesHalfTheToleranceIsACauseTheLargestFirst) {
  // PhaseET 100 us, tolerance 10 %: a cause moves at least 5 us.
  const std::vector<CauseEvidence> evidence = {
      {"compute", 4.9e-6, "c"}, {"point-to-point", -30e-6, "p"}, {"collective", 6e-6, "k"}};
  EXPECT_EQ(branches(causes_of(evidence, 100e-6, 0.10)),
            (std::vector<std::string>{"point-to-point", "collective"}));
  EXPECT_EQ(branches(causes_of(evidence, 100e-6, 0.02)),
            (std::vector<std::string>{"point-to-point", "collective", "compute"}));
  EXPECT_TRUE(causes_of(evidence, 100e-6, 0.7).empty());
}

TEST(CrossCheckCauses, APhaseTheSimulationGivesNoTimeIsFlaggedWhenTheReplayMeasuresSome) {
  EXPECT_TRUE(phase_times_differ(0, 1e-6, 0.1));
  EXPECT_FALSE(phase_times_differ(0, 0, 0.1));
  EXPECT_FALSE(phase_times_differ(100e-6, 109e-6, 0.1));
  EXPECT_TRUE(phase_times_differ(100e-6, 111e-6, 0.1));
  EXPECT_TRUE(phase_times_differ(100e-6, 89e-6, 0.1));
}

TEST(CrossCheckCauses, TheReplaysOwnVerdictComesBeforeEvidence) {
  replay::PhaseResult phase;
  EXPECT_FALSE(replay_verdict(phase).has_value());
  phase.collective_fit_misses = "allreduce of 8 bytes: a guess";
  ASSERT_TRUE(replay_verdict(phase).has_value());
  EXPECT_EQ(replay_verdict(phase)->cause, "replay-collective-unfitted");
  EXPECT_FALSE(replay_verdict(phase)->lower_bound);
  EXPECT_NE(replay_verdict(phase)->text.find("allreduce of 8 bytes"), std::string::npos);
  // A phase not held is a lower bound whatever its collectives: that verdict wins.
  phase.not_held = "a cycle of 256 ranks";
  EXPECT_EQ(replay_verdict(phase)->cause, "replay-not-held");
  EXPECT_TRUE(replay_verdict(phase)->lower_bound);
}

}  // namespace
}  // namespace p3s::predict
