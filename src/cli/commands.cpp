#include "cli/commands.hpp"

namespace p3s::cli {

const std::vector<Command>& commands() {
  static const std::vector<Command> all = {
      {"trace", "run an MPI program under the tracer and write a run directory", run_trace},
      {"show", "check a run directory and summarise its traces", run_show},
      {"signature", "find the relevant phases and weights of a run (per rank)", run_signature},
  };
  return all;
}

}  // namespace p3s::cli
