#pragma once
// One rank of a SimGrid time-independent trace as a p3s rank trace.
#include <string>

#include "core/event.hpp"
#include "ti/ti_action.hpp"

namespace p3s::ti {

// What the import knows of the machine: TI traces count compute in flops and have no clock.
struct TiTiming {
  double flops_per_second = 0;  // host speed that turns flops into CPU time
};

// The CPU clock's name a TI import writes in its headers and run.json (its wall clock is
// core::kSyntheticWallClock).
std::string ti_cpu_clock(const TiTiming& timing);

// Converts `rank`'s actions (see FORMATS.md, "SimGrid time-independent traces (import)"):
// every MPI action becomes an event of 0 ns, compute before it becomes its burst at
// `timing.flops_per_second`, and the clock advances by compute and sleep only. Throws
// FormatError at the file and line of an unknown action, a malformed one, or one whose
// meaning the trace has lost.
core::RankTrace convert_ti_rank(const TiTrace& trace, int rank, const TiTiming& timing);

}  // namespace p3s::ti
