#pragma once
// A scaled trace that says how far its readers have got: at large N, generate's consistency
// check and writer visit every rank, which takes minutes to hours, and a silent command looks
// hung.
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "core/scaled_trace.hpp"

namespace p3s::cli {

class ProgressTrace final : public core::ScaledTrace {
 public:
  // Reports "p3s COMMAND: STEP: rank r of N" on stderr at most every `interval` while ranks
  // are read through it; `inner` must outlive it.
  ProgressTrace(const core::ScaledTrace& inner, std::string command,
                std::chrono::seconds interval = std::chrono::seconds(5));

  // What the readers are doing now ("checking consistency", "writing").
  void set_step(std::string step);

  int nprocs() const override { return inner_.nprocs(); }
  const std::vector<core::ScaledPhase>& phases() const override { return inner_.phases(); }
  void phase_events(int phase, int rank, std::vector<core::Event>& out) const override;
  std::vector<core::Communicator> communicators(int rank) const override {
    return inner_.communicators(rank);
  }

 private:
  const core::ScaledTrace& inner_;
  std::string command_;
  std::string step_;
  std::chrono::steady_clock::duration interval_;
  mutable std::chrono::steady_clock::time_point next_report_;
  mutable std::uint32_t calls_ = 0;
};

}  // namespace p3s::cli
