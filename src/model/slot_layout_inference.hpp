#pragma once
// How a phase's calls at each n come from slot templates (slot_sequence.hpp's SlotLayout), from
// the aligned runs' calls (P3S 001 sec. 3.2.2, Fig. 7: new communications appear as n grows).
//
// The largest run's calls are read as fixed calls and blocks: a block is calls that repeat back
// to back, their tags advancing by the same step each repetition (a pipeline's stages whose tag
// names the cell, the exchanges of a reduction whose tag names the step). Every run must read as
// the same fixed calls and blocks, each block repeated a number of times of its own (the three
// sweeps of an ADI solver sqrt(n) - 1 times each, a CG's three reductions log2 of the row's
// length times each), which a formula in n must give; a fixed call no rank of a run makes (a
// transpose every rank of a 1 x 2 grid skips) is a slot every rank lacks there.
#include <optional>
#include <string>
#include <vector>

#include "model/phase_alignment.hpp"
#include "model/slot_sequence.hpp"

namespace p3s::model {

struct InferredLayout {
  SlotLayout layout;
  // Per template: how its tags advance from one repetition of its block to the next (0 outside
  // blocks).
  std::vector<std::int32_t> tag_step;
  std::vector<std::int32_t> rtag_step;
};

// How a block whose tags start further on in a smaller run is read: the same repetitions with
// their tags shifted by a formula in n (a back substitution's stages, named from the last cell),
// or the repetitions before them absent at that n, their slots made by no rank (a halo that
// skips the dimensions of extent 1, as tagged as the others).
enum class LeadingRepetitions : std::uint8_t { Shifted, Absent };

// The layout every aligned run's slots follow; each run's slots are expanded to it in place (a
// fixed slot the run lacks becomes a slot every rank lacks). Nothing, with `failure` saying why,
// when the runs' calls follow no such layout or a block's repetitions follow no formula in n.
std::optional<InferredLayout> infer_layout(Alignment& alignment, LeadingRepetitions leading,
                                           std::string& failure);

}  // namespace p3s::model
