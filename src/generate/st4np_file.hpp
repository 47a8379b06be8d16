#pragma once
// An ST4NP written by `p3s generate` ("p3s-st4np 1", src/core/FORMATS.md) read back as a
// core::ScaledTrace, so the replay can take a trace as well as a model. The whole file is held
// in memory (the SLT is the way to large N: each process instantiates it rank by rank).
#include <filesystem>
#include <string>
#include <vector>

#include "core/scaled_trace.hpp"

namespace p3s::generate {

class St4npFile final : public core::ScaledTrace {
 public:
  // Throws std::runtime_error naming the file, the line and the reason: a wrong first line or
  // header, ranks that are not all of 0..N-1, a phase count that does not match, or an event or
  // request line the rank trace's strict parser rejects.
  explicit St4npFile(const std::filesystem::path& file);

  int nprocs() const override { return nprocs_; }
  const std::vector<core::ScaledPhase>& phases() const override { return phases_; }
  void phase_events(int phase, int rank, std::vector<core::Event>& out) const override;
  std::vector<core::Communicator> communicators(int rank) const override;

  // Whether `file` starts as an ST4NP does.
  static bool is_st4np(const std::filesystem::path& file);

 private:
  struct Rank {
    std::vector<core::Communicator> comms;
    std::vector<std::vector<core::Event>> phases;
  };
  int nprocs_ = 0;
  std::vector<core::ScaledPhase> phases_;
  std::vector<Rank> ranks_;
};

}  // namespace p3s::generate
