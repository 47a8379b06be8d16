#pragma once
// Ground truth from SimGrid for the timing tests: tests/smpi's smpi_APP_flops builds (compute
// declared with APP_COMPUTE_FLOPS, tests/apps/app_common.h) under smpirun on
// simgrid_platforms/default.xml, with smpi/simulate-computation:no so that the simulated time
// does not depend on how fast or how noisily this machine runs the real loops.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "integration/run_helpers.hpp"

namespace p3s::testing {

// simgrid_platforms/default.xml: 4096 hosts of 1 Gflop/s, flat 10 Gb/s.
std::string default_platform();
// The platform's host speed, at which SMPI's TI traces are imported (flops -> CPU time).
inline constexpr const char* kDefaultPlatformFlops = "1e9";

// How an app's compute becomes simulated time: declared by the app (smpi_APP_flops, the same
// on every run), optionally with the rank imbalance of P3S_APP_IMBALANCE (tests/apps/
// app_common.h), or timed by SMPI as this machine runs it (smpi_APP at a host speed of 1 Gf,
// so a second of CPU is a second simulated; as noisy as this machine is).
struct SmpiCompute {
  bool timed = false;
  double imbalance = 0;
};

// smpirun -np N smpi_APP_flops ARGS... in CWD, printing its simulated time at the end.
CommandResult smpirun_declared(const std::filesystem::path& cwd, int nprocs, const std::string& app,
                               const std::vector<std::string>& app_args,
                               const std::vector<std::string>& options = {});

// The same with the app's compute as `compute` says.
CommandResult smpirun_truth(const std::filesystem::path& cwd, int nprocs, const std::string& app,
                            const std::vector<std::string>& app_args, const SmpiCompute& compute,
                            const std::vector<std::string>& options = {});

// SMPI's "Simulated time: X seconds." line (smpi/display-timing).
std::optional<double> smpi_simulated_time(const std::string& output);

struct SmpiTraining {
  std::vector<std::string> runs;             // imported run directories, by n
  std::map<std::int64_t, double> simulated;  // smpirun's simulated time of each run
};

// The app under smpirun -trace-ti at each n (DIR/nN/smpi), imported at the platform's speed
// into DIR/nN/run. Fails the test (fatally) on any error.
void train_from_smpi(const std::filesystem::path& dir, const std::string& app,
                     const std::vector<std::string>& app_args, const std::vector<int>& counts,
                     SmpiTraining& out, const SmpiCompute& compute = {});

}  // namespace p3s::testing
