#pragma once
// The loop behind `p3s predict`, as one call: every training run's signature, the SLT, then for
// every target N and every traced n the ST4NP, its check and its simulation, and, when asked,
// its bounds (the interval) and its replay on the real machine with the cross-check of both.
// The command line's options and the report files stay in cmd_predict.cpp.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "generate/instantiation.hpp"
#include "predict/build_model.hpp"
#include "report/scaling_prediction.hpp"
#include "sim/sim_options.hpp"

namespace p3s::predict {

struct PredictionRequest {
  std::vector<std::string> runs;        // traced run directories at several n
  std::vector<std::string> measurable;  // runs of a smaller workload, for the compute model
  std::vector<std::int64_t> targets;    // N to predict (the traced n are predicted too)
  // threshold, scaling, allow_incomplete and the sink of the model's warnings; the signatures
  // are filled in
  ModelRequest model;
  bool weak_scaling = false;
  generate::Policy policy;      // how the SLT is instantiated at each N
  bool interval = true;         // bound every PET with the model's fits at the ends of their bands
  double interval_level = 0.9;  // the two-sided level of every fit's band
  std::string replay_launcher;  // non-empty: replay every N with it and cross-check
  double tolerance = 0.10;      // the cross-check's flag, a fraction
  double efficiency = 0.5;      // the best N's efficiency threshold
  std::string platform_name;    // as the report names it
  sim::SimOptions simulation;
  // Points simulated side by side, each in a process of its own (core/process_pool.hpp); with
  // a replay, one at a time.
  std::size_t jobs = 1;
  // Non-empty: every simulation is a job of its own, started through this launcher (a
  // cluster's "srun -N1 -n1", "mpirun -np 1 --host H"), `jobs` at a time: the launcher's
  // words, then job_command(k), a process that makes this same prediction as far as its plan
  // of simulations and runs simulation k alone (only_task below; predict/simulation_job.hpp).
  std::string sim_launcher;
  std::function<std::vector<std::string>(std::size_t)> job_command;
  // Set: this process is such a job. It simulates task `only_task` of the plan, hands the
  // result to `task_result`, and predicts nothing else (no app.slt written, no report).
  std::optional<std::size_t> only_task;
  std::function<void(const std::string&)> task_result;
  // Where app.slt, sim-N.json and replay-N.json are written, and what makes it ready: called
  // once the model is built, before the first file is written (a refused model leaves it as it
  // was).
  std::filesystem::path dir;
  std::function<void()> prepare_dir;
  // Each step, as a line: the library prints nothing itself (the model's warnings go to
  // model.warning).
  std::function<void(const std::string&)> progress;
};

// No phase of the training runs is relevant: there is nothing to predict.
class NothingToPredict : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The prediction at every N that could be made; the others are named in its warnings. Throws
// NothingToPredict, core::RequestError (runs that do not belong together, incomplete runs)
// and the readers' errors.
report::ScalingPrediction predict_scaling(PredictionRequest request);

}  // namespace p3s::predict
