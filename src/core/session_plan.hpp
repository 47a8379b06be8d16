#pragma once
// One run of a trace's phases, as the simulator runs it (a SimGrid session) and as a SimGrid TI
// list file replays it: which phases every rank repeats, how often, and how many leading
// repetitions are warm-up.
#include <cstdint>
#include <vector>

#include "core/scaled_trace.hpp"

namespace p3s::core {

struct SessionPlan {
  struct Segment {
    int phase = 0;
    std::int64_t repetitions = 0;
  };
  std::vector<Segment> segments;  // run in order
  // Leading repetitions of the first segment that are not measured.
  std::int64_t warmup_repetitions = 0;
};

// The whole run: every phase in order, each repeated its weight (rounded). Throws
// std::invalid_argument naming a phase whose weight is negative or not finite.
SessionPlan full_plan(const ScaledTrace& trace);
// One phase alone: phase `phase`, one warm-up repetition then `measured` measured ones.
SessionPlan phase_plan(int phase, int measured);

}  // namespace p3s::core
