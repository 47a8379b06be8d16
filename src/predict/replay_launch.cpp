#include "predict/replay_launch.hpp"

#include <fmt/core.h>

#include <cstdlib>
#include <stdexcept>

#include "core/this_program.hpp"
#include "predict/shell_command.hpp"

namespace p3s::predict {
namespace fs = std::filesystem;

fs::path replay_program() {
  if (const char* env = std::getenv("P3S_REPLAY_BIN")) return env;
  const fs::path exe = core::this_program();
  if (!exe.empty() && fs::exists(exe.parent_path() / "p3s-replay")) {
    return exe.parent_path() / "p3s-replay";
  }
  if (fs::exists(P3S_REPLAY_BUILD)) return P3S_REPLAY_BUILD;
  throw std::runtime_error("cannot find p3s-replay (set P3S_REPLAY_BIN to its path)");
}

replay::ReplayResult launch_replay(const ReplayLaunch& launch) {
  std::vector<std::string> args = {
      replay_program().string(), launch.slt.string(), "-n", std::to_string(launch.nprocs), "-o",
      launch.output.string()};
  args.insert(args.end(), launch.extra.begin(), launch.extra.end());
  const std::string command = shell_command(launch.launcher, args);
  const int code = run_shell(command);
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
