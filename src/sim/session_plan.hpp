#pragma once
// One SimGrid run (a session, in its own process): which phases every rank repeats and how
// often, and what each rank's clock read when measuring started and when it ended.
#include <cstdint>
#include <string>
#include <vector>

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

struct SessionOutput {
  std::vector<double> measure_start;  // per rank, simulated seconds
  std::vector<double> end;            // per rank, when its last event was over
  std::int64_t events = 0;
  double engine_seconds = 0;  // wall time inside SimGrid's run loop

  std::string encode() const;
  static SessionOutput decode(const std::string& text);
};

}  // namespace p3s::sim
