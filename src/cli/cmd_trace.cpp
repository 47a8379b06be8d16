// p3s trace: run an MPI program with libp3s_trace.so preloaded and describe the run.
#include <fmt/core.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "cli/commands.hpp"
#include "cli/parse_options.hpp"
#include "cli/run_options.hpp"
#include "core/format_error.hpp"
#include "core/run_dir.hpp"

namespace p3s::cli {
namespace {
namespace po = boost::program_options;
namespace fs = std::filesystem;

constexpr const char* kUsage =
    "usage: p3s trace --out DIR [--workload LABEL=SIZE] [--force] -- COMMAND [ARGS...]\n"
    "       p3s trace import-ti LIST -o DIR --flops-per-second F   (see p3s trace import-ti "
    "--help)\n\n"
    "Runs COMMAND (usually 'mpirun -np N ./app args') with the p3s tracer preloaded, so every\n"
    "MPI rank writes its trace into DIR, then writes DIR/run.json. The program is not changed\n"
    "or recompiled; C, C++ and Fortran programs built against Open MPI are traced alike.\n"
    "On several nodes, pass the environment to remote ranks: mpirun -x LD_PRELOAD -x "
    "P3S_TRACE_DIR.\n\n";

fs::path tracer_library() {
  if (const char* env = std::getenv("P3S_TRACE_LIB")) return env;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path beside = exe.parent_path().parent_path() / "lib" / "libp3s_trace.so";
    if (fs::exists(beside)) return beside;
  }
  if (fs::exists(P3S_TRACE_LIB_BUILD)) return P3S_TRACE_LIB_BUILD;
  if (fs::exists(P3S_TRACE_LIB_INSTALLED)) return P3S_TRACE_LIB_INSTALLED;
  throw std::runtime_error("cannot find libp3s_trace.so (set P3S_TRACE_LIB to its path)");
}

// Runs the command with the tracer in its environment; returns its exit status.
int run_traced(const std::vector<std::string>& command, const fs::path& lib, const fs::path& out) {
  std::string preload = lib.string();
  if (const char* old = std::getenv("LD_PRELOAD"); old && *old) preload += std::string(":") + old;
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    setenv("LD_PRELOAD", preload.c_str(), 1);
    setenv("P3S_TRACE_DIR", out.c_str(), 1);
    std::vector<char*> argv;
    for (const auto& a : command) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    fmt::print(stderr, "p3s trace: cannot run '{}': {}\n", command[0], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("waitpid failed");
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + WTERMSIG(status);
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

}  // namespace

int run_trace(const Args& args) {
  if (!args.empty() && args[0] == "import-ti")
    return run_import_ti(Args(args.begin() + 1, args.end()));
  auto dashes = std::find(args.begin(), args.end(), "--");
  Args options(args.begin(), dashes);
  std::vector<std::string> command(dashes == args.end() ? dashes : dashes + 1, args.end());

  po::options_description desc("options");
  std::string out, workload;
  desc.add_options()("help,h", "show this help")("out,o", po::value(&out)->required(),
                                                 "run directory to write (created if missing)")(
      "workload,w", po::value(&workload),
      "problem size of this run as LABEL=SIZE (e.g. grid=512); runs of one model with a smaller "
      "workload become measurable points")("force,f",
                                           "replace the traces of an earlier run in DIR");
  const auto parsed = parse_options(options, desc, kUsage);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  if (command.empty()) throw UsageError("no command to trace: put it after '--'");

  core::RunInfo info;
  info.workload = parse_workload(workload);
  fs::path dir = fs::absolute(out);
  prepare_run_dir(dir, vm.count("force") > 0);
  fs::path lib = tracer_library();

  fmt::print(stderr, "p3s trace: running {} with the tracer, traces in {}\n", command[0],
             dir.string());
  auto t0 = std::chrono::steady_clock::now();
  info.exit_code = run_traced(command, lib, dir);
  info.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  info.command = command;
  info.date = utc_now();
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  info.host = host;
  describe_traces(dir, info);
  core::write_run_info(dir, info);
  fmt::print(stderr, "p3s trace: {} ranks, {:.2f} s, {} -> {}\n", info.nprocs, info.wall_seconds,
             info.complete ? "complete" : "INCOMPLETE", (dir / core::kRunInfoFile).string());
  if (info.exit_code != 0) {
    fmt::print(stderr, "p3s trace: the traced command exited with status {}\n", info.exit_code);
    return info.exit_code;
  }
  return info.complete ? 0 : 1;
}

}  // namespace p3s::cli
