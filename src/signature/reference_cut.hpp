#pragma once
// Cutting a run into the phases another run of the same program was cut into: the model's
// reference, its largest training run (001 sec. 3.1: phases related by their logical order and
// the work they do).
//
// Cut on its own, a small run can come out in other phases than a large one although the
// program is the same: at n = 1 a loop of `irecv, send, wait, allreduce, allreduce` is two
// allreduces, whose loop the search finds as one allreduce repeated twice as often; a setup's
// eight broadcasts are a phase of their own where they take time and part of the setup where
// they do not; a loop's cut point follows its largest compute, which moves with n.
//
// What stays from one n to another is the program's skeleton: the collectives (and
// communicator creations, finalize), which every rank makes whatever its neighbours. Border
// ranks and small runs lack point-to-point calls and the completions that go with them (their
// null communications), never collectives. So each rank of the run is read as the reference
// rank's sequence of phase stretches: the collectives of each repetition must come as in the
// reference (how many repetitions may differ), and the other calls fall into the repetition
// whose collectives they sit between, or, between two repetitions, into the end of the one
// before or the start of the one after, as the reference's phases begin and end. Phases without
// a collective take the calls left between their neighbours, as many repetitions of one body as
// those calls make.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "signature/phase_extraction.hpp"
#include "signature/phase_likeness.hpp"
#include "signature/signature.hpp"
#include "signature/token_sequence.hpp"

namespace p3s::signature {

// One stretch of the reference rank's program: `repeats` repetitions of run phase `phase`,
// whose collectives in one repetition are `skeleton`.
struct ReferenceStretch {
  std::int32_t phase = 0;
  std::int64_t repeats = 0;
  std::vector<CallKind> skeleton;
};

// What the calls outside a phase's collectives may be, over every rank of the reference: those
// before its first collective (`leading`), after its last (`trailing`), anywhere (`all`).
struct PhaseEdges {
  std::vector<CallKind> leading;
  std::vector<CallKind> trailing;
  std::vector<CallKind> all;
  bool anchored = false;  // it has a collective
};

struct ReferenceCut {
  std::int64_t n = 0;
  std::string run;                                   // the reference's run directory
  std::vector<std::vector<ReferenceStretch>> ranks;  // each rank's program
  std::vector<PhaseEdges> phases;                    // by run phase id
  std::size_t fullest_rank = 0;                      // the rank with the most events
  std::vector<std::int64_t> phase_weights;           // the run phases' weights, by id
  // Every rank is read like this one (within a run: like its fullest rank) instead of like the
  // rank of the same number.
  std::optional<std::size_t> program_rank;

  // The reference rank a rank of another run is read like: the same rank where the reference
  // has it, else its fullest (an inner rank); `program_rank` when set.
  const std::vector<ReferenceStretch>& program_for(std::int64_t rank) const;
};

// The reference's programs and phase edges, from its signature (made with every phase kept,
// threshold 0, so that every stretch names a phase).
ReferenceCut reference_cut_of(const Signature& reference);

// A run of repetitions of one reference phase.
struct IdentifiedSegment {
  Segment segment;
  std::int32_t phase = 0;
};

// Why a rank cannot be read like the reference, naming the rank and the place.
class ReferenceCutMismatch : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The segments of one rank's sequence read like `program`, tiling the sequence in order.
// Throws ReferenceCutMismatch when its collectives do not follow the program, or the calls
// between them fit no phase's edges.
std::vector<IdentifiedSegment> cut_like(const TokenSequence& seq,
                                        const std::vector<ReferenceStretch>& program,
                                        const ReferenceCut& reference, std::int32_t rank);

// True for the calls every rank of a communicator makes, whatever its neighbours: collectives,
// communicator creation, finalize.
bool is_skeleton(core::Op op);

}  // namespace p3s::signature
