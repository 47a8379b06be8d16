#pragma once
// The per-rank phase analysis (EPAS): cuts one rank's events into phases on that rank alone,
// weighs them and keeps the relevant ones.
#include "core/event.hpp"
#include "signature/rank_phases.hpp"
#include "signature/repeat_finder.hpp"

namespace p3s::signature {

struct PhaseOptions {
  // Two repetitions of the same events are the same phase when the compute before each event
  // differs by at most 1 - similarity (relative), or by less than a floor that keeps timer
  // noise from splitting phases (see phase_detector.cpp).
  double similarity = 0.85;
  // A phase is relevant when weight x PhaseET is at least this share of the rank's run.
  double threshold = 0.01;
  RepeatOptions repeats;
};

// Events are taken in trace order, which is the rank's logical order: EPAS numbers each
// process's events on its own, one tick per event, without a global clock.
RankPhases detect_phases(const core::RankTrace& trace, const PhaseOptions& options = {});

}  // namespace p3s::signature
