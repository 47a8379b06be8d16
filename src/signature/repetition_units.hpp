#pragma once
// The units each repetition of a phase is made of, with every request kept in the repetition
// that completes it.
//
// Pipelined codes post the receive of the next iteration before this one ends (or before the
// loop starts): every cut of such a loop leaves a request in flight, and a phase taken as the
// stretch between two cuts would post a message in one repetition and wait for it in the next,
// with a lone receive before the loop and a lone send after it. Simulated or replayed on its
// own, such a phase deadlocks or loses its messages. So a call that posts a request is moved to
// the start of the repetition (or the one-off phase) that completes it: the repetition then
// holds each of its messages whole, at the price of posting a receive at its start rather than
// at the end of the one before.
//
// A send is the other way round: its message leaves when it is posted, and the receive that
// takes it is in the same iteration on its peer; only its buffer waits. A pipelined sweep waits
// for the last step's sends at the start of the next iteration (before it sends again), so a
// completion of nothing but sends an earlier repetition posted moves back to the end of that
// repetition instead, and the sends stay with their receives.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/event.hpp"
#include "signature/phase_extraction.hpp"
#include "signature/token_sequence.hpp"

namespace p3s::signature {

// The requests a call posts or starts.
std::vector<std::int64_t> posted_requests(const core::Event& e);

// For each segment, for each of its repetitions, the units (indexes into seq.units) that make
// it, in order: posts completed in a later repetition moved there, first; completions of an
// earlier repetition's sends moved back there, last. A loop's moves are
// kept only when every repetition still has the same calls; a repetition left empty (a lone
// pre-loop receive) is dropped.
std::vector<std::vector<std::vector<std::size_t>>> repetition_units(
    const std::vector<Segment>& segments, const TokenSequence& seq, const core::RankTrace& trace);

}  // namespace p3s::signature
