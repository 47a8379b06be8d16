// Real applications, traced as a user traces them, modelled and held against a real run at 4x
// the largest training n: Debian's LAMMPS on a Lennard-Jones liquid, weak scaling.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "integration/model_helpers.hpp"
#include "integration/run_helpers.hpp"
#include "model/holdout_check.hpp"
#include "model/slt_json.hpp"

namespace p3s::testing {
namespace {

namespace fs = std::filesystem;

struct Grid {
  int n, px, py, pz;
};

// MPI_Dims_create(n, 3) as Open MPI returns it, largest first. LAMMPS minimises the surface
// between subdomains, so given a box of these proportions it picks this grid (checked in its
// log): weak scaling as a user sets it up, every process with the same block of atoms.
constexpr Grid kTraining[] = {{27, 3, 3, 3}, {36, 4, 3, 3}, {48, 4, 4, 3}};
constexpr Grid kHoldout = {192, 8, 6, 4};  // 4x the largest training n
constexpr int kGenerated = 768;            // 16x

std::string slurp(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path trace_lj(const fs::path& work, const Grid& g) {
  const std::string name = "lj-" + std::to_string(g.n);
  const fs::path dir = work / name;
  const fs::path log = work / (name + ".log");
  const CommandResult traced = trace_program(
      dir, g.n, {P3S_LAMMPS, "-in",        std::string(P3S_REAL_APPS_DIR) + "/lammps/in.lj-weak",
                 "-var",     "px",         std::to_string(g.px),
                 "-var",     "py",         std::to_string(g.py),
                 "-var",     "pz",         std::to_string(g.pz),
                 "-var",     "steps",      "100",
                 "-var",     "every",      "50",
                 "-log",     log.string(), "-screen",
                 "none"},
      work);
  if (traced.exit_code != 0) {
    // Open MPI's launcher, 192 ranks on two busy cores, sometimes reports a rank that reached
    // MPI_Finalize as "exiting improperly" (with PID 0). The trace is whole when the tracer saw
    // every rank finish; anything else fails.
    EXPECT_NE(traced.output.find("exiting improperly"), std::string::npos) << traced.output;
    EXPECT_NE(slurp(dir / "run.json").find("\"complete\": true"), std::string::npos)
        << traced.output;
  }
  const std::string grid = std::to_string(g.px) + " by " + std::to_string(g.py) + " by " +
                           std::to_string(g.pz) + " MPI processor grid";
  EXPECT_NE(slurp(log).find(grid), std::string::npos) << "LAMMPS did not pick " << grid;
  return dir;
}

TEST(RealApps, LammpsLennardJonesWeakScalingIsModelledExactly) {
  const fs::path work = scratch_dir("real-lammps-lj-weak");
  std::vector<fs::path> training;
  std::vector<std::string> model_cmd = {p3s_bin(), "model"};
  for (const Grid& g : kTraining) {
    training.push_back(trace_lj(work, g));
    model_cmd.push_back(training.back().string());
  }
  const fs::path holdout = trace_lj(work, kHoldout);
  const fs::path slt_file = work / "lj.slt";
  model_cmd.insert(model_cmd.end(), {"--holdout", holdout.string(), "-o", slt_file.string()});

  // As a user runs it: p3s model exits 0 only when every training run is covered to 90 %.
  const CommandResult modelled = run_command(model_cmd);
  ASSERT_EQ(modelled.exit_code, 0) << modelled.output;
  const model::Slt slt = model::read_slt(slt_file);
  ASSERT_EQ(slt.coverage.size(), 3u);
  for (const model::RunCoverage& c : slt.coverage) {
    EXPECT_GE(c.modelled, 0.9) << "n = " << c.n << "\n" << modelled.output;
  }

  // Every phase that takes at least 1 % of the run at 192 ranks, the timestep loop first among
  // them, against what those 192 ranks really did.
  const HeldOutModel held = model_with_holdout(training, holdout);
  expect_holdout_exact(held, held.main, 0.5);
  // The compute bands at 192 against the run, printed for the record (README: on this machine
  // the run's CPU time per rank carries the load of 96 ranks per core, which no training run
  // had; nothing here holds them to coverage).
  std::printf(
      "%s",
      model::check_holdout(held.built.slt, held.holdout, held.built.holdout_phase).text().c_str());

  // At 16x: every message has its receiver and every collective all its members. Phases the
  // model does not express are left out, and say so with their share, which is small.
  const CommandResult generated =
      run_command({p3s_bin(), "generate", slt_file.string(), "-n", std::to_string(kGenerated), "-o",
                   (work / "st4np").string(), "--partial"});
  EXPECT_EQ(generated.exit_code, 0) << generated.output;
  EXPECT_NE(generated.output.find("consistent"), std::string::npos) << generated.output;
  for (const model::PhaseModel& p : slt.phases) {
    if (p.pattern_modelled) continue;
    EXPECT_NE(generated.output.find("LEFT OUT " + p.name), std::string::npos) << generated.output;
    EXPECT_LT(p.shares.back(), 0.05) << p.name;
  }
}

}  // namespace
}  // namespace p3s::testing
