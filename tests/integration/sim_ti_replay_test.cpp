// TI export agrees with the simulator: the synthetic stencil exported as SimGrid TI traces and
// replayed by SimGrid's own `smpirun -replay` takes the simulated time p3s's engine gives it.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "integration/run_helpers.hpp"
#include "sim/simulate.hpp"
#include "sim/synthetic_trace.hpp"
#include "ti/ti_export.hpp"

namespace p3s::sim {
namespace {

using p3s::testing::run_command;

// SimGrid installs its replay program beside its library.
std::string smpireplaymain() {
  auto r = run_command({"pkg-config", "--variable=libdir", "simgrid"});
  std::string libdir = r.output.substr(0, r.output.find('\n'));
  return libdir + "/simgrid/smpireplaymain";
}

std::string platform(const std::string& name) {
  return std::string(P3S_SOURCE_DIR) + "/simgrid_platforms/" + name;
}

// smpirun -replay LIST on the first `nprocs` hosts node-0, node-1, ...: the simulated time it
// prints.
double replay(const std::filesystem::path& dir, const std::filesystem::path& list, int nprocs,
              const std::string& platform_file, const std::vector<std::string>& cfg) {
  const std::filesystem::path hostfile = dir / "hosts";
  std::ofstream hosts(hostfile);
  for (int r = 0; r < nprocs; ++r) hosts << "node-" << r << '\n';
  hosts.close();
  std::vector<std::string> argv = {P3S_SMPIRUN,
                                   "-np",
                                   std::to_string(nprocs),
                                   "-platform",
                                   platform_file,
                                   "-hostfile",
                                   hostfile.string(),
                                   "-replay",
                                   list.string(),
                                   "--log=smpi_replay.thres:info"};
  argv.insert(argv.end(), cfg.begin(), cfg.end());
  argv.push_back(smpireplaymain());
  auto r = run_command(argv);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::smatch m;
  const std::regex simulated("Simulation time ([0-9.eE+-]+)");
  if (!std::regex_search(r.output, m, simulated)) {
    ADD_FAILURE() << "no simulated time in smpirun's output:\n" << r.output;
    return -1;
  }
  return std::stod(m[1]);
}

StencilTrace stencil() {
  StencilShape shape;
  shape.side = 4;  // N = 16
  shape.halo_weight = 30;
  shape.residual_weight = 30;
  return StencilTrace(shape);
}

struct Setting {
  const char* platform;
  std::int64_t eager_threshold;          // the engine's
  std::vector<std::string> smpirun_cfg;  // the replay's
};

TEST(TiReplay, FullRunAgreesWithTheEngine) {
  const StencilTrace trace = stencil();
  const std::vector<Setting> settings = {
      {"default.xml", kSmpiEagerThreshold, {}},  // both with SMPI's defaults
      {"default.xml", 0, {"--cfg=smpi/send-is-detached-thresh:0"}},
      {"fat_tree.xml", kSmpiEagerThreshold, {}},
  };
  for (const Setting& s : settings) {
    SCOPED_TRACE(std::string(s.platform) + " eager below " + std::to_string(s.eager_threshold));
    SimOptions o;
    o.platform = platform(s.platform);
    o.mode = SimMode::Full;
    o.eager_threshold = s.eager_threshold;
    const SimResult engine = simulate(trace, o);

    const std::filesystem::path dir = p3s::testing::scratch_dir("sim_ti_replay");
    ti::TiExportOptions t;
    t.host_speed = 1e9;  // the bundled platforms' hosts
    const auto lists = ti::export_ti(trace, dir, t);
    const double replayed =
        replay(dir, lists.at(0), trace.nprocs(), o.platform.string(), s.smpirun_cfg);
    EXPECT_NEAR(replayed, engine.pet, engine.pet * 0.01);
    // smpirun prints microseconds; the engine's time agrees to that precision.
    EXPECT_NEAR(replayed, engine.pet, 2e-6);
  }
}

TEST(TiReplay, PerPhaseRunsAgreeWithTheEngine) {
  const StencilTrace trace = stencil();
  SimOptions o;
  o.platform = platform("default.xml");
  const SimResult engine = simulate(trace, o);
  const std::filesystem::path dir = p3s::testing::scratch_dir("sim_ti_replay_phases");
  ti::TiExportOptions t;
  t.layout = ti::TiLayout::PerPhase;
  t.measured_repetitions = o.measured_repetitions;
  const auto lists = ti::export_ti(trace, dir, t);
  ASSERT_EQ(lists.size(), engine.phases.size());
  for (std::size_t p = 0; p < lists.size(); ++p) {
    // The warm-up and the measured repetitions, which all last alike on this symmetric stencil.
    const double replayed = replay(dir, lists[p], trace.nprocs(), o.platform.string(), {});
    const double expected = engine.phases[p].phase_et * (1 + o.measured_repetitions);
    EXPECT_NEAR(replayed, expected, expected * 0.01) << engine.phases[p].name;
  }
}

}  // namespace
}  // namespace p3s::sim
