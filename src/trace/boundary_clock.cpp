#include "trace/boundary_clock.hpp"

#include <time.h>

namespace p3s::trace {
namespace {

std::int64_t clock_ns(clockid_t clock) {
  timespec now{};
  clock_gettime(clock, &now);
  return static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

}  // namespace

std::int64_t monotonic_ns() {
  return clock_ns(CLOCK_MONOTONIC);
}
std::int64_t thread_cpu_ns() {
  return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}
std::int64_t realtime_ns() {
  return clock_ns(CLOCK_REALTIME);
}

ClockReading BoundaryClock::start(std::int64_t cpu_min_ns) {
  cpu_min_ns_ = cpu_min_ns;
  last_ = {monotonic_ns(), thread_cpu_ns()};
  return last_;
}

ClockReading BoundaryClock::read() {
  std::int64_t wall = monotonic_ns();
  std::int64_t elapsed = wall - last_.wall;
  std::int64_t cpu = elapsed >= cpu_min_ns_ ? thread_cpu_ns() : last_.cpu + elapsed;
  last_ = {wall, cpu};
  return last_;
}

}  // namespace p3s::trace
