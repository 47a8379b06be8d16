#pragma once
// Who does what in a Synthetic Signature run of R processes: which processes are measurable
// (and which slot of a step each plays), which are black holes and which noise pairs, whether
// the application's placement at N is kept, and the step plan. Made once, by one process, from
// the physical node of every process.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/rank_mapping.hpp"
#include "core/scaled_trace.hpp"
#include "replay_mpi/step_plan.hpp"

namespace p3s::replay {

struct SetupOptions {
  int measurable = 0;  // M; 0: N when N <= R, else R / 2
  std::int64_t ranks_per_node = 1;
  core::Mapping mapping = core::Mapping::Block;
  std::vector<int> phases;  // empty: all
  bool noise = true;
};

struct Setup {
  Plan plan;
  std::vector<int> measurable;                   // process of slot i
  std::vector<int> black_holes;                  // process of black hole j
  std::vector<std::pair<int, int>> noise_pairs;  // (sender, receiver) processes
  bool placement_kept = false;
  std::string placement;  // in words
};

// `node_of_process[p]`: the physical node (any id) of process p. Throws std::invalid_argument
// with the reason when R is too small for the trace (an event needing more ranks loaded at once
// than M, or more black holes than the processes left).
Setup make_setup(const core::ScaledTrace& trace, const std::vector<int>& node_of_process,
                 const SetupOptions& options);

std::vector<std::int64_t> encode_setup(const Setup& setup);
Setup decode_setup(const std::vector<std::int64_t>& data);

}  // namespace p3s::replay
