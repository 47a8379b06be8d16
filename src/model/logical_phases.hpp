#pragma once
// The phases of one run as the model relates them: on each rank, phases with the same events
// are one logical phase whatever their compute (the first iteration of a loop is often split
// off by its warm-up cost), so weights count every repetition of the loop. Ranks' phases are
// then related by logical position (the k-th of each rank, in order of first appearance); a
// position is kept only when every rank has a phase there. Positions are only comparable
// between ranks when every rank's phases are in the signature, relevant or not: the model
// reads signatures made with threshold 0 and applies the relevance threshold to the
// logical phase as a whole (LogicalPhase::relevance).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "signature/signature.hpp"

namespace p3s::model {

struct LogicalRankPhase {
  std::vector<signature::EventToken> events;
  std::int64_t weight = 0;
  double cpu_ns = 0;                // mean compute of one repetition
  double instructions = 0;          // the same in instructions; 0 without counters
  std::vector<double> slot_cpu_ns;  // mean compute before each event
  std::size_t first_event = 0;      // where its first repetition starts in the rank's trace
  double share = 0;                 // of the rank's run time
};

struct LogicalPhase {
  std::int32_t position = 0;            // k-th phase of every rank
  std::vector<LogicalRankPhase> ranks;  // one per rank
  // Largest share of a rank's run it takes: the phase is relevant when that reaches the
  // threshold on some rank, even if on other ranks it takes almost nothing (the first rank of
  // a wavefront sends and is done).
  double relevance() const;
};

struct LogicalRun {
  std::int64_t n = 0;
  std::optional<core::Workload> workload;  // as declared with p3s trace --workload
  bool instructions = false;               // every rank counted instructions
  std::string host;
  std::vector<LogicalPhase> phases;  // present on every rank, in logical order
  std::vector<std::string> notes;    // phases left out, in words
};

LogicalRun logical_phases(const signature::Signature& sig);

}  // namespace p3s::model
