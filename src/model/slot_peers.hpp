#pragma once
// A phase's peer rules (slt_builder.cpp's model_pattern, step 4): each slot template's
// destination, source and root as a rule in n (slot_sequence.hpp), from every run's peers.
#include <string>
#include <vector>

#include "model/phase_alignment.hpp"
#include "model/slot_templates.hpp"
#include "model/slt.hpp"

namespace p3s::model {

// The peer rules of every slot, one side at a time (destinations, sources, roots; a side no
// slot has is skipped), into the phase's rules and notes. False, with the side and the
// closest rule's mismatches in `failures`, at the first side that no rules reproduce.
bool infer_peer_rules(const Alignment& alignment, const SlotTemplates& templates,
                      const std::vector<SlotModel>& slots, const PeerInferenceOptions& options,
                      PhaseModel& phase, std::vector<std::string>& failures);

}  // namespace p3s::model
