#pragma once
// One SimGrid simulation of a session plan: the engine, the platform, one SMPI process per
// rank on its host, and the run. SimGrid allows one engine per process: call it in a fresh
// (forked) process.
#include "core/scaled_trace.hpp"
#include "core/session_plan.hpp"
#include "sim/session_output.hpp"
#include "sim/sim_options.hpp"

namespace p3s::sim {

SessionOutput run_session(const core::ScaledTrace& trace, const SimOptions& options,
                          const core::SessionPlan& plan);

}  // namespace p3s::sim
