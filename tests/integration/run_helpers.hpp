#pragma once
// What integration tests share: running real commands (p3s, mpirun, smpirun) and tracing the
// bundled test apps.
#include <filesystem>
#include <string>
#include <vector>

namespace p3s::testing {

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr, interleaved
};

// Runs argv (no shell) and captures its output. Open MPI is allowed to run as root and to
// oversubscribe for every command run this way.
CommandResult run_command(const std::vector<std::string>& argv);

// A fresh empty directory for one test, under the system temporary directory.
std::filesystem::path scratch_dir(const std::string& name);

// p3s trace --out DIR [--workload ...] -- mpirun --oversubscribe -np N APPS_DIR/APP ARGS...
CommandResult trace_app(const std::filesystem::path& out, int nprocs, const std::string& app,
                        const std::vector<std::string>& args,
                        const std::vector<std::string>& trace_flags = {});

std::string p3s_bin();
std::string apps_dir();

}  // namespace p3s::testing
