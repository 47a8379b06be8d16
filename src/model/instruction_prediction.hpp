#pragma once
// The instruction prediction table (IPT, 001 sec. 3.3, eq. 4): under strong scaling the
// instructions a group executes in a phase, over all its ranks and repetitions, stay constant,
// so one rank's instructions per repetition at n are total / (the group's ranks at n) /
// weight(n). Looked up backwards, it tells at which n of the original workload a run of a
// smaller workload has the same instructions per rank: where its measurable point belongs.
#include <optional>

#include "model/scaling_fit.hpp"

namespace p3s::model {

struct InstructionPrediction {
  double total = 0;  // instructions of the group over all its ranks and repetitions
  double share = 1;  // of the ranks the group holds

  double per_rank(double n, const ScalingFit& weight) const;
  // The n >= 1 where one rank executes `instructions` per repetition; nullopt when none does
  // (the point would lie below one process, or beyond any count).
  std::optional<double> n_for(double instructions, const ScalingFit& weight) const;
};

}  // namespace p3s::model
