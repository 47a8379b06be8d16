#include "cli/commands.hpp"

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
  };
  return all;
}

}  // namespace p3s::cli
