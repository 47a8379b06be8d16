#include "integration/smpi_truth.hpp"

#include <gtest/gtest.h>

#include <regex>

namespace p3s::testing {

namespace fs = std::filesystem;

std::string default_platform() {
  return std::string(P3S_SOURCE_DIR) + "/simgrid_platforms/default.xml";
}

CommandResult smpirun_declared(const fs::path& cwd, int nprocs, const std::string& app,
                               const std::vector<std::string>& app_args,
                               const std::vector<std::string>& options) {
  return smpirun_truth(cwd, nprocs, app, app_args, {}, options);
}

CommandResult smpirun_truth(const fs::path& cwd, int nprocs, const std::string& app,
                            const std::vector<std::string>& app_args, const SmpiCompute& compute,
                            const std::vector<std::string>& options) {
  fs::create_directories(cwd);
  std::vector<std::string> argv = {"env", "-C", cwd.string()};
  if (compute.imbalance > 0) {
    argv.push_back("P3S_APP_IMBALANCE=" + std::to_string(compute.imbalance));
  }
  argv.insert(argv.end(),
              {P3S_SMPIRUN, "-platform", default_platform(),
               compute.timed ? "--cfg=smpi/host-speed:1Gf" : "--cfg=smpi/simulate-computation:no",
               "--cfg=smpi/display-timing:yes"});
  argv.insert(argv.end(), options.begin(), options.end());
  argv.insert(argv.end(),
              {"-np", std::to_string(nprocs),
               std::string(P3S_SMPI_APPS_DIR) + "/smpi_" + app + (compute.timed ? "" : "_flops")});
  argv.insert(argv.end(), app_args.begin(), app_args.end());
  return run_command(argv);
}

std::optional<double> smpi_simulated_time(const std::string& output) {
  static const std::regex line(R"(Simulated time: ([0-9.eE+-]+) seconds)");
  std::smatch m;
  if (!std::regex_search(output, m, line)) return std::nullopt;
  return std::stod(m[1].str());
}

void train_from_smpi(const fs::path& dir, const std::string& app,
                     const std::vector<std::string>& app_args, const std::vector<int>& counts,
                     SmpiTraining& out, const SmpiCompute& compute) {
  for (const int n : counts) {
    SCOPED_TRACE("training run n = " + std::to_string(n));
    const fs::path at = dir / ("n" + std::to_string(n));
    fs::create_directories(at / "smpi" / "ti");  // SMPI does not create it
    const CommandResult simulated =
        smpirun_truth(at / "smpi", n, app, app_args, compute,
                      {"-trace-ti", "--cfg=tracing/filename:ti/trace.txt"});
    ASSERT_EQ(simulated.exit_code, 0) << simulated.output;
    ASSERT_NE(simulated.output.find("SUCCESS"), std::string::npos) << simulated.output;
    const std::optional<double> t = smpi_simulated_time(simulated.output);
    ASSERT_TRUE(t) << simulated.output;
    out.simulated[n] = *t;
    const CommandResult imported =
        run_command({p3s_bin(), "trace", "import-ti", (at / "smpi" / "ti" / "trace.txt").string(),
                     "-o", (at / "run").string(), "--flops-per-second", kDefaultPlatformFlops});
    ASSERT_EQ(imported.exit_code, 0) << imported.output;
    out.runs.push_back((at / "run").string());
  }
}

}  // namespace p3s::testing
