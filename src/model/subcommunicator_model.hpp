#pragma once
// A collective on a sub-communicator, modelled: which ranks its communicator holds at any n
// (communicator_rule.hpp) and, when it has a root, the root's place among them.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "model/phase_alignment.hpp"
#include "model/slt.hpp"

namespace p3s::model {

// `slots_of_run[i]` are the slots of run i that are this template. Sets slot.comm (and
// slot.comm_root when rooted) and returns true, or says why not in `failures`.
bool model_subcommunicator(const Alignment& alignment, std::span<const PhaseRun> phase_runs,
                           const std::vector<std::vector<std::size_t>>& slots_of_run,
                           std::size_t template_index, SlotModel& slot,
                           std::vector<std::string>& failures);

}  // namespace p3s::model
