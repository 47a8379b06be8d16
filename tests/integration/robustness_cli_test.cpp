// p3s as a user meets it when things go wrong around it (issue 10): a tracer setting the rank
// cannot honour, two jobs sharing a run directory, a job killed, a rank killed by SIGKILL, a
// read-only output, an earlier signature in the run, runs that did not finish, bad platform
// options and command lines, and a model whose volumes shrink below a byte per peer. Each test
// is one of the reproducers, run with real Open MPI (and SimGrid) processes.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/run_dir.hpp"
#include "integration/run_helpers.hpp"

namespace p3s::testing {
namespace {
namespace fs = std::filesystem;
using std::chrono::seconds;

std::string read_file(const fs::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A command started in the background, its output going to `log`.
pid_t start_command(const std::vector<std::string>& argv, const fs::path& log,
                    const std::vector<std::string>& environment = {}) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
    for (const std::string& e : environment) putenv(const_cast<char*>(e.c_str()));
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  return pid;
}

// The exit code of `pid` (128 + signal), or -1 if it has not ended within `limit`.
int wait_for(pid_t pid, seconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) {
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return -1;
}

// Processes whose environment names this run directory: mpirun and the ranks it traces.
std::vector<pid_t> traced_processes(const fs::path& dir) {
  const std::string needle = "P3S_TRACE_DIR=" + fs::absolute(dir).string();
  std::vector<pid_t> pids;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(entry.path() / "environ", std::ios::binary);
    std::string env((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::size_t at = 0;
    while ((at = env.find(needle, at)) != std::string::npos) {
      const std::size_t end = at + needle.size();
      if ((at == 0 || env[at - 1] == '\0') && (end == env.size() || env[end] == '\0')) {
        pids.push_back(std::stoi(name));
        break;
      }
      at = end;
    }
  }
  return pids;
}

// The pid of a rank process (it runs `app`) traced into `dir`, once its trace file exists.
pid_t wait_for_rank(const fs::path& dir, const std::string& app, seconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (fs::exists(dir / "rank-00001.p3st")) {
      for (const pid_t pid : traced_processes(dir)) {
        if (read_file("/proc/" + std::to_string(pid) + "/cmdline").find(app) != std::string::npos)
          return pid;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return -1;
}

std::vector<std::string> long_stencil(const fs::path& out) {
  return {p3s_bin(),  "trace",           "--out", out.string(), "--",
          P3S_MPIRUN, "--oversubscribe", "-np",   "4",          apps_dir() + "/app_stencil2d",
          "64",       "1000000"};
}

// The tracer must never change the application's outcome: a buffer of 1 TiB per rank cannot be
// had, so the tracer falls back to its default, says so once, and the run completes.
TEST(RobustnessCli, AHugeTraceBufferFallsBackWithAWarning) {
  const fs::path dir = scratch_dir("robust_buffer");
  const pid_t pid =
      start_command({p3s_bin(), "trace", "--out", dir.string(), "--", P3S_MPIRUN, "--oversubscribe",
                     "-np", "4", apps_dir() + "/app_stencil2d", "16", "5"},
                    dir.string() + ".log", {"P3S_TRACE_BUFFER=1099511627776"});
  ASSERT_EQ(wait_for(pid, seconds(120)), 0) << read_file(dir.string() + ".log");
  const std::string log = read_file(dir.string() + ".log");
  EXPECT_NE(log.find("P3S_TRACE_BUFFER=1099511627776"), std::string::npos) << log;
  EXPECT_TRUE(core::read_run_info(dir).complete) << log;
}

// Two `p3s trace` into one --out: the second is refused while the first runs, and the first's
// run is whole.
TEST(RobustnessCli, TwoTracesIntoOneDirectoryDoNotMix) {
  const fs::path dir = scratch_dir("robust_lock");
  std::vector<std::string> first = long_stencil(dir);
  first.back() = "3000";
  const pid_t pid = start_command(first, dir.string() + ".log");
  ASSERT_GT(wait_for_rank(dir, "app_stencil2d", seconds(60)), 0)
      << read_file(dir.string() + ".log");
  const CommandResult second = trace_app(dir, 2, "app_ring", {"8", "3"}, {"--force"});
  EXPECT_EQ(second.exit_code, 2) << second.output;
  EXPECT_NE(second.output.find("in use"), std::string::npos) << second.output;
  ASSERT_EQ(wait_for(pid, seconds(240)), 0) << read_file(dir.string() + ".log");
  const core::RunInfo info = core::read_run_info(dir);
  EXPECT_EQ(info.nprocs, 4);
  EXPECT_TRUE(info.complete);
  for (int r = 0; r < 4; ++r) EXPECT_NO_THROW(core::read_run_rank(dir, info, r));
}

// SIGTERM to p3s trace reaches mpirun and its ranks, and the run is still described.
TEST(RobustnessCli, SigtermToTraceStopsTheJobAndWritesRunJson) {
  const fs::path dir = scratch_dir("robust_sigterm");
  const pid_t pid = start_command(long_stencil(dir), dir.string() + ".log");
  ASSERT_GT(wait_for_rank(dir, "app_stencil2d", seconds(60)), 0)
      << read_file(dir.string() + ".log");
  kill(pid, SIGTERM);
  const int code = wait_for(pid, seconds(60));
  const std::string log = read_file(dir.string() + ".log");
  EXPECT_NE(code, 0) << log;
  EXPECT_NE(code, -1) << "p3s trace did not end after SIGTERM: " << log;
  std::vector<pid_t> left;
  for (int i = 0; i < 100; ++i) {
    left = traced_processes(dir);
    if (left.empty()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_TRUE(left.empty()) << left.size() << " traced processes still run after SIGTERM";
  for (const pid_t p : left) kill(p, SIGKILL);
  ASSERT_TRUE(fs::exists(dir / "run.json")) << log;
  EXPECT_FALSE(core::read_run_info(dir).complete);
  EXPECT_NE(log.find("INCOMPLETE"), std::string::npos) << log;
}

// A rank killed by SIGKILL leaves a cut-short file: show and signature refuse the run by
// default, and read what there is with --accept-truncated.
TEST(RobustnessCli, AcceptTruncatedReadsARunWithAKilledRank) {
  const fs::path dir = scratch_dir("robust_sigkill");
  const pid_t pid = start_command(long_stencil(dir), dir.string() + ".log");
  const pid_t rank = wait_for_rank(dir, "app_stencil2d", seconds(60));
  ASSERT_GT(rank, 0) << read_file(dir.string() + ".log");
  std::this_thread::sleep_for(std::chrono::seconds(1));
  kill(rank, SIGKILL);
  ASSERT_NE(wait_for(pid, seconds(60)), -1) << read_file(dir.string() + ".log");
  ASSERT_TRUE(fs::exists(dir / "run.json")) << read_file(dir.string() + ".log");

  const CommandResult strict = run_command({p3s_bin(), "show", dir.string()});
  EXPECT_EQ(strict.exit_code, 1) << strict.output;
  EXPECT_NE(strict.output.find("truncated"), std::string::npos) << strict.output;
  const CommandResult show = run_command({p3s_bin(), "show", dir.string(), "--accept-truncated"});
  EXPECT_EQ(show.exit_code, 0) << show.output;
  EXPECT_NE(show.output.find("cut short"), std::string::npos) << show.output;
  const CommandResult sig = run_command({p3s_bin(), "signature", dir.string(), "--accept-truncated",
                                         "-o", (dir.string() + "-sig.json")});
  EXPECT_EQ(sig.exit_code, 0) << sig.output;
}

// `p3s signature RUN` writes RUN/signature.json; tracing into RUN again with --force replaces
// it with the rest of the old run instead of calling it a foreign file.
TEST(RobustnessCli, TraceForceReplacesItsOwnSignature) {
  const fs::path dir = scratch_dir("robust_own_signature");
  ASSERT_EQ(trace_app(dir, 2, "app_ring", {"8", "3"}).exit_code, 0);
  ASSERT_EQ(run_command({p3s_bin(), "signature", dir.string()}).exit_code, 0);
  ASSERT_TRUE(fs::exists(dir / "signature.json"));
  const CommandResult again = trace_app(dir, 2, "app_ring", {"8", "3"}, {"--force"});
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_FALSE(fs::exists(dir / "signature.json")) << "the old run's signature was kept";
}

// A run directory p3s cannot write in is refused before the program runs, saying why.
TEST(RobustnessCli, AReadOnlyOutIsNamedBeforeTheRun) {
  const fs::path base = scratch_dir("robust_read_only");
  fs::create_directories(base / "ro");
  fs::permissions(base / "ro", fs::perms::owner_read | fs::perms::owner_exec |
                                   fs::perms::group_read | fs::perms::group_exec |
                                   fs::perms::others_read | fs::perms::others_exec);
  fs::permissions(base, fs::perms::all);
  std::vector<std::string> argv = {p3s_bin(), "trace", "--out", (base / "ro").string(),
                                   "--",      "true"};
  // Root may write anywhere: the test then runs p3s as nobody.
  if (geteuid() == 0) {
    argv.insert(argv.begin(), {"setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"});
  }
  const CommandResult r = run_command(argv);
  fs::permissions(base / "ro", fs::perms::all);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("cannot write in"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("did the command run an MPI program"), std::string::npos) << r.output;
}

TEST(RobustnessCli, CommandLinesThatWereUnclear) {
  const fs::path dir = scratch_dir("robust_messages");
  fs::create_directories(dir / "a-directory");
  // The command to trace without '--' before it.
  const CommandResult dashes =
      run_command({p3s_bin(), "trace", "--out", (dir / "run").string(), "./app"});
  EXPECT_EQ(dashes.exit_code, 2) << dashes.output;
  EXPECT_NE(dashes.output.find("after '--'"), std::string::npos) << dashes.output;
  EXPECT_NE(dashes.output.find("./app"), std::string::npos) << dashes.output;
  // A directory where a file is expected.
  for (const std::vector<std::string>& argv :
       {std::vector<std::string>{p3s_bin(), "generate", (dir / "a-directory").string(), "-n", "4"},
        std::vector<std::string>{p3s_bin(), "simulate", (dir / "a-directory").string(), "-n", "4",
                                 "--platform",
                                 std::string(P3S_SOURCE_DIR) + "/simgrid_platforms/default.xml"}}) {
    const CommandResult r = run_command(argv);
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("a-directory: is a directory"), std::string::npos) << r.output;
  }
  // A workload that run.json could not hold, and thresholds that are not numbers.
  const CommandResult inf = run_command(
      {p3s_bin(), "trace", "--out", (dir / "run").string(), "-w", "grid=inf", "--", "true"});
  EXPECT_EQ(inf.exit_code, 2) << inf.output;
  const CommandResult nan = run_command({p3s_bin(), "model", "x", "--threshold", "nan"});
  EXPECT_EQ(nan.exit_code, 2) << nan.output;
  EXPECT_NE(nan.output.find("--threshold"), std::string::npos) << nan.output;
  // No phase simulated at all.
  const CommandResult no_jobs =
      run_command({p3s_bin(), "simulate", "app.slt", "-n", "4", "--jobs", "0", "--platform",
                   std::string(P3S_SOURCE_DIR) + "/simgrid_platforms/default.xml"});
  EXPECT_EQ(no_jobs.exit_code, 2) << no_jobs.output;
  EXPECT_NE(no_jobs.output.find("--jobs must be at least 1"), std::string::npos) << no_jobs.output;
  // Process counts that would take gigabytes to list.
  const CommandResult targets =
      run_command({p3s_bin(), "predict", "--runs", "x", "--targets", "1-2147483646", "--platform",
                   std::string(P3S_SOURCE_DIR) + "/simgrid_platforms/default.xml", "-o",
                   (dir / "report").string()});
  EXPECT_EQ(targets.exit_code, 2) << targets.output;
  // An option or a value holding one of Boost's message placeholders (found by fuzzing: Boost
  // 1.74 substitutes them forever); run under timeout so that a hang fails instead of waiting.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"predict", "6ns", "r256", "--pNSt%original_token%"},
        std::vector<std::string>{"generate", "app.slt", "-n", "02nn%value%nn"}}) {
    std::vector<std::string> argv = {"timeout", "20", p3s_bin()};
    argv.insert(argv.end(), args.begin(), args.end());
    const CommandResult r = run_command(argv);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("which the option parser cannot take"), std::string::npos) << r.output;
  }
}

TEST(RobustnessCli, PlatformRefusesWhatSimGridCouldNotSimulate) {
  const fs::path dir = scratch_dir("robust_platform");
  fs::create_directories(dir);
  const std::vector<std::vector<std::string>> bad = {
      {"--bandwidth", "-5Gbps"},      {"--bandwidth", "0Gbps"},
      {"--latency", "-1us"},          {"--speed", "0f"},
      {"--bandwidth", "10Gbpz"},      {"--bw-factor", "junk"},
      {"--lat-factor", "0:-1"},       {"--os", "1:2"},
      {"--hosts", "2147483647"},      {"--shared-core-round", "-1e-6"},
      {"--shared-core-round", "2us"}, {"--link-sharing", "fair"},
  };
  for (const std::vector<std::string>& flags : bad) {
    std::vector<std::string> argv = {p3s_bin(), "platform", "-o", (dir / "p.xml").string()};
    if (flags[0] != "--hosts") argv.insert(argv.end(), {"--hosts", "4"});
    argv.insert(argv.end(), flags.begin(), flags.end());
    const CommandResult r = run_command(argv);
    EXPECT_EQ(r.exit_code, 2) << flags[0] << " " << flags[1] << ": " << r.output;
    EXPECT_FALSE(fs::exists(dir / "p.xml")) << flags[0] << " " << flags[1];
    fs::remove(dir / "p.xml");
  }
  EXPECT_EQ(run_command({p3s_bin(), "platform", "-o", (dir / "p.xml").string(), "--hosts", "4",
                         "--bw-factor", "0:1;65536:0.9", "--os", "0:1us:0", "--shared-core-round",
                         "2.5e-06", "--link-sharing", "none"})
                .exit_code,
            0);
}

// Runs whose ranks did not all finish are refused by p3s model unless --allow-incomplete,
// which models them with a warning.
TEST(RobustnessCli, ModelRefusesIncompleteRunsUnlessAllowed) {
  const fs::path dir = scratch_dir("robust_incomplete");
  for (const int n : {2, 3}) {
    const CommandResult r =
        trace_app(dir / ("fail-" + std::to_string(n)), n, "app_failing", {"abort", "5"});
    ASSERT_NE(r.exit_code, 0) << r.output;
  }
  // Two runs at n = 2 and 3 cannot tell a ring from a grid: what is checked here is the refusal
  // of incomplete runs, so the ambiguity is accepted.
  const std::vector<std::string> model = {p3s_bin(),
                                          "model",
                                          (dir / "fail-2").string(),
                                          (dir / "fail-3").string(),
                                          "--allow-partial",
                                          "--accept-ambiguous",
                                          "-o",
                                          (dir / "app.slt").string()};
  const CommandResult refused = run_command(model);
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("incomplete"), std::string::npos) << refused.output;
  EXPECT_FALSE(fs::exists(dir / "app.slt"));
  std::vector<std::string> allowed = model;
  allowed.push_back("--allow-incomplete");
  const CommandResult warned = run_command(allowed);
  EXPECT_EQ(warned.exit_code, 0) << warned.output;
  EXPECT_NE(warned.output.find("WARNING"), std::string::npos) << warned.output;
}

// An alltoall of 512 bytes per rank in all, modelled at n <= 16, is 1/8 byte per peer at
// N = 4,096: p3s simulate must refuse it with a message, not let SimGrid abort.
TEST(RobustnessCli, CollectiveVolumesBelowAByteAPeerAreRefused) {
  const fs::path dir = scratch_dir("robust_subbyte");
  std::vector<std::string> model = {p3s_bin(), "model"};
  for (const int n : {4, 8, 16}) {
    const fs::path run = dir / ("a2a-" + std::to_string(n));
    ASSERT_EQ(trace_app(run, n, "app_alltoall_butterfly", {"64", "5"}).exit_code, 0);
    model.push_back(run.string());
  }
  model.insert(model.end(), {"--allow-partial", "-o", (dir / "app.slt").string()});
  ASSERT_EQ(run_command(model).exit_code, 0);
  const CommandResult r =
      run_command({p3s_bin(), "simulate", (dir / "app.slt").string(), "-n", "4096", "--platform",
                   std::string(P3S_SOURCE_DIR) + "/simgrid_platforms/default.xml"});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("less than one byte per rank"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("signal"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace p3s::testing
