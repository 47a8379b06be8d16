#pragma once
// Where the phases of one rank are. The repeat search finds loops nested in loops, and a
// rank's phases must be the same code on every rank and at every process count, so the loop
// bodies are taken by what they explain, not by how the search happened to nest them:
//  - The body that covers most of the rank's sequence comes first; a smaller body is preferred
//    to it when it covers nearly as much (a timestep rather than "20 timesteps and a
//    re-neighbouring"), but an inner repeat that covers a fraction of it is not (two swaps with
//    the same peer, which only a 2 x 2 x 2 grid has). Its occurrences are cut out wherever they
//    are, and the next body is looked for in what is left, while it still explains a share.
//  - A body is cut where it starts the same way everywhere: right after the collective before
//    the program's entry into it when it has one (every rank makes its collectives at the same
//    point of every repetition, whatever its neighbours, while where a rank first enters the
//    loop can differ: a pipeline's first wait with nothing yet to complete); without one, where
//    no request is in flight (so a phase keeps its messages whole), right after its largest
//    compute when that stands out (the loop's work between two exchanges), else where the
//    program first entered it. The search alone would pick a loop up half a body later after a
//    one-off interruption.
//  - What is left between the bodies are one-off stretches (setup, a re-neighbouring step, an
//    output step), phases of their own.
#include <cstddef>
#include <cstdint>
#include <set>
#include <vector>

#include "core/event.hpp"
#include "signature/comm_shapes.hpp"
#include "signature/repeat_finder.hpp"
#include "signature/token_sequence.hpp"

namespace p3s::signature {

// `repeats` copies of a body of `length` units starting at unit `first`; a one-off stretch has
// repeats = 1 and loop = false.
struct Segment {
  std::size_t first = 0;
  std::size_t length = 0;
  std::size_t repeats = 1;
  bool loop = false;
  bool operator==(const Segment&) const = default;
};

// A body's calls as every rank sees them: per unit its operation and the size of its
// communicator, from the least rotation. Ranks running the same loop give it the same shape
// even where their (relative) peers differ, so a run can decide about it once for all ranks.
using BodyShape = std::vector<std::uint64_t>;

// What the run has decided about bodies, and what one rank's extraction decided alone.
struct BodyDecisions {
  // Cut out as phases wherever they repeat like a loop, whatever their share of this rank.
  std::set<BodyShape> cut_anyway;
};
struct ExtractionRecord {
  std::set<BodyShape> cut_for_time;    // cut out for their share of this rank's time alone
  std::set<BodyShape> left_for_share;  // loops left in one-off stretches for a share too small
};

// The segments tile the units of `seq` in order. `record`, when given, receives the
// decisions that depended on this rank's own timing (see run_analysis.cpp).
std::vector<Segment> extract_segments(const TokenSequence& seq, const core::RankTrace& trace,
                                      const CommShapes& comms, const RepeatOptions& options = {},
                                      const BodyDecisions& decisions = {},
                                      ExtractionRecord* record = nullptr);

// The start of the lexicographically least rotation of `s` (of std::uint32_t or
// std::uint64_t symbols).
template <class Symbol>
std::size_t least_rotation(const std::vector<Symbol>& s);

}  // namespace p3s::signature
