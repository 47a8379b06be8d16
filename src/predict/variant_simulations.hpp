#pragma once
// The loop behind `p3s whatif`: the SLT instantiated at every N once and simulated on every
// platform variant (predict/platform_variants.hpp), each simulation's JSON written beside the
// report. The command line's options, the variants' platform files and the report stay in
// cmd_whatif.cpp.
#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "generate/instantiation.hpp"
#include "model/slt.hpp"
#include "report/whatif_report.hpp"
#include "sim/sim_options.hpp"

namespace p3s::predict {

struct VariantSimulations {
  std::filesystem::path dir;  // where sim-vK-N.json are written
  std::string slt_file;       // the model, as the JSON names it
  // The engine's options; each variant runs them on its own platform and CPU speedup.
  sim::SimOptions simulation;
  generate::Policy policy;  // how the SLT is instantiated at each N
  std::size_t jobs = 1;     // N simulated side by side, each in a process of its own
  // Non-empty: every N is a job of its own through this launcher, `jobs` at a time: the
  // launcher's words, then job_command(i), which simulates N number i alone (variant_task)
  // and prints its result (predict/simulation_job.hpp).
  std::string sim_launcher;
  std::function<std::vector<std::string>(std::size_t)> job_command;
  // Each step, as a line: the library prints nothing itself.
  std::function<void(const std::string&)> progress;
};

// Every N of `prediction` on each of its variants, in order: their points, and the warnings of
// those that have none (N not predicted under the policy, a simulation that failed or gave no
// usable PET), appended to `prediction`.
void simulate_variants(const VariantSimulations& run, const model::Slt& slt,
                       report::WhatifPrediction& prediction);

// A job's part (VariantSimulations::sim_launcher): N number `task` of `prediction` on each of
// its variants, as the text the job prints. Throws core::RequestError when there is no such N.
std::string variant_task(const VariantSimulations& run, const model::Slt& slt,
                         const report::WhatifPrediction& prediction, std::size_t task);

}  // namespace p3s::predict
