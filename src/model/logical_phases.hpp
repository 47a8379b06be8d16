#pragma once
// The phases of one run as the model sees them: the signature's run phases (the same phase
// on every rank, related by content: signature/phase_relation.hpp), each with every rank's
// part of it. A rank without the phase has no events and weight 0 there. The model reads
// signatures made with threshold 0, so that every phase of every rank is there, and applies the
// relevance threshold to the phase as a whole (LogicalPhase::relevance).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "signature/signature.hpp"

namespace p3s::model {

struct LogicalRankPhase {
  std::vector<signature::EventToken> events;  // one repetition; sizes are means
  std::int64_t weight = 0;                    // 0: the rank does not take part
  double cpu_ns = 0;                          // mean compute of one repetition
  double instructions = 0;                    // the same in instructions; 0 without counters
  std::vector<double> slot_cpu_ns;            // mean compute before each event
  // Per event, the events whose requests it completes (signature::RankPhase::completes).
  std::vector<std::vector<std::int32_t>> completes;
  // Sizes' range over the repetitions, per event: [min, max] sent and received.
  std::vector<std::pair<double, double>> bytes_range;
  std::vector<std::pair<double, double>> rbytes_range;
  std::size_t first_event = 0;  // where its first repetition starts in the rank's trace
  std::int64_t total_ns = 0;    // time of all its repetitions on the rank
  double share = 0;             // of the rank's run time (of its calls in an untimed run)
  bool present() const { return weight > 0; }
};

struct LogicalPhase {
  std::int32_t id = 0;                  // the signature's run phase
  std::vector<LogicalRankPhase> ranks;  // one per rank
  // Largest share of a rank's run it takes: the phase is relevant when that reaches the
  // threshold on some rank, even if on other ranks it takes almost nothing (the first rank of
  // a wavefront sends and is done).
  double relevance() const;
  // The weight most ranks that take part repeat it; 0 when none does.
  std::int64_t common_weight() const;
  // The rank with the most events in it (an inner rank of a grid): the phase's fullest form.
  std::size_t fullest_rank() const;
};

struct LogicalRun {
  std::int64_t n = 0;
  std::string dir;
  std::optional<core::Workload> workload;  // as declared with p3s trace --workload
  bool instructions = false;               // every rank counted instructions
  std::string host;
  std::vector<std::int64_t> rank_run_ns;  // each rank's traced time
  // Each rank's communicators, which its events' `comm` index.
  std::vector<std::vector<signature::CommShape>> rank_comms;
  std::vector<LogicalPhase> phases;            // in logical order
  std::vector<core::DimsCreate> dims_created;  // rank 0's MPI_Dims_create calls
  // The reference run whose phases these are (signature/reference_cut.hpp): phase k is the
  // reference's phase k. Empty when the run was cut into its own loops.
  std::string cut_like;
  std::int64_t cut_like_n = 0;
  // No rank's trace has any time (a communication-only SMPI run, imported with
  // smpi/simulate-computation:no): shares are of the ranks' calls, not of their time.
  bool untimed = false;

  // Share of the run's time (summed over ranks) that the given phases take; of its calls when
  // the run is untimed.
  double share_of(const std::vector<std::size_t>& phase_indexes) const;
};

LogicalRun logical_phases(const signature::Signature& sig);

}  // namespace p3s::model
