// Oversubscribed hosts (p3s/shared-core-round): the synthetic 2D stencil of 16 ranks on one
// host of 4 cores, with and without the host property, takes longer by exactly the rounds of
// its blocking calls times the cost per round, worked out by hand from the stencil's calls.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "integration/run_helpers.hpp"
#include "sim/platform_spec.hpp"
#include "sim/simulate.hpp"
#include "sim/synthetic_trace.hpp"

namespace p3s::sim {
namespace {

// One host of `cores` cores, with kSharedCoreRound = 2.5 us when `shared`.
std::filesystem::path one_host(const std::filesystem::path& dir, int cores, bool shared) {
  std::filesystem::create_directories(dir);
  PlatformSpec spec;
  spec.hosts = 1;
  spec.cores_per_host = cores;
  if (shared) spec.host_properties[kSharedCoreRound] = "2.5e-06";
  const std::filesystem::path file =
      dir / ("host-" + std::to_string(cores) + (shared ? "-shared.xml" : ".xml"));
  write_platform(spec, file);
  return file;
}

double stencil_pet(const std::filesystem::path& platform, SimMode mode) {
  StencilShape shape;  // 4 x 4 ranks; weights 100 and 100
  SimOptions o;
  o.platform = platform;
  o.ranks_per_host = 16;
  o.mode = mode;
  return simulate(StencilTrace(shape), o).pet;
}

// 16 ranks on 4 cores: each round costs 2.5 us x (16 / 4 - 1) = 7.5 us. Every rank makes the
// same calls, so each of its repetitions lasts its own rounds longer: "halo" ends in one
// Waitall (1 round), "residual" is one Allreduce over 16 ranks (ceil(log2 16) = 4 rounds).
// PET grows by 100 x 7.5 us + 100 x 4 x 7.5 us = 3.75 ms, per phase and in full.
TEST(SharedCores, StencilPaysItsRoundsOnAnOversubscribedHost) {
  const std::filesystem::path dir = p3s::testing::scratch_dir("sim_shared_core");
  for (SimMode mode : {SimMode::PerPhase, SimMode::Full}) {
    SCOPED_TRACE(std::string(mode_name(mode)));
    const double plain = stencil_pet(one_host(dir, 4, false), mode);
    const double shared = stencil_pet(one_host(dir, 4, true), mode);
    EXPECT_GT(plain, 0.1);  // 100 x (1 ms + 0.1 ms) of compute at least
    EXPECT_NEAR(shared - plain, 3.75e-3, 1e-9);
  }
}

// 16 ranks on 16 cores: nothing to share, the same simulation to the last bit.
TEST(SharedCores, StencilIsUnchangedWhenEveryRankHasACore) {
  const std::filesystem::path dir = p3s::testing::scratch_dir("sim_shared_core_enough");
  EXPECT_EQ(stencil_pet(one_host(dir, 16, true), SimMode::PerPhase),
            stencil_pet(one_host(dir, 16, false), SimMode::PerPhase));
}

}  // namespace
}  // namespace p3s::sim
