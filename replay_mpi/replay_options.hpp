#pragma once
// The command line of p3s-replay (every process parses it the same way).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/rank_mapping.hpp"
#include "replay_mpi/compute_emulation.hpp"

namespace p3s::replay {

struct ReplayOptions {
  std::string input;  // app.slt
  int nprocs = 0;     // N
  int measurable = 0;
  std::int64_t ranks_per_node = 1;
  core::Mapping mapping = core::Mapping::Block;
  std::vector<int> phases;  // empty: all
  int repetitions = 3;
  ComputeMode compute = ComputeMode::Spin;
  std::string output;  // JSON; empty: replay-N.json
  bool force = false;
  bool noise = true;
  int noise_cap = 256;
  bool messages = true;
  bool units = false;  // every measured unit in the JSON, as the measuring call timed it
  bool carry_nearest = false;
  bool partial = false;
  bool accept_ambiguous = false;
};

// Throws std::invalid_argument with what is wrong; returns nothing after printing --help.
std::optional<ReplayOptions> parse_replay_options(int argc, char** argv, bool print);

}  // namespace p3s::replay
