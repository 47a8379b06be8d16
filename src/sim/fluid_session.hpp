#pragma once
// The fluid engine: a session plan run without one simulated process per rank. Each rank's
// program is lowered to actions (fluid_program.hpp) and advanced by one event loop; messages
// match as MPI matches them and flow on the platform's links as SimGrid's SMPI network model
// times them, shared as fluid_sharing.hpp shares them. The work of an event is bounded
// whatever the number of ranks (its time still grows with N as the ranks' state outgrows the
// processor's caches: scripts/bench/README.md). It runs the collectives p3s rebuilds and
// refuses the others.
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "core/scaled_trace.hpp"
#include "core/session_plan.hpp"
#include "sim/native_collectives.hpp"
#include "sim/session_output.hpp"

namespace simgrid::s4u {
class Host;
}

namespace p3s::sim {

struct FluidSessionInputs {
  const core::ScaledTrace* trace = nullptr;
  const core::SessionPlan* plan = nullptr;
  std::vector<simgrid::s4u::Host*> hosts;  // in placement order
  std::vector<int> host_of;                // per rank, an index into hosts
  std::int64_t eager_threshold = 0;
  NativeAlgorithms native;
  std::vector<double> round_delays;  // per rank (shared_core.hpp)
  double cpu_speedup = 1;
  // Called every kFluidProgressSeconds of wall time with how far the simulation is.
  std::function<void(std::string_view)> progress;
};

inline constexpr double kFluidProgressSeconds = 30;

// Runs the plan; SimGrid's engine must have loaded the platform (and its configuration).
// Throws std::invalid_argument for what the fluid engine cannot run, std::runtime_error when
// ranks never finish (naming one and what it waits for).
SessionOutput run_fluid_session(const FluidSessionInputs& inputs);

}  // namespace p3s::sim
