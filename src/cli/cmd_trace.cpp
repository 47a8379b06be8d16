// p3s trace: run an MPI program with libp3s_trace.so preloaded and describe the run.
#include <fmt/core.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <boost/program_options.hpp>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "cli/commands.hpp"
#include "cli/parse_options.hpp"
#include "cli/run_options.hpp"
#include "core/format_error.hpp"
#include "core/run_dir.hpp"
#include "core/this_program.hpp"

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
  if (const char* env = std::getenv("P3S_TRACE_LIB")) {
    if (!fs::is_regular_file(env)) {
      throw UsageError(std::string("P3S_TRACE_LIB=") + env + " is not a file (the tracer library)");
    }
    return env;
  }
  if (const fs::path exe = core::this_program(); !exe.empty()) {
    fs::path beside = exe.parent_path().parent_path() / "lib" / "libp3s_trace.so";
    if (fs::exists(beside)) return beside;
  }
  if (fs::exists(P3S_TRACE_LIB_BUILD)) return P3S_TRACE_LIB_BUILD;
  if (fs::exists(P3S_TRACE_LIB_INSTALLED)) return P3S_TRACE_LIB_INSTALLED;
  throw std::runtime_error("cannot find libp3s_trace.so (set P3S_TRACE_LIB to its path)");
}

// The traced command's process, for the signal handlers: SIGINT and SIGTERM sent to p3s are
// passed on to it (mpirun then stops its ranks), and p3s still describes what the ranks wrote.
volatile sig_atomic_t g_child = 0;
volatile sig_atomic_t g_signal = 0;

void forward_signal(int signal) {
  g_signal = signal;
  if (g_child > 0) kill(static_cast<pid_t>(g_child), signal);
}

// Installs forward_signal for SIGINT and SIGTERM while alive; restores the old handlers after.
class SignalForwarding {
 public:
  SignalForwarding() {
    struct sigaction action {};
    action.sa_handler = forward_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // no SA_RESTART: waitpid returns, and is called again
    for (std::size_t i = 0; i < kSignals.size(); ++i) sigaction(kSignals[i], &action, &old_[i]);
  }
  SignalForwarding(const SignalForwarding&) = delete;
  SignalForwarding& operator=(const SignalForwarding&) = delete;
  ~SignalForwarding() {
    for (std::size_t i = 0; i < kSignals.size(); ++i) sigaction(kSignals[i], &old_[i], nullptr);
    g_child = 0;
  }

 private:
  static constexpr std::array<int, 2> kSignals = {SIGINT, SIGTERM};
  std::array<struct sigaction, 2> old_{};
};

// Runs the command with the tracer in its environment; returns its exit status (128 + the
// signal that ended it).
int run_traced(const std::vector<std::string>& command, const fs::path& lib, const fs::path& out) {
  std::string preload = lib.string();
  if (const char* old = std::getenv("LD_PRELOAD"); old && *old) preload += std::string(":") + old;
  const SignalForwarding forwarding;
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
  if (pid == 0) {
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    setenv("LD_PRELOAD", preload.c_str(), 1);
    setenv("P3S_TRACE_DIR", out.c_str(), 1);
    std::vector<char*> argv;
    argv.reserve(command.size() + 1);
    for (const auto& a : command) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    fmt::print(stderr, "p3s trace: cannot run '{}': {}\n", command[0], std::strerror(errno));
    _exit(127);
  }
  g_child = pid;
  // A signal that came between fork and here has not been passed on yet.
  if (g_signal != 0) kill(pid, g_signal);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("waitpid failed");
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + WTERMSIG(status);
}

// The first word that is neither an option nor the value of --out or --workload: a command
// written without '--' before it.
std::string first_stray_word(const Args& options) {
  for (std::size_t i = 0; i < options.size(); ++i) {
    const std::string& a = options[i];
    if (a == "--out" || a == "-o" || a == "--workload" || a == "-w") {
      ++i;
    } else if (!a.empty() && !a.starts_with("-")) {
      return a;
    }
  }
  return "";
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
  std::optional<po::variables_map> parsed;
  try {
    parsed = parse_options(options, desc, kUsage);
  } catch (const po::too_many_positional_options_error&) {
    throw UsageError(
        fmt::format("'{}' is not an option: put the command to trace after '--', as in\n"
                    "  p3s trace --out DIR -- mpirun -np 4 ./app",
                    first_stray_word(options)));
  }
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  if (command.empty()) throw UsageError("no command to trace: put it after '--'");

  core::RunInfo info;
  info.workload = parse_workload(workload);
  const fs::path lib = tracer_library();
  fs::path dir = fs::absolute(out);
  const RunDirLock lock(dir);
  prepare_run_dir(dir, vm.count("force") > 0);

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
  if (g_signal != 0) {
    fmt::print(stderr, "p3s trace: stopped by signal {} ({}), passed on to {}\n",
               static_cast<int>(g_signal), strsignal(g_signal), command[0]);
  }
  const TraceSummary traces = describe_traces(dir, info);
  if (!traces.found) {
    fmt::print(stderr, "p3s trace: error: no trace written in {} that can be read, so no run.json",
               dir.string());
    fmt::print(stderr, "{}\n",
               info.exit_code == 0
                   ? " (did the command run an MPI program built against Open "
                     "MPI, dynamically linked?)"
                   : fmt::format(" (the command exited with status {})", info.exit_code));
    for (const std::string& p : traces.problems) fmt::print(stderr, "  {}\n", p);
    return info.exit_code != 0 ? info.exit_code : 1;
  }
  core::write_run_info(dir, info);
  fmt::print(stderr, "p3s trace: {} ranks, {:.2f} s, {} -> {}\n", info.nprocs, info.wall_seconds,
             info.complete ? "complete" : "INCOMPLETE", (dir / core::kRunInfoFile).string());
  for (const std::string& p : traces.problems) fmt::print(stderr, "  {}\n", p);
  if (info.exit_code != 0) {
    fmt::print(stderr, "p3s trace: the traced command exited with status {}\n", info.exit_code);
    return info.exit_code;
  }
  return info.complete ? 0 : 1;
}

}  // namespace p3s::cli
