#pragma once
// Relating the ranks' own phases to each other (EPAS sec. 4.4): the representative rank, and
// which phase of each rank is which phase of the run.
#include "signature/signature.hpp"

namespace p3s::signature {

// Given sig.ranks, sets aet_ns, representative, phases, every RankPhase::id and notes.
//
// A rank's phases are matched to the representative's by logical position: both lists, in
// the order the phases first appear, are aligned keeping that order, pairing phases with the
// same operations first, then the same weight, then the same number of events. SPMD ranks run the
// same loops in the same order, so this survives border ranks whose events differ (fewer
// neighbours) and ranks with a phase of their own (a root's final gather). Phases no rank before
// had become new run phases.
void relate_phases(Signature& sig);

}  // namespace p3s::signature
