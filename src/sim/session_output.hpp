#pragma once
// What one SimGrid run (a session, in its own process) measured: each rank's clock when it
// started, when measuring started and when it ended, sent back to the parent as text.
#include <cstdint>
#include <string>
#include <vector>

namespace p3s::sim {

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
