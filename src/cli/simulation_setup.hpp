#pragma once
// The simulation options `p3s simulate` and `p3s predict` share: platform, placement, SimGrid
// settings, CPU speedup, per-phase or full.
#include <boost/program_options/options_description.hpp>
#include <string>
#include <vector>

#include "sim/sim_options.hpp"

namespace p3s::cli {

struct SimulationFlags {
  std::string platform;
  std::string hostfile;
  int ranks_per_host = 1;
  std::string mapping = "block";
  std::vector<std::string> cfg;
  std::vector<std::string> log;
  double cpu_speedup = 1.0;
  bool full = false;
  int repetitions = 3;
  bool smpi_collectives = false;
  std::string engine = "simgrid";
};

void add_simulation_flags(boost::program_options::options_description& desc,
                          SimulationFlags& flags);
// All of them but --platform and --cpu-speedup, which `p3s whatif` takes as lists.
void add_engine_flags(boost::program_options::options_description& desc, SimulationFlags& flags);

// Checks the flags (UsageError naming the flag) and turns them into SimOptions. The eager
// threshold comes from --cfg smpi/send-is-detached-thresh:B when given, as in SMPI.
sim::SimOptions simulation_options(const SimulationFlags& flags);

}  // namespace p3s::cli
