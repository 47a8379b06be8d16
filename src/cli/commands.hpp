#pragma once
// The p3s subcommands: one file each. A command gets its arguments after the subcommand name
// and returns the process exit code; errors the user can fix are thrown as UsageError.
#include <string>
#include <string_view>
#include <vector>

#include "core/request_error.hpp"

namespace p3s::cli {

using Args = std::vector<std::string>;

// Wrong flags or arguments: printed with a hint to --help, exit code 2, as the library's
// request errors are.
class UsageError : public core::RequestError {
 public:
  using core::RequestError::RequestError;
};

struct Command {
  std::string_view name;
  std::string_view summary;
  int (*run)(const Args& args);
};

int run_trace(const Args& args);
int run_show(const Args& args);
int run_signature(const Args& args);
int run_model(const Args& args);
int run_generate(const Args& args);
// `p3s trace import-ti`: SimGrid time-independent traces to a run directory.
int run_import_ti(const Args& args);
int run_platform(const Args& args);
int run_calibrate(const Args& args);
int run_simulate(const Args& args);
int run_predict(const Args& args);
int run_replay(const Args& args);
int run_whatif(const Args& args);

// A warning the library reports through its request (predict/), on stderr as
// "WARNING: LINE".
void print_warning(const std::string& line);

// All subcommands, in the order `p3s --help` lists them.
const std::vector<Command>& commands();

// Runs the subcommand all[0] with the rest of `all`, and turns what it throws into a message on
// stderr and an exit code: 2 for usage and request errors and unknown commands, 1 for bad
// input and failures (out of memory included).
int run_command_line(const Args& all);

}  // namespace p3s::cli
