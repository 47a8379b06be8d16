#pragma once
// What a Synthetic Signature run measured ("p3s-replay 1", src/core/FORMATS.md): per phase the
// PhaseET and its spread over ranks, the PET, the run's own cost (SynET), how the run was set up
// (R, M, black holes, noise pairs, steps), every step's ranks and counts, the collectives'
// fits, and every measured message, for calibration.
#include <cstdint>
#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "core/value_spread.hpp"
#include "replay_mpi/collective_fit.hpp"

namespace p3s::replay {

using Spread = core::ValueSpread;
using core::spread_of;

struct PhaseResult {
  std::string name;
  double weight = 0;
  double phase_et = 0;  // the slowest rank's mean time per measured repetition (s)
  Spread per_rank;      // each rank's mean time per measured repetition (s)
  // Over the measured repetitions, the slowest rank's time in each (s): the PhaseET's spread.
  Spread by_repetition;
  // The largest over ranks of the time before their calls per repetition (s): the compute the
  // replay emulated, as it measured it (the cross-check's evidence).
  double compute_seconds = 0;
  int steps = 0;
  std::string collectives;  // "none", "live" (all members loaded) or "fit" (collective_fit.hpp)
  // Per repetition: the application's network messages at N, the mean over steps of those the
  // Synthetic Signature sent itself, and of the noise messages added (black-hole noise).
  std::int64_t app_network_messages = 0;
  double replay_network_messages = 0;
  double noise_messages = 0;
  // Empty when the replay holds the phase at this R; else why not (forwarding_cycle.hpp).
  std::string not_held;
  // By how much the PhaseET may be long (s; 0: none worth saying): its collectives' members
  // leave them spread out at N, and the exchange after them can overlap that spread, which the
  // steps, starting it together, do not (collective_bench.hpp: judge_fitted_phases).
  double overlap_allowance = 0;
  // Empty unless a collective's time at N came from a fit that misses its own measurements
  // (CollectiveFit::follows_points): which, and by how much.
  std::string collective_fit_misses;
};

struct CollectiveResult {
  std::string op;
  std::int64_t bytes = 0;       // per member, as the ST4NP gives it
  std::int64_t members = 0;     // communicator size at N
  std::vector<int> sizes;       // P measured
  std::vector<double> seconds;  // slowest member's mean time at each P
  std::vector<int> fit_sizes;   // the P the fit was made from (fit_points)
  CollectiveFit fit;
  double at_n_seconds = 0;
  // At each P, how far apart the members leave a call they entered together (latest less
  // earliest, s), and that spread at N from the same kind of fit: a linear reduce and a
  // binomial broadcast let members go log2 P hops apart, recursive doubling together.
  std::vector<double> exit_spreads;
  double exit_spread_at_n = 0;
};

// Empty when `c`'s fit follows its measurements; else why its time at N is a guess, in words.
std::string fit_misses_because(const CollectiveResult& c);

struct StepResult {
  int phase = 0;
  std::vector<std::int32_t> ranks;  // per measurable process, -1: none
  int warmup_repetitions = 1;       // played before the measured ones
  // Calls each made, over all repetitions (counted as they were made).
  std::vector<std::int64_t> executed;
  std::vector<std::int64_t> measured;  // distinct events each measured
  int black_holes = 0;
  std::int64_t noise_messages = 0;  // per repetition
};

struct MessageResult {
  int phase = 0;
  int step = 0;
  std::int32_t rank = 0;
  std::int32_t peer = 0;
  bool send = false;
  std::int64_t bytes = 0;
  bool same_node = false;  // in the application's placement at N
  double seconds = 0;      // from posting to completion
  int in_flight = 0;       // the rank's requests in flight when it was posted, itself included
};

// One measurement unit as the call that measured it timed it (p3s-replay --record-units).
struct UnitResult {
  int phase = 0;
  std::int32_t rank = 0;
  int call = 0;  // in the rank's repetition of the phase, from 0
  int unit = 0;  // of the call (a completion call has one per peer)
  int step = 0;
  int timed = 0;       // measured repetitions that timed it
  double seconds = 0;  // its mean time over them
};

struct ReplayResult {
  std::string source;  // the SLT or ST4NP replayed
  int nprocs = 0;      // N
  int processes = 0;   // R
  int measurable = 0;  // M
  int black_holes = 0;
  int noise_pairs = 0;
  std::int64_t ranks_per_node = 1;
  std::string mapping = "block";
  bool placement_kept = false;
  std::string placement;  // in words
  std::string compute;    // sleep, spin or none
  int repetitions = 0;    // measured repetitions per step
  int steps = 0;          // measured steps (a warm-up step comes before them)
  double pet = 0;
  double synet = 0;  // the Synthetic Signature's own wall time
  std::vector<PhaseResult> phases;
  std::vector<CollectiveResult> collectives;
  std::vector<StepResult> step_log;
  std::vector<MessageResult> messages;
  std::vector<UnitResult> units;  // with --record-units
  std::vector<std::string> warnings;
};

nlohmann::ordered_json to_json(const ReplayResult& result);
// Reads everything but the step log and the units (which only the tests of the replay's logic
// read): what `p3s replay` and `p3s predict` report, the collectives' fits the cross-check
// holds against the platform, and the measured messages `p3s calibrate` fits to.
// Throws core::FormatError naming the file and the JSON path of what is missing or wrong.
ReplayResult read_replay_result(const std::filesystem::path& file);
// The same from a document already parsed; throws core::JsonValueError and nlohmann's
// exceptions, which core::read_json_value turns into errors naming the file and the path.
ReplayResult replay_result_of(const nlohmann::json& document);

}  // namespace p3s::replay
