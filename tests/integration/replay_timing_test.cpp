// Timing truth for the Synthetic Signature (issue 11): p3s-replay built by smpicxx and run under
// smpirun on simgrid_platforms/default.xml stands in for a cluster whose truth is known. The
// app is trained from SMPI runs (as the prediction's timing test does), modelled, simulated by
// `p3s simulate` at N, and replayed at N on R = N processes (no ranges: the same PET within 2 %)
// and on R = N / 8 (ranges, black holes, noise, collectives from their fit: within 10 %, every
// phase's error printed; the stencil's phase carries an allreduce at every repetition).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>

#include "integration/run_helpers.hpp"
#include "integration/smpi_truth.hpp"

namespace p3s::testing {
namespace {

namespace fs = std::filesystem;

struct TimingCase {
  std::string app;
  std::vector<int> training;
  std::vector<std::string> args;
};

void PrintTo(const TimingCase& c, std::ostream* os) {
  *os << c.app;
}

std::string case_name(const ::testing::TestParamInfo<TimingCase>& info) {
  return info.param.app;
}

nlohmann::json read_json(const fs::path& file) {
  std::ifstream in(file);
  return nlohmann::json::parse(in);
}

// p3s-replay-smpi under smpirun: R processes, each on its own host, compute in simulated time.
CommandResult replay_smpi(const fs::path& dir, const fs::path& slt, int n, int processes,
                          const fs::path& json) {
  fs::create_directories(dir);
  return run_command({"env", "-C", dir.string(), P3S_SMPIRUN, "-platform", default_platform(),
                      "--cfg=smpi/simulate-computation:no", "--cfg=smpi/wtime:0", "-np",
                      std::to_string(processes), P3S_REPLAY_SMPI_BIN, slt.string(), "-n",
                      std::to_string(n), "-o", json.string(), "--force"});
}

class ReplayTiming : public ::testing::TestWithParam<TimingCase> {};

TEST_P(ReplayTiming, MatchesTheSimulatorAtRangesAndWithout) {
  const TimingCase& c = GetParam();
  const fs::path dir = scratch_dir("replay-timing-" + c.app);
  SmpiTraining training;
  train_from_smpi(dir, c.app, c.args, c.training, training);
  if (HasFatalFailure()) return;
  std::vector<std::string> model_argv = {p3s_bin(), "model"};
  model_argv.insert(model_argv.end(), training.runs.begin(), training.runs.end());
  const fs::path slt = dir / "app.slt";
  model_argv.insert(model_argv.end(), {"-o", slt.string()});
  const CommandResult modelled = run_command(model_argv);
  ASSERT_EQ(modelled.exit_code, 0) << modelled.output;

  for (const int n : {64, 256}) {
    SCOPED_TRACE("N = " + std::to_string(n));
    const fs::path sim_json = dir / ("sim-" + std::to_string(n) + ".json");
    const CommandResult simulated =
        run_command({p3s_bin(), "simulate", slt.string(), "-n", std::to_string(n), "--platform",
                     default_platform(), "--json", sim_json.string()});
    ASSERT_EQ(simulated.exit_code, 0) << simulated.output;
    const nlohmann::json sim = read_json(sim_json);
    const double sim_pet = sim.at("pet_seconds").get<double>();
    for (const int processes : {n, n / 8}) {
      SCOPED_TRACE("R = " + std::to_string(processes));
      const double tolerance = processes == n ? 0.02 : 0.10;
      const fs::path json =
          dir / ("replay-" + std::to_string(n) + "-" + std::to_string(processes) + ".json");
      const CommandResult replayed = replay_smpi(dir / "smpi-replay", slt, n, processes, json);
      ASSERT_EQ(replayed.exit_code, 0) << replayed.output;
      const nlohmann::json rep = read_json(json);
      const double pet = rep.at("pet_seconds").get<double>();
      const double error = (pet - sim_pet) / sim_pet;
      std::printf(
          "%s N=%d R=%d (M=%d, %d black holes, %d noise pairs, %d steps): replay PET %.6g s, "
          "simulate %.6g s, error %+.2f %%\n",
          c.app.c_str(), n, processes, rep.at("measurable").get<int>(),
          rep.at("black_holes").get<int>(), rep.at("noise_pairs").get<int>(),
          rep.at("steps").get<int>(), pet, sim_pet, 100 * error);
      EXPECT_LE(std::fabs(error), tolerance) << replayed.output;
      ASSERT_EQ(rep.at("phases").size(), sim.at("phases").size());
      for (std::size_t p = 0; p < sim.at("phases").size(); ++p) {
        const nlohmann::json& s = sim.at("phases")[p];
        const nlohmann::json& r = rep.at("phases")[p];
        const double truth = s.at("phase_et_seconds").get<double>();
        const double got = r.at("phase_et_seconds").get<double>();
        const double phase_error = (got - truth) / truth;
        std::printf("  %s (weight %g, collectives %s): PhaseET %.6g s against %.6g s, %+.2f %%\n",
                    r.at("name").get<std::string>().c_str(), r.at("weight").get<double>(),
                    r.at("collectives").get<std::string>().c_str(), got, truth, 100 * phase_error);
        // Phases that matter to the PET are held to the same tolerance; one-off phases of a
        // few microseconds are printed only.
        if (truth * s.at("weight").get<double>() >= 0.01 * sim_pet) {
          EXPECT_LE(std::fabs(phase_error), tolerance) << r.at("name");
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Apps, ReplayTiming,
                         ::testing::Values(TimingCase{"stencil2d", {4, 9, 16, 25}, {"64", "40"}},
                                           TimingCase{"butterfly", {4, 8, 16, 32}, {"4096", "40"}}),
                         case_name);

}  // namespace
}  // namespace p3s::testing
