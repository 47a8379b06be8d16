#pragma once
// Running the Synthetic Signature (replay_mpi's p3s-replay) through a launcher the user gives,
// as `p3s replay` and `p3s predict --replay-launcher` do.
#include <filesystem>
#include <string>
#include <vector>

#include "replay_mpi/replay_result.hpp"

namespace p3s::predict {

struct ReplayLaunch {
  std::string launcher;  // e.g. "mpirun -np 16 --hostfile H", run by /bin/sh
  std::filesystem::path slt;
  int nprocs = 0;
  std::filesystem::path output;    // the JSON p3s-replay writes
  std::vector<std::string> extra;  // more p3s-replay options
};

// p3s-replay: P3S_REPLAY_BIN, else beside p3s (installed), else the build tree's.
std::filesystem::path replay_program();

// Runs LAUNCHER p3s-replay SLT -n N -o OUTPUT EXTRA... (its progress goes to this terminal) and
// reads its result. Throws std::runtime_error naming the cause when the launcher or the replay
// fails (exit status and the replay's own message are on the terminal) or writes no result.
replay::ReplayResult launch_replay(const ReplayLaunch& launch);

}  // namespace p3s::predict
