#pragma once
// The ST4NP as its consumers (the simulator, the Synthetic Signature, the TI export) see it:
// for N ranks, the relevant phases with their weights, and for each phase and rank the events
// of one repetition, produced on demand so that large N never needs N files or N traces in
// memory at once.
#include <cstdint>
#include <string>
#include <vector>

#include "core/event.hpp"

namespace p3s::core {

struct ScaledPhase {
  std::string name;   // e.g. "phase 2"
  double weight = 0;  // repetitions in the whole run
};

class ScaledTrace {
 public:
  virtual ~ScaledTrace() = default;
  virtual int nprocs() const = 0;
  virtual const std::vector<ScaledPhase>& phases() const = 0;
  // The events of one repetition of `phase` on `rank`, appended to `out`. Each event's
  // burst_cpu is the compute (ns, on the machine the runs were traced on) before it; peers
  // are world ranks; communicator ids refer to communicators(rank).
  virtual void phase_events(int phase, int rank, std::vector<Event>& out) const = 0;
  // The communicators `rank` uses, id 0 being the world.
  virtual std::vector<Communicator> communicators(int rank) const = 0;
};

}  // namespace p3s::core
