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

// p3s trace --out DIR -- mpirun --oversubscribe -np N PROGRAM..., run in `cwd`: any MPI
// program (a real application) as a user traces it.
CommandResult trace_program(const std::filesystem::path& out, int nprocs,
                            const std::vector<std::string>& program,
                            const std::filesystem::path& cwd);

// smpirun -platform P3S_SMPI_PLATFORM OPTIONS... -np N SMPI_APPS_DIR/smpi_APP ARGS..., run in
// `cwd` (created if missing): the app built by smpicc, simulated by SimGrid.
CommandResult smpirun_app(const std::filesystem::path& cwd, int nprocs, const std::string& app,
                          const std::vector<std::string>& args,
                          const std::vector<std::string>& options = {});

// p3s trace import-ti LIST -o RUN --flops-per-second 20000 EXTRA... (SMPI's default host
// speed, so imported compute equals the CPU time SMPI measured).
CommandResult import_ti(const std::filesystem::path& list, const std::filesystem::path& run,
                        const std::vector<std::string>& extra = {});

// The app's declared-flops build (smpi_APP_flops) run under smpirun -trace-ti in DIR/smpi, then
// imported into the run directory DIR/run. Its compute is what the app declares, not bursts
// SMPI timed on this machine, whose noise could split a phase by compute.
// Returns the import's result; the smpirun output is appended to it.
CommandResult trace_app_smpi(const std::filesystem::path& dir, int nprocs, const std::string& app,
                             const std::vector<std::string>& args);

std::string p3s_bin();
std::string apps_dir();

}  // namespace p3s::testing
