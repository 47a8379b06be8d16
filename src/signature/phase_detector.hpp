#pragma once
// The per-rank phase analysis (EPAS): cuts one rank's events into phases on that rank (with
// what the run decided for all its ranks, see run_analysis.cpp), weighs them and keeps the
// relevant ones.
#include "core/event.hpp"
#include "signature/phase_extraction.hpp"
#include "signature/rank_phases.hpp"
#include "signature/repeat_finder.hpp"

namespace p3s::signature {

struct ReferenceCut;

struct PhaseOptions {
  // Repetitions of the same calls are one phase unless, call by call, their message sizes
  // fall into groups with a gap between them: sorted, two neighbours whose
  // (larger + 4096) / (smaller + 4096) exceeds 1 + size_tolerance start a new group.
  // Data-dependent sizes (ghost atoms, atoms leaving a subdomain, keys per bucket) spread
  // without such a gap and stay one phase, with their spread recorded, however wide; the
  // large levels of a multigrid cycle (4x apart) do not.
  // The 4 KiB keep small messages together whatever their ratio (0 and 1,320 atoms' bytes):
  // below it a message costs about a latency on any network.
  double size_tolerance = 0.5;
  // A phase is relevant when weight x PhaseET is at least this share of the rank's run.
  double threshold = 0.01;
  RepeatOptions repeats;
  // What the run decided about bodies for all its ranks (run_analysis.cpp).
  BodyDecisions bodies;
  // When set, the rank is cut into this reference run's phases instead of its own loops
  // (reference_cut.hpp), and detect_phases throws ReferenceCutMismatch where it cannot be.
  const ReferenceCut* reference = nullptr;
};

// Events are taken in trace order, which is the rank's logical order: EPAS numbers each
// process's events on its own, one tick per event, without a global clock. Compute may differ
// from one repetition of a phase to the next (a slow first iteration, noise, a rank sharing its
// core); it is recorded as the phase's spread, not split into phases of its own.
// `record`, when given, receives the decisions that depended on this rank's own timing.
RankPhases detect_phases(const core::RankTrace& trace, const PhaseOptions& options = {},
                         ExtractionRecord* record = nullptr);

// Drops the rank's phases whose weight x PhaseET is below `threshold` of its run (counted in
// other_events and other_ns); its stretches of them name no phase (-1).
void keep_relevant(RankPhases& rank, double threshold);

}  // namespace p3s::signature
