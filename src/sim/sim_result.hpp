#pragma once
// What a simulation predicts (phase times, PET) and what it cost to get.
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "core/value_spread.hpp"
#include "sim/sim_options.hpp"

namespace p3s::sim {

// One number per rank, summarised.
using RankSpread = core::ValueSpread;

struct PhaseTime {
  std::string name;
  double weight = 0;
  // Per-phase mode: max over ranks of each rank's mean time per measured repetition (s).
  double phase_et = 0;
  RankSpread per_rank;  // each rank's mean time per measured repetition (s)
  // What the phase's first repetition took beyond a measured one, from the first rank's start
  // to the last rank's end (s, at least 0): a pipeline's fill (a wavefront's last rank waits
  // for the sweep to reach it), paid once when the phase starts, not at every repetition.
  double fill = 0;
};

struct SimCost {
  std::int64_t events = 0;        // trace events executed, over all ranks and repetitions
  double wall_seconds = 0;        // whole simulation, platform loading included
  double engine_seconds = 0;      // inside SimGrid's run loop only
  double events_per_second = 0;   // events / wall_seconds
  std::int64_t peak_rss_kib = 0;  // largest resident size of a simulating process
};

struct SimResult {
  int nprocs = 0;
  SimMode mode = SimMode::PerPhase;
  SimEngine engine = SimEngine::SimGrid;
  std::string platform;
  int ranks_per_host = 1;
  Mapping mapping = Mapping::Block;
  int measured_repetitions = 0;  // per-phase mode
  double cpu_speedup = 1;
  std::vector<PhaseTime> phases;  // per-phase mode
  // Per-phase mode: sum of phase_et x weight + fill. Full mode: the simulated time of the whole
  // run (last rank's end).
  double pet = 0;
  RankSpread rank_end;  // full mode: each rank's end time (s)
  SimCost cost;
};

nlohmann::json to_json(const SimResult& result);

}  // namespace p3s::sim
