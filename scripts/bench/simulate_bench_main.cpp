// Runs p3s's simulator on the synthetic 2D stencil (full mode: every iteration a halo exchange
// and an allreduce) and prints the result as JSON; or, with --export-ti, only writes the same
// ST4NP as TI traces for `smpirun -replay`. scripts/bench/simulate_bench.sh builds and runs it.
//
// usage: simulate_bench SIDE ITERATIONS PLATFORM [--per-phase] [--export-ti DIR] [--cfg=...]
//   N = SIDE x SIDE ranks, one per host of PLATFORM (hosts of 1 Gflop/s); --per-phase
//   simulates each phase on its own (warm-up and 3 measured repetitions) instead.
#include <fmt/core.h>

#include <cstdlib>
#include <exception>
#include <nlohmann/json.hpp>
#include <string>

#include "sim/simulate.hpp"
#include "sim/synthetic_trace.hpp"
#include "ti/ti_export.hpp"

int main(int argc, char** argv) {
  using namespace p3s::sim;
  if (argc < 4) {
    fmt::print(stderr, "usage: {} SIDE ITERATIONS PLATFORM [--export-ti DIR] [--cfg=...]\n",
               argv[0]);
    return 2;
  }
  try {
    StencilShape shape;
    shape.side = std::atoi(argv[1]);
    shape.halo_weight = shape.residual_weight = std::atof(argv[2]);
    const StencilTrace trace(shape);
    SimOptions options;
    options.platform = argv[3];
    options.mode = SimMode::Full;
    std::string ti_dir;
    for (int i = 4; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--export-ti" && i + 1 < argc) {
        ti_dir = argv[++i];
      } else if (a == "--per-phase") {
        options.mode = SimMode::PerPhase;
      } else {
        options.simgrid_args.push_back(a);
      }
    }
    if (!ti_dir.empty()) {  // kept out of the simulation's timing
      p3s::ti::export_ti(trace, ti_dir, p3s::ti::TiExportOptions{});
      return 0;
    }
    const SimResult result = simulate(trace, options);
    fmt::print("{}\n", to_json(result).dump(2));
  } catch (const std::exception& e) {
    fmt::print(stderr, "simulate_bench: {}\n", e.what());
    return 1;
  }
  return 0;
}
