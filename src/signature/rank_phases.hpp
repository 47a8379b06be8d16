#pragma once
// What the phase analysis keeps of one rank: its relevant phases, each with the events of one
// repetition (rank-relative), its weight and the measured time and compute of its repetitions.
// Everything else of the rank's trace is dropped once this is built.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/event.hpp"
#include "signature/comm_shapes.hpp"
#include "signature/event_token.hpp"
#include "signature/running_stats.hpp"

namespace p3s::signature {

// One event of a phase's body, over the phase's repetitions.
struct SlotStats {
  RunningStats cpu_ns;        // CPU time of the compute burst before the event
  RunningStats instructions;  // instructions of that burst; empty without counters
  RunningStats burst_ns;      // wall time of that burst
  RunningStats call_ns;       // wall time of the MPI call itself
  RunningStats bytes;         // sizes sent (collectives: contributed) by the call
  RunningStats rbytes;        // sizes received
};

struct RankPhase {
  std::int32_t id = -1;            // the run-level phase (Signature::phases) it is part of
  std::vector<EventToken> events;  // one repetition; sizes are the means over repetitions
  std::vector<SlotStats> slots;    // parallel to `events`
  std::int64_t weight = 0;         // repetitions
  std::int64_t occurrences = 0;    // separate stretches of the trace the repetitions came in
  // Per event, the events of the repetition whose requests it completes (a wait its irecv, a
  // waitall the calls it was given), by their index in `events`; empty for the others and for
  // requests posted outside the repetition.
  std::vector<std::vector<std::int32_t>> completes;
  std::size_t first_event = 0;  // trace index of the first event of its first repetition
  // Each repetition's events in the trace are the slots' events, plus any polls that found
  // nothing folded in before them (see token_sequence.hpp).
  // Each repetition runs from the end of the event before it to the end of its last event,
  // so it includes the compute bursts between its events and the phases tile the run.
  RunningStats time_ns;       // PhaseET of each repetition (wall)
  RunningStats cpu_ns;        // CPU time of each repetition's bursts
  RunningStats instructions;  // instructions of each repetition's bursts; empty without counters
  std::int64_t total_ns = 0;  // sum of the repetitions' times: weight x mean PhaseET

  // Share of a run of `run_ns` that this phase takes.
  double share_of(std::int64_t run_ns) const {
    return run_ns > 0 ? static_cast<double>(total_ns) / static_cast<double>(run_ns) : 0.0;
  }
};

// A run of consecutive repetitions of one phase in the rank's trace: the rank's program is the
// sequence of these (what another run of the program is cut like, reference_cut.hpp).
struct PhaseStretch {
  std::int32_t phase = -1;  // index into RankPhases::phases; -1 for a phase not relevant
  std::int64_t repeats = 0;
  bool operator==(const PhaseStretch&) const = default;
};

struct RankPhases {
  std::int32_t rank = 0;
  std::int32_t nprocs = 0;
  std::int64_t events = 0;
  // Traced time of the rank: from MPI_Init's return to its finalize call (to its last event
  // when the trace has no finalize).
  std::int64_t run_ns = 0;
  bool instructions = false;  // the trace counted instructions
  core::TraceEnd end = core::TraceEnd::Complete;
  std::vector<CommShape> comms;                // EventToken::comm indexes this
  std::vector<RankPhase> phases;               // the relevant phases, in order of first appearance
  std::vector<PhaseStretch> stretches;         // the rank's program, in trace order
  std::vector<core::DimsCreate> dims_created;  // its MPI_Dims_create calls
  std::int64_t phase_count = 0;                // phases found, relevant or not
  std::int64_t other_events = 0;               // events of the phases that are not relevant
  std::int64_t other_ns = 0;                   // and their time

  // PET of this rank: sum over its relevant phases of PhaseET x weight.
  std::int64_t pet_ns() const {
    std::int64_t sum = 0;
    for (const RankPhase& p : phases) sum += p.total_ns;
    return sum;
  }
  // Share of the rank's run its relevant phases explain.
  double coverage() const {
    return run_ns > 0 ? static_cast<double>(pet_ns()) / static_cast<double>(run_ns) : 0.0;
  }
};

}  // namespace p3s::signature
