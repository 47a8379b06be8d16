#pragma once
// The clocks read where an MPI call begins or ends (an event boundary).
#include <cstdint>

namespace p3s::trace {

std::int64_t monotonic_ns();
std::int64_t thread_cpu_ns();
std::int64_t realtime_ns();

// Wall (CLOCK_MONOTONIC) and thread CPU (CLOCK_THREAD_CPUTIME_ID) time at one boundary.
struct ClockReading {
  std::int64_t wall = 0;
  std::int64_t cpu = 0;
};

// Reading the thread CPU clock is a system call (about 0.5 us on a virtual machine) while the
// monotonic clock is read in user space (about 20 ns), and a message-rate loop crosses two
// boundaries per call. So the CPU clock is read only when at least cpu_min_ns of wall time
// passed since the previous boundary; a shorter interval is taken as all CPU, because a thread
// descheduled inside it would have stretched it past the threshold.
class BoundaryClock {
 public:
  // Reads both clocks exactly and makes that the previous boundary.
  ClockReading start(std::int64_t cpu_min_ns);
  ClockReading read();

 private:
  std::int64_t cpu_min_ns_ = 0;
  ClockReading last_;
};

}  // namespace p3s::trace
