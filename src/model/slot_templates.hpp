#pragma once
// A phase's slot templates: the calls one repetition makes whatever n. Usually each slot of a
// run is its own template, the same at every n; in a phase that grows with n a block of
// templates repeats a number of times given by a formula in n (slot_sequence.hpp). These are
// the first steps of modelling a phase's pattern (slt_builder.cpp): the layout, which slots
// of each run are which template, and what call each template makes.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/phase_alignment.hpp"
#include "model/slot_layout_inference.hpp"
#include "model/slot_sequence.hpp"
#include "model/slt.hpp"

namespace p3s::model {

struct SlotTemplates {
  SlotLayout layout;
  // slots_of[t][i]: the slots of run i that are template t.
  std::vector<std::vector<std::vector<std::size_t>>> slots_of;
  // template_of_slot[i][k]: the template of run i's slot k.
  std::vector<std::vector<std::size_t>> template_of_slot;
  // Per template: how its tags advance from one repetition of its block to the next.
  std::vector<std::int32_t> tag_step;
  std::vector<std::int32_t> rtag_step;
};

// The layout the aligned runs' calls follow (the same slots in every run, or fixed slots and
// blocks that repeat formulas in n times: slot_layout_inference.hpp) and each run's slots placed
// in it; the runs' slots are expanded to the layout. Nothing, with the reason in `failures`,
// when the calls follow no such layout.
std::optional<SlotTemplates> infer_slot_templates(Alignment& alignment, LeadingRepetitions leading,
                                                  std::vector<std::string>& failures);

// One SlotModel per template, its operation, tags and sides from the first event seen in it
// (a collective on a sub-communicator with its communicator's rule); sizes and peers are left
// for later steps. Nothing, with the reason in `failures`, when a template's events make
// different calls or it has none.
std::optional<std::vector<SlotModel>> template_slot_models(const Alignment& alignment,
                                                           std::span<const PhaseRun> phase_runs,
                                                           const SlotTemplates& templates,
                                                           std::vector<std::string>& failures);

// A call with no peer must be made by every rank: only peers may be null. A call that
// completes one request is made where the rank has one (`if (peer != me) { irecv; send;
// wait; }`): generate makes it only then; a waitall whose slots are known, by every rank or by
// the ranks with a request of it (SlotModel::needs_request, set here). False, naming the first
// rank that lacks such a call in `failures`, otherwise.
bool every_rank_calls_peerless_slots(const Alignment& alignment, const SlotTemplates& templates,
                                     std::vector<SlotModel>& slots,
                                     std::vector<std::string>& failures);

}  // namespace p3s::model
