#pragma once
// Writes an ST4NP as SimGrid time-independent (TI) traces that SimGrid 3.32's
// `smpirun -replay LIST ... smpireplaymain` replays: a list file naming one action file per
// rank. Compute becomes `compute FLOPS` at a given host speed. Ranks are written one at a time.
#include <cstdint>
#include <filesystem>
#include <vector>

#include "core/scaled_trace.hpp"

namespace p3s::ti {

// Full: DIR/ti.list, every phase in order repeated its weight (rounded) times, as `simulate
// --full` runs it. PerPhase: DIR/phase-I/ti.list per phase, a warm-up then
// `measured_repetitions` of it, as `simulate` runs each phase.
enum class TiLayout : std::uint8_t { Full, PerPhase };

struct TiExportOptions {
  TiLayout layout = TiLayout::Full;
  int measured_repetitions = 3;
  double host_speed = 1e9;  // flop/s of the hosts the traces will be replayed on
  double cpu_speedup = 1;   // compute bursts are divided by this, as in `simulate`
};

// Returns the list files written. Throws std::invalid_argument for events TI traces cannot
// express: collectives on communicators other than the world, MPI_Alltoallw.
std::vector<std::filesystem::path> export_ti(const core::ScaledTrace& trace,
                                             const std::filesystem::path& dir,
                                             const TiExportOptions& options);

}  // namespace p3s::ti
