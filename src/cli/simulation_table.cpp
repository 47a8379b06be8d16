#include "cli/simulation_table.hpp"

#include <fmt/core.h>

namespace p3s::cli {

void print_phase_table(const std::vector<sim::PhaseTime>& phases, double pet, int nprocs,
                       int repetitions) {
  fmt::print("\n{:<24} {:>10} {:>13} {:>40} {:>13} {:>6}\n", "phase", "weight", "PhaseET (s)",
             "per rank min / mean / max (s)", "x weight+fill", "share");
  for (const sim::PhaseTime& p : phases) {
    const double contribution = p.phase_et * p.weight + p.fill;
    fmt::print("{:<24} {:>10.6g} {:>13.6g} {:>12.6g} / {:>11.6g} / {:>11.6g} {:>13.6g} {:>5.1f}%\n",
               p.name, p.weight, p.phase_et, p.per_rank.min, p.per_rank.mean, p.per_rank.max,
               contribution, pet > 0 ? 100.0 * contribution / pet : 0.0);
  }
  fmt::print(
      "\nPET {:.6g} s at N = {} (sum of PhaseET x weight, plus the fill of a pipeline once per "
      "phase; {} measured repetitions each)\n",
      pet, nprocs, repetitions);
}

void print_simulation_table(const sim::SimResult& r) {
  if (r.mode == sim::SimMode::PerPhase) {
    print_phase_table(r.phases, r.pet, r.nprocs, r.measured_repetitions);
  } else {
    fmt::print("\nPET {:.6g} s at N = {} (whole run; ranks end between {:.6g} and {:.6g} s)\n",
               r.pet, r.nprocs, r.rank_end.min, r.rank_end.max);
  }
  fmt::print("simulator: {} events in {:.2f} s ({:.3g} events/s), peak memory {} MiB\n",
             r.cost.events, r.cost.wall_seconds, r.cost.events_per_second,
             r.cost.peak_rss_kib / 1024);
}

}  // namespace p3s::cli
