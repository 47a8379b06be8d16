#pragma once
// One rank's events as a sequence of small integers, equal where the events' tokens are equal:
// what the repeat search works on.
#include <cstdint>
#include <vector>

#include "core/event.hpp"
#include "signature/comm_shapes.hpp"
#include "signature/event_token.hpp"

namespace p3s::signature {

struct TokenSequence {
  std::vector<std::uint32_t> ids;  // one per event, in trace (logical) order
  std::vector<EventToken> tokens;  // the distinct tokens, indexed by id
};

EventToken make_token(const core::Event& event, const core::RankTrace& trace,
                      const CommShapes& shapes);
TokenSequence tokenize(const core::RankTrace& trace, const CommShapes& shapes);

}  // namespace p3s::signature
