#pragma once
// --sim-launcher and --sim-task, which `p3s predict` and `p3s whatif` share: every simulation
// (predict) or every N (whatif) a job of its own through a cluster's launcher, and the job's
// side (predict/simulation_job.hpp).
#include <boost/program_options/options_description.hpp>
#include <boost/program_options/variables_map.hpp>
#include <cstddef>
#include <string>

namespace p3s::cli {

struct SimulationJobFlags {
  std::string launcher;
  std::size_t task = 0;
};

// `unit` is what one job simulates, as the help says it ("every simulation", "every N").
void add_simulation_job_flags(boost::program_options::options_description& desc,
                              SimulationJobFlags& flags, const std::string& unit);

// Whether this process is a job (--sim-task given).
bool is_simulation_job(const boost::program_options::variables_map& parsed);

// A job's result, after the mark on a line of its own: what the launching p3s reads.
void print_task_result(const std::string& result);

}  // namespace p3s::cli
