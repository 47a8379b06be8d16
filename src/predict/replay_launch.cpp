#include "predict/replay_launch.hpp"

#include <fmt/core.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <stdexcept>

#include "predict/shell_command.hpp"

namespace p3s::predict {
namespace fs = std::filesystem;

fs::path replay_program() {
  if (const char* env = std::getenv("P3S_REPLAY_BIN")) return env;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec && fs::exists(exe.parent_path() / "p3s-replay")) return exe.parent_path() / "p3s-replay";
  if (fs::exists(P3S_REPLAY_BUILD)) return P3S_REPLAY_BUILD;
  throw std::runtime_error("cannot find p3s-replay (set P3S_REPLAY_BIN to its path)");
}

replay::ReplayResult launch_replay(const ReplayLaunch& launch) {
  std::vector<std::string> args = {
      replay_program().string(), launch.slt.string(), "-n", std::to_string(launch.nprocs), "-o",
      launch.output.string()};
  args.insert(args.end(), launch.extra.begin(), launch.extra.end());
  const std::string command = shell_command(launch.launcher, args);
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("waitpid failed");
  }
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (code != 0) {
    throw std::runtime_error(fmt::format(
        "the replay failed (exit status {}{}): see its messages above; the command was: {}", code,
        code == 127 ? ", the launcher or p3s-replay was not found" : "", command));
  }
  if (!fs::exists(launch.output)) {
    throw std::runtime_error(
        fmt::format("the launcher exited 0 but wrote no {}: did it run "
                    "p3s-replay? the command was: {}",
                    launch.output.string(), command));
  }
  return replay::read_replay_result(launch.output);
}

}  // namespace p3s::predict
