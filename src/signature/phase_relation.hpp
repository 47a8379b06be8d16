#pragma once
// Relating the ranks' own phases to each other (EPAS sec. 4.4): which phase of each rank is
// which phase of the run, and the representative rank.
#include "signature/signature.hpp"

namespace p3s::signature {

// Given sig.ranks, sets aet_ns, representative, phases, every RankPhase::id and notes.
//
// Phases are related by what they are, not by where they sit in a rank's list: a corner rank of
// a non-periodic grid has fewer setup exchanges than an inner rank, so its k-th phase is not the
// inner rank's k-th. Ranks are taken richest first (most events); each rank's phases, in their
// order, are aligned with the run's phases found so far, in theirs, keeping order and pairing
// the most alike (phase_likeness.hpp): the same calls with the same peers first, then the same
// calls in the same order up to the border's missing ones, the same weight, the same sizes. A
// phase no earlier rank had becomes a run phase, placed after the one its predecessor matched.
void relate_phases(Signature& sig);

// Given sig.ranks cut like a reference run (reference_cut.hpp), whose RankPhase::id are already
// the reference's phases (`phase_count` of them), sets aet_ns, representative, phases and notes
// as relate_phases does. A reference phase no rank has keeps its place with weight 0.
void adopt_reference_phases(Signature& sig, std::size_t phase_count);

}  // namespace p3s::signature
