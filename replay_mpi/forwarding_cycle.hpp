#pragma once
// Where the Synthetic Signature cannot hold a phase at R < N (README.md, "What the replay
// holds"): a black hole answers at once, so a loaded rank fed by one runs at its own pace. That
// is the application's pace unless the rank's input comes, within the same repetition, from a
// chain of ranks that each forward what they have just received, and that chain closes into a
// cycle of more ranks than a step loads (app_ring: each odd rank sends what it has just
// received, around all N ranks). The cycle then sets the application's period, and no step
// holds it: the replay gives the pace of the chain the black hole feeds, a lower bound.
#include <cstdint>
#include <optional>
#include <string>

#include "core/scaled_trace.hpp"

namespace p3s::replay {

struct ForwardingCycle {
  std::int32_t from = 0;  // a rank whose message...
  std::int32_t rank = 0;  // ...this rank forwards within the repetition it received it in
  // The fewest ranks a cycle of messages through that hop crosses: more than `measurable`, or
  // 0 when the search stopped before it found the cycle's length.
  std::int64_t ranks = 0;
};

// Looks at every hop of `phase` where a rank receives a message and sends another after it in
// the same repetition; returns one that lies on a cycle of messages across ranks (following
// each message from its sender to its receiver), but on none of at most `measurable` ranks.
// Nothing when `measurable` >= N, or no such hop exists.
std::optional<ForwardingCycle> unloadable_forwarding_cycle(const core::ScaledTrace& trace,
                                                           int phase, int measurable);

// "rank R forwards within each repetition what rank F sends it, on a cycle of K ranks ...".
std::string describe(const ForwardingCycle& cycle, int measurable);

}  // namespace p3s::replay
