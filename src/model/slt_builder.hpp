#pragma once
// `p3s model`'s work: relate the logical phases of runs at different n by position (the k-th
// phase at n = 16 is the k-th at n = 36), then model each phase's communication pattern,
// message volumes and weight as functions of n (001 sec. 3, 002 sec. 4), and apart from those
// the machine's compute model (model_phase_compute).
#include <vector>

#include "model/logical_phases.hpp"
#include "model/slt.hpp"

namespace p3s::model {

// `runs` must hold at least two distinct n and share one workload; `measurable` runs, made
// with smaller workloads of the same label, only add measurable points to the compute model.
// Logical phases below `threshold` (LogicalPhase::relevance) in every run are left out, with a
// note. Throws std::invalid_argument otherwise.
Slt build_slt(const std::vector<LogicalRun>& runs, const std::vector<LogicalRun>& measurable = {},
              double threshold = 0.01);

}  // namespace p3s::model
