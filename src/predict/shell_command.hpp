#pragma once
// Commands p3s runs through a launcher the user gives (a replay's, a simulation job's): the
// launcher is the user's shell words, run by /bin/sh as written; what p3s appends is quoted,
// taken literally whatever it holds.
#include <string>
#include <vector>

namespace p3s::predict {

// "LAUNCHER 'word' 'word' ...".
std::string shell_command(const std::string& launcher, const std::vector<std::string>& words);

// Runs `command` with /bin/sh, its output and messages going where this process's go; its exit
// status (128 + N when killed by signal N). Throws std::runtime_error when it cannot be started.
int run_shell(const std::string& command);

struct CommandOutput {
  int exit_code = 0;   // 128 + N when killed by signal N
  std::string output;  // what it wrote on its standard output
};

// Runs `command` with /bin/sh and keeps its standard output (its standard error goes where
// this process's goes). Throws std::runtime_error when it cannot be started.
CommandOutput run_shell_captured(const std::string& command);

}  // namespace p3s::predict
