#pragma once
// Simulates an ST4NP on a SimGrid platform with SMPI: per phase (PhaseET, PET = sum of
// PhaseET x weight) or the whole run. Each SimGrid run happens in a child process.
#include "core/scaled_trace.hpp"
#include "sim/sim_options.hpp"
#include "sim/sim_result.hpp"

namespace p3s::sim {

// Throws std::invalid_argument for bad options, std::runtime_error when a simulation fails.
SimResult simulate(const core::ScaledTrace& trace, const SimOptions& options);

}  // namespace p3s::sim
