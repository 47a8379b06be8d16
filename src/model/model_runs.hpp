#pragma once
// The runs `p3s model` learns from, as it relates them: the largest training run cut into its
// own phases (the reference), every other run (training, measurable, hold-out) cut into the
// reference's phases where each of its ranks reads like the reference's
// (signature/reference_cut.hpp), so that a phase is the same stretch of the program at every
// n; a run that does not read like it keeps its own cut, and a note says why.
#include <optional>
#include <string>
#include <vector>

#include "model/logical_phases.hpp"
#include "signature/signature.hpp"

namespace p3s::model {

struct RunsForModel {
  std::vector<LogicalRun> training;
  std::vector<LogicalRun> measurable;
  std::optional<LogicalRun> holdout;
  std::vector<std::string> notes;  // runs that keep their own cut, and why
};

// The signatures must have every phase (threshold 0); the runs are read again from their
// directories where they are cut like the reference.
RunsForModel runs_for_model(const std::vector<signature::Signature>& training,
                            const std::vector<signature::Signature>& measurable,
                            const std::optional<signature::Signature>& holdout);

}  // namespace p3s::model
