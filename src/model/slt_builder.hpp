#pragma once
// `p3s model`'s work: relate the phases of runs at different n by what they are
// (phase_matching.hpp), then model each phase's communication pattern, message volumes and
// weight as functions of n (001 sec. 3, 002 sec. 4), and apart from those the machine's compute
// model (model_phase_compute); and say how much of every training run the result explains.
#include <optional>
#include <vector>

#include "model/logical_phases.hpp"
#include "model/scaling_model_search.hpp"
#include "model/slt.hpp"

namespace p3s::model {

struct SltInputs {
  std::vector<LogicalRun> runs;
  // Runs made with smaller workloads of the same label: only measurable points for the
  // compute model.
  std::vector<LogicalRun> measurable;
  // A run left out of the fit, related to the model's phases for the hold-out check.
  std::optional<LogicalRun> holdout;
  // Phases below this (LogicalPhase::relevance) in every run are left out, with a note.
  double threshold = 0.01;
  // How the application's work is divided as n grows, as the user declares it.
  WorkScaling scaling = WorkScaling::Unknown;
};

struct BuiltSlt {
  Slt slt;
  // Per SLT phase, its counterpart among the hold-out run's phases, when there is one.
  std::vector<std::optional<std::size_t>> holdout_phase;
  // The hold-out run as it was related to the SLT's phases (SltInputs::holdout).
  std::optional<LogicalRun> holdout;
};

// `runs` must hold at least two distinct n and share one workload. Throws
// std::invalid_argument otherwise.
BuiltSlt build_slt(const SltInputs& inputs);
Slt build_slt(const std::vector<LogicalRun>& runs, const std::vector<LogicalRun>& measurable = {},
              double threshold = 0.01);

}  // namespace p3s::model
