#pragma once
// A phase's message sizes, once its peers are known (slt_builder.cpp's model_pattern, step
// 5): each slot template's send and receive bytes as fits in n, with grid faces offered where
// a halo crosses one dimension of a grid; then, once the pattern is modelled, each receive
// slot tied to the send slot whose messages it takes.
#include <span>
#include <string>
#include <vector>

#include "model/phase_alignment.hpp"
#include "model/slot_templates.hpp"
#include "model/slt.hpp"

namespace p3s::model {

// Bytes of one side of a slot per run: the mean over the ranks and repetitions that make the
// call. Data-dependent sizes are modelled by that mean and their spread recorded: the ranks'
// own means must agree within a factor (beyond it they send different messages, which the
// slot does not express), while over its repetitions a rank's sizes may range wider (an
// initial lattice's ghost counts are not a liquid's). A rooted collective's root may receive
// (gather) or send (scatter) for all: its side is the largest, and the other ranks ignore it.
// When no alignment keeps the ranks' sizes within that factor (`by_rank` set: an irregular
// system whose subdomains hold very different numbers of atoms), the slot is modelled by the
// mean over its ranks, their range recorded as its spread and in the phase's notes.
struct SizeModelling {
  bool by_rank = false;
  bool failed = false;  // set when sizes differed by rank beyond the factor
  // Declared strong scaling: a halo's bytes follow its grid face whenever that explains them.
  bool prefer_faces = false;
};

// Sizes, once the peers are known: a halo message across one dimension of a process grid
// may follow the grid's face (GridFace). The halos of one phase are of one decomposition:
// when some follow their faces, the others are taken to as well (across a dimension that
// every training grid gave the same extent, a face and a constant cannot be told apart).
// Into `slots` and the phase's notes; false, with the reason in `failures`, when a template's
// sizes cannot be modelled.
bool fit_slot_sizes(const Alignment& alignment, std::span<const PhaseRun> phase_runs,
                    const SlotTemplates& templates, SizeModelling& sizes, PhaseModel& phase,
                    std::vector<SlotModel>& slots, std::vector<std::string>& failures);

// A message's size is the sender's: the receive slot that takes it gets the send slot's size
// fit, so that at N both ends agree to the byte even where sizes are data-dependent means
// fitted apart. Which send slot feeds a receive slot is read off the largest run by MPI's
// matching order (the k-th receive from a peer with a tag takes that peer's k-th send to it
// with that tag); a receive slot fed by different send slots on different ranks keeps its own.
void tie_receive_sizes(const AlignedRun& run, PhaseModel& phase);

}  // namespace p3s::model
