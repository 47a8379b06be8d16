#pragma once
// The order each rank makes a phase's calls in (slt_builder.cpp's model_pattern, step 6): the
// slots' own order when every rank follows it, else a variant per class of ranks r mod m.
#include <cstddef>
#include <string>
#include <vector>

#include "model/phase_alignment.hpp"
#include "model/slot_templates.hpp"
#include "model/slt.hpp"

namespace p3s::model {

// Into phase.order: every rank of a growing phase makes its calls in its slots' order; other
// phases get the variants by r mod m for the smallest m in 1..4 that reproduces every rank of
// every run. False, with the reason in `failures`, when none does.
bool infer_slot_order(const Alignment& alignment, const SlotTemplates& templates,
                      std::size_t slot_count, PhaseModel& phase,
                      std::vector<std::string>& failures);

}  // namespace p3s::model
