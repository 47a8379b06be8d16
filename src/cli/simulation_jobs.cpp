#include "cli/simulation_jobs.hpp"

#include <fmt/core.h>

#include <cstdio>

#include "predict/simulation_job.hpp"

namespace p3s::cli {

namespace po = boost::program_options;

void add_simulation_job_flags(po::options_description& desc, SimulationJobFlags& flags,
                              const std::string& unit) {
  desc.add_options()(
      "sim-launcher", po::value(&flags.launcher),
      fmt::format("run {} as a job of its own through this launcher, --jobs at a time, e.g. "
                  "\"srun -N1 -n1\" or \"mpirun -np 1 --host H\": p3s runs there again with the "
                  "same arguments and simulates one (the inputs, p3s and the report directory "
                  "must be where the jobs run: a shared file system); the results are those of "
                  "one at a time",
                  unit)
          .c_str())("sim-task", po::value(&flags.task),
                    "what --sim-launcher runs: simulate task K of the plan alone and print its "
                    "result");
}

bool is_simulation_job(const po::variables_map& parsed) {
  return parsed.count("sim-task") != 0;
}

void print_task_result(const std::string& result) {
  fmt::print("{}{}\n", predict::kTaskResultMark, result);
  std::fflush(stdout);
}

}  // namespace p3s::cli
