#pragma once
// What the platform says one message or one collective takes, asked of the simulator itself:
// a tiny ST4NP with just that exchange, simulated on the platform with the prediction's options
// (its factors, overheads and collective algorithms included). The cross-check holds the
// replay's measurements against these.
#include <cstdint>

#include "core/op.hpp"
#include "sim/sim_options.hpp"

namespace p3s::predict {

// Two ranks on one host (`same_node`) or on two, each sending the other `bytes` at once: the
// time of one such exchange (s), as a received message's post-to-completion time.
double platform_message_seconds(const sim::SimOptions& options, std::int64_t bytes, bool same_node);

// `members` ranks placed as `options` place them, calling the collective `op` on the world with
// `bytes` per member (`rbytes` received): the slowest rank's time per call (s).
double platform_collective_seconds(const sim::SimOptions& options, core::Op op, std::int64_t bytes,
                                   std::int64_t rbytes, int members);

}  // namespace p3s::predict
