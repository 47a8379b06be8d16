#pragma once
// Matching the events of one phase on every rank and every run to the phase's slots: the k-th
// communication of an inner rank is the same slot as a border rank's communication in the
// same direction, and the same slot at n = 16 and n = 36. Border ranks simply lack the slots
// they have no neighbour for (their null communications, 001 sec. 3.2.1).
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "signature/comm_shapes.hpp"
#include "signature/event_token.hpp"

namespace p3s::model {

// One phase in one run: each rank's events of one repetition, peers relative to the rank
// ((peer - rank) mod n) as the signature writes them; empty for a rank without the phase.
struct PhaseRun {
  std::int64_t n = 0;
  std::vector<std::vector<signature::EventToken>> ranks;
  // Per rank and event: the sizes' [min, max] over the repetitions (the tokens hold the means).
  std::vector<std::vector<std::pair<double, double>>> bytes_range;
  std::vector<std::vector<std::pair<double, double>>> rbytes_range;
  // Per rank: its communicators, which the events' `comm` index (members relative to it).
  std::vector<std::vector<signature::CommShape>> comms;
  // Per rank and event: the events whose requests it completes (empty where not known).
  std::vector<std::vector<std::vector<std::int32_t>>> completes;
  // The run's MPI_Dims_create calls (its rank 0's).
  std::vector<core::DimsCreate> dims_created;
};

enum class AlignmentMethod : std::uint8_t {
  Position,  // every rank has the same operations; slot = position (a growing phase allowed)
  Grid,      // slot = operation, tags and distance vector on a process grid, in the template's
             // order (template_alignment.hpp)
  Centered,  // slot = operation and tag with the peer offset taken in (-n/2, n/2]
  Signed,    // slot = operation and tag with the peer offset peer - rank (non-periodic grids)
};

std::string_view alignment_method_name(AlignmentMethod method);

struct AlignedRun {
  std::int64_t n = 0;
  // slot_events[s][r]: rank r's event in slot s, if it has one.
  std::vector<std::vector<std::optional<signature::EventToken>>> slot_events;
  // order[r]: the slots rank r performs, in its order.
  std::vector<std::vector<std::int32_t>> order;
};

struct Alignment {
  AlignmentMethod method = AlignmentMethod::Position;
  std::vector<AlignedRun> runs;  // as given
  std::string failure;           // empty when aligned
  // Per slot, the slots whose requests it completes (a wait its irecv's, a waitall those it was
  // given); empty when the method does not say (a completion then takes the oldest pending
  // request, or all of them).
  std::vector<std::vector<std::int32_t>> slot_completes;
  int grid_dimensions = 0;  // Grid: the grids' dimensions
  // "position", "grid template (3D)", ...
  std::string name() const;
  bool aligned() const { return failure.empty(); }
};

// Position alignment may give each run its own slot count; the other methods give every run
// the slots of the largest run. Fails (failure says why) when a run has a slot the largest
// lacks, or, for Position, ranks of one run with different operations.
Alignment align_phase(std::span<const PhaseRun> runs, AlignmentMethod method,
                      int grid_dimensions = 0);

// World rank of a relative peer; core::kNone stays kNoPeer (-1).
std::int64_t absolute_peer(std::int32_t relative, std::int64_t rank, std::int64_t n);

}  // namespace p3s::model
