// How honest the PET's interval is (issue 22) against SimGrid truth with timed compute: the same
// cases as the CI test, but every compute burst is timed by SMPI as this machine runs it (a
// second of CPU a second simulated), in the training runs and in the truth alike. It measures
// what a user meets on a real machine (bursts that vary from step to step, which a synchronised
// step pays at its slowest rank's), so it depends on how quiet the machine is: labelled timing.
#include <gtest/gtest.h>

#include <vector>

#include "integration/interval_coverage.hpp"

namespace p3s::testing {
namespace {

TEST(IntervalCoverageTimed, HeldOutRunsWithTimedComputeFallInside) {
  const std::vector<CoverageCase> cases = {
      {"stencil2d", {"64", "40"}, {4, 9, 16, 25}, {36, 64}},
      {"butterfly", {"4096", "40"}, {4, 8, 16, 32}, {64, 128}},
      {"ring", {"1024", "40"}, {4, 8, 16, 32}, {64, 128}},
      {"two_phase", {"8", "20"}, {4, 8, 16, 32}, {64, 128}},
      {"imbalanced", {"2048", "40"}, {4, 6, 8, 12}, {16, 32}},
      {"stencil3d", {"16", "30"}, {8, 12, 16, 27}, {32, 64}},
      {"wavefront", {"1024", "40"}, {4, 6, 8, 12}, {16, 24}},
  };
  std::vector<CoveragePoint> points;
  for (const CoverageCase& c : cases) {
    cover(c, {.timed = true, .imbalance = 0}, points);
    if (HasFatalFailure()) return;
  }
  EXPECT_GE(print_coverage(points, 0.9), 0.8);
}

}  // namespace
}  // namespace p3s::testing
