#include "replay_mpi/compute_emulation.hpp"

#include <stdexcept>
#include <string>

#ifdef P3S_REPLAY_SMPI
#include <simgrid/host.h>
#include <smpi/smpi.h>
#include <time.h>
#else
#include <sys/prctl.h>
#include <time.h>
#endif

namespace p3s::replay {

ComputeMode compute_mode_from_name(std::string_view name) {
  if (name == "sleep") return ComputeMode::Sleep;
  if (name == "spin") return ComputeMode::Spin;
  if (name == "none") return ComputeMode::None;
  throw std::invalid_argument("unknown compute emulation '" + std::string(name) +
                              "' (sleep, spin or none)");
}

std::string_view compute_mode_name(ComputeMode mode) {
  switch (mode) {
    case ComputeMode::Sleep:
      return "sleep";
    case ComputeMode::Spin:
      return "spin";
    default:
      return "none";
  }
}

#ifdef P3S_REPLAY_SMPI

ComputeEmulation::ComputeEmulation(ComputeMode mode) : mode_(mode) {}

void ComputeEmulation::run(std::int64_t ns) const {
  if (ns <= 0 || mode_ == ComputeMode::None) return;
  const double seconds = static_cast<double>(ns) * 1e-9;
  if (mode_ == ComputeMode::Spin) {
    smpi_execute_flops(seconds * sg_host_get_speed(sg_host_self()));
  } else {
    const timespec t{static_cast<time_t>(ns / 1'000'000'000),
                     static_cast<long>(ns % 1'000'000'000)};
    smpi_nanosleep(&t, nullptr);
  }
}

#else

namespace {

std::int64_t monotonic_ns() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return std::int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec;
}

}  // namespace

ComputeEmulation::ComputeEmulation(ComputeMode mode) : mode_(mode) {
  // Linux lets a sleeping thread wake up to 50 us late unless told otherwise.
  if (mode_ == ComputeMode::Sleep) prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
}

void ComputeEmulation::run(std::int64_t ns) const {
  if (ns <= 0 || mode_ == ComputeMode::None) return;
  const std::int64_t until = monotonic_ns() + ns;
  if (mode_ == ComputeMode::Spin) {
    while (monotonic_ns() < until) {
    }
    return;
  }
  const timespec at{static_cast<time_t>(until / 1'000'000'000),
                    static_cast<long>(until % 1'000'000'000)};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, nullptr) != 0) {
  }
}

#endif

}  // namespace p3s::replay
