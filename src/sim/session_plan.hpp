#pragma once
// One SimGrid run (a session, in its own process): which phases every rank repeats and how
// often, and what each rank's clock read when measuring started and when it ended.
#include <cstdint>
#include <string>
#include <vector>

#include "core/scaled_trace.hpp"

namespace p3s::sim {

struct SessionPlan {
  struct Segment {
    int phase = 0;
    std::int64_t repetitions = 0;
  };
  std::vector<Segment> segments;  // run in order
  // Leading repetitions of the first segment that are not measured.
  std::int64_t warmup_repetitions = 0;
};

// Full mode: every phase in order, each repeated its weight (rounded). Throws
// std::invalid_argument naming a phase whose weight is negative or not finite.
SessionPlan full_plan(const core::ScaledTrace& trace);
// Per-phase mode: phase `phase` alone, one warm-up repetition then `measured` measured ones.
SessionPlan phase_plan(int phase, int measured);

struct SessionOutput {
  std::vector<double> first_start;    // per rank: when its first repetition began
  std::vector<double> measure_start;  // per rank, simulated seconds
  std::vector<double> end;            // per rank, when its last event was over
  std::int64_t events = 0;
  double engine_seconds = 0;  // wall time inside SimGrid's run loop

  std::string encode() const;
  static SessionOutput decode(const std::string& text);
};

}  // namespace p3s::sim
