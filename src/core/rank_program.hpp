#pragma once
// One rank's events of one phase repetition, compiled into what the simulator and the Synthetic
// Signature (replay_mpi) execute: compute as seconds, wildcard receives resolved to the source
// and tag that matched, the requests each completion call completed gathered in one list.
#include <cstdint>
#include <vector>

#include "core/event.hpp"

namespace p3s::core {

struct ProgramStep {
  Op op = Op::Barrier;
  double compute_seconds = 0;  // simulated compute before the call
  std::int32_t comm = 0;       // communicator id in the rank's trace
  std::int32_t dst = kNone;
  std::int32_t tag = kNone;
  std::int64_t bytes = 0;
  std::int32_t src = kNone;
  std::int32_t rtag = kNone;
  std::int64_t rbytes = 0;
  std::int32_t root = kNone;
  std::int64_t req = kNone;
  std::uint32_t first_record = 0;  // the call's request records, in RankProgram::records
  std::uint32_t record_count = 0;
};

struct RankProgram {
  std::vector<ProgramStep> steps;
  std::vector<RequestRecord> records;
};

// Compute bursts are divided by `cpu_speedup`. Throws std::invalid_argument for a blocking
// receive from an unknown source, or a non-blocking one whose completion is not in `events`.
RankProgram compile_rank_program(const std::vector<Event>& events, double cpu_speedup);

// Collectives carry totals, which the simulator splits evenly among the `size` ranks of the
// communicator (alltoall, scatter and gather at the root, allgather). A positive total below
// one byte per rank cannot be given to MPI, whose counts are whole: throws
// std::invalid_argument naming the call (an SLT's fit extrapolated too far, usually).
void check_per_peer_volume(const ProgramStep& step, int size);

}  // namespace p3s::core
