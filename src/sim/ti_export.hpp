#pragma once
// Writes an ST4NP as SimGrid time-independent (TI) traces that SimGrid 3.32's
// `smpirun -replay LIST ... smpireplaymain` replays: a list file naming one action file per
// rank. Compute becomes `compute FLOPS` at a given host speed. Ranks are written one at a time.
#include <filesystem>
#include <vector>

#include "core/scaled_trace.hpp"
#include "sim/sim_options.hpp"

namespace p3s::sim {

struct TiExportOptions {
  // Full: DIR/ti.list, every phase in order repeated its weight (rounded) times.
  // PerPhase: DIR/phase-I/ti.list per phase, a warm-up then `measured_repetitions` of it.
  SimMode mode = SimMode::Full;
  int measured_repetitions = 3;
  double host_speed = 1e9;  // flop/s of the hosts the traces will be replayed on
  double cpu_speedup = 1;   // compute bursts are divided by this, as in `simulate`
};

// Returns the list files written. Throws std::invalid_argument for events TI traces cannot
// express: collectives on communicators other than the world, MPI_Alltoallw.
std::vector<std::filesystem::path> export_ti(const core::ScaledTrace& trace,
                                             const std::filesystem::path& dir,
                                             const TiExportOptions& options);

}  // namespace p3s::sim
