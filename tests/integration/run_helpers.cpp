#include "integration/run_helpers.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace p3s::testing {
namespace {

// Open MPI refuses root and more ranks than cores unless told; CI runs as root on 2 cores.
const bool kMpiEnvironment = [] {
  setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
  setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
  setenv("OMPI_MCA_rmaps_base_oversubscribe", "1", 1);
  setenv("OMPI_MCA_btl_vader_single_copy_mechanism", "none", 1);
  return true;
}();

}  // namespace

std::string p3s_bin() {
  return P3S_BIN;
}
std::string apps_dir() {
  return P3S_APPS_DIR;
}

CommandResult run_command(const std::vector<std::string>& argv) {
  int pipefd[2];
  if (pipe(pipefd) != 0) throw std::runtime_error("pipe failed");
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    dup2(pipefd[1], STDOUT_FILENO);
    dup2(pipefd[1], STDERR_FILENO);
    close(pipefd[0]);
    close(pipefd[1]);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  close(pipefd[1]);
  CommandResult result;
  std::array<char, 4096> buf;
  ssize_t got;
  while ((got = read(pipefd[0], buf.data(), buf.size())) > 0) result.output.append(buf.data(), got);
  close(pipefd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

namespace {

// Each test process has its own scratch root (ctest -j runs tests side by side, and tests of
// one suite share names), removed at exit when every test passed and kept to look at when not.
struct ScratchRoot {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / "p3s-tests" / std::to_string(getpid());
  ~ScratchRoot() {
    if (::testing::UnitTest::GetInstance()->Passed()) {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  }
};

const std::filesystem::path& scratch_root() {
  static const ScratchRoot root;
  return root.path;
}

}  // namespace

std::filesystem::path scratch_dir(const std::string& name) {
  auto dir = scratch_root() / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir.parent_path());
  return dir;
}

CommandResult trace_app(const std::filesystem::path& out, int nprocs, const std::string& app,
                        const std::vector<std::string>& args,
                        const std::vector<std::string>& trace_flags) {
  std::vector<std::string> argv = {p3s_bin(), "trace", "--out", out.string()};
  argv.insert(argv.end(), trace_flags.begin(), trace_flags.end());
  argv.insert(argv.end(), {"--", P3S_MPIRUN, "--oversubscribe", "-np", std::to_string(nprocs),
                           apps_dir() + "/" + app});
  argv.insert(argv.end(), args.begin(), args.end());
  return run_command(argv);
}

CommandResult trace_program(const std::filesystem::path& out, int nprocs,
                            const std::vector<std::string>& program,
                            const std::filesystem::path& cwd) {
  std::filesystem::create_directories(cwd);
  std::vector<std::string> argv = {
      "env",        "-C", cwd.string(), p3s_bin(),         "trace", "--out",
      out.string(), "--", P3S_MPIRUN,   "--oversubscribe", "-np",   std::to_string(nprocs)};
  argv.insert(argv.end(), program.begin(), program.end());
  return run_command(argv);
}

CommandResult smpirun_app(const std::filesystem::path& cwd, int nprocs, const std::string& app,
                          const std::vector<std::string>& args,
                          const std::vector<std::string>& options) {
  std::filesystem::create_directories(cwd);
  std::vector<std::string> argv = {"env",       "-C",        cwd.string(),
                                   P3S_SMPIRUN, "-platform", P3S_SMPI_PLATFORM};
  argv.insert(argv.end(), options.begin(), options.end());
  argv.insert(argv.end(),
              {"-np", std::to_string(nprocs), std::string(P3S_SMPI_APPS_DIR) + "/smpi_" + app});
  argv.insert(argv.end(), args.begin(), args.end());
  return run_command(argv);
}

CommandResult import_ti(const std::filesystem::path& list, const std::filesystem::path& run,
                        const std::vector<std::string>& extra) {
  std::vector<std::string> argv = {p3s_bin(), "trace",      "import-ti",          list.string(),
                                   "-o",      run.string(), "--flops-per-second", "20000"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return run_command(argv);
}

CommandResult trace_app_smpi(const std::filesystem::path& dir, int nprocs, const std::string& app,
                             const std::vector<std::string>& args) {
  std::filesystem::create_directories(dir / "smpi" / "ti");  // SMPI does not create it
  CommandResult simulated = smpirun_app(
      dir / "smpi", nprocs, app + "_flops", args,
      {"--cfg=smpi/simulate-computation:no", "-trace-ti", "--cfg=tracing/filename:ti/trace.txt"});
  if (simulated.exit_code != 0) return simulated;
  CommandResult imported = import_ti(dir / "smpi" / "ti" / "trace.txt", dir / "run");
  imported.output = simulated.output + imported.output;
  return imported;
}

}  // namespace p3s::testing
