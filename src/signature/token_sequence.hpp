#pragma once
// One rank's events as a sequence of small integers, equal where the events have the same
// structure: what the repeat search works on.
//
// Structure is the call, its peers relative to the rank, tags, communicator and request count,
// not its message size: real codes send a few percent more or fewer bytes from one iteration to
// the next (ghost atoms, particles crossing a border), and that must not break a loop. Sizes
// are kept per event and compared when the repetitions of a loop are grouped into phases.
//
// Polls that found nothing (an MPI_Test* that completed no request, MPI_Iprobe) are not
// structure either: how many a program makes depends on timing. They are folded into the next
// event, as part of the wait before it.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/event.hpp"
#include "signature/comm_shapes.hpp"
#include "signature/event_token.hpp"

namespace p3s::signature {

// One position of the sequence: the trace's event `key`, after the folded polls `first` ..
// key - 1 (first == key when none were folded).
struct TokenUnit {
  std::size_t first = 0;
  std::size_t key = 0;
};

struct TokenSequence {
  std::vector<std::uint32_t> ids;  // one per unit, in trace (logical) order
  std::vector<TokenUnit> units;    // parallel to ids
  std::vector<EventToken> tokens;  // the distinct structures, indexed by id; bytes are 0
};

// The token of `event` with its sizes; structure() of it is what the sequence compares.
EventToken make_token(const core::Event& event, const core::RankTrace& trace,
                      const CommShapes& shapes);
EventToken structure(EventToken token);
// True for a call that completed or found nothing and only spent time polling.
bool is_empty_poll(const core::Event& event);
TokenSequence tokenize(const core::RankTrace& trace, const CommShapes& shapes);

}  // namespace p3s::signature
