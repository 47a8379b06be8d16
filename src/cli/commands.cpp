#include "cli/commands.hpp"

#include <fmt/core.h>

#include <boost/program_options/errors.hpp>
#include <exception>
#include <new>

#include "core/format_error.hpp"

namespace p3s::cli {

const std::vector<Command>& commands() {
  static const std::vector<Command> all = {
      {"trace", "run an MPI program under the tracer and write a run directory", run_trace},
      {"show", "check a run directory and summarise its traces", run_show},
      {"signature", "find the relevant phases and weights of a run (per rank)", run_signature},
      {"platform", "write a SimGrid platform file (flat, fat tree, torus, dragonfly)",
       run_platform},
      {"calibrate", "fit a SimGrid platform to the calibration benchmark's measurements",
       run_calibrate},
      {"model", "relate runs at several n and write the scalable logical trace (SLT)", run_model},
      {"generate", "instantiate an SLT at N processes as an ST4NP", run_generate},
      {"simulate", "replay an SLT at N processes in SimGrid SMPI on a platform", run_simulate},
      {"replay", "replay an SLT at N processes on the real machine (the Synthetic Signature)",
       run_replay},
      {"predict", "trace runs -> model -> simulate at every target N: table, CSV, JSON, picture",
       run_predict},
      {"whatif", "simulate a model on platform variants (links, topology, CPU): table, picture",
       run_whatif},
  };
  return all;
}

void print_warning(const std::string& line) {
  fmt::print(stderr, "WARNING: {}\n", line);
}

int run_command_line(const Args& all) {
  if (all.empty()) {
    fmt::print(stderr, "p3s: no command (see 'p3s --help')\n");
    return 2;
  }
  for (const auto& c : commands()) {
    if (c.name != all[0]) continue;
    try {
      return c.run(Args(all.begin() + 1, all.end()));
    } catch (const core::RequestError& e) {  // UsageError too
      fmt::print(stderr, "p3s {}: {}\n(see 'p3s {} --help')\n", c.name, e.what(), c.name);
      return 2;
    } catch (const boost::program_options::error& e) {
      fmt::print(stderr, "p3s {}: {}\n(see 'p3s {} --help')\n", c.name, e.what(), c.name);
      return 2;
    } catch (const core::FormatError& e) {
      fmt::print(stderr, "p3s {}: error: {}\n", c.name, e.what());
      return 1;
    } catch (const std::bad_alloc&) {
      fmt::print(stderr,
                 "p3s {}: error: out of memory: what was asked needs more memory than this "
                 "machine gave (a very large -n, or many large traces?)\n",
                 c.name);
      return 1;
    } catch (const std::exception& e) {
      fmt::print(stderr, "p3s {}: error: {}\n", c.name, e.what());
      return 1;
    }
  }
  fmt::print(stderr, "p3s: unknown command '{}' (see 'p3s --help')\n", all[0]);
  return 2;
}

}  // namespace p3s::cli
