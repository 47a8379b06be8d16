#pragma once
// What of a call the Synthetic Signature can measure, and with whom (see README.md): a call's
// measurement units are groups of ranks that must all be loaded with the call's rank for that
// part of its time to come from real messages. A point-to-point call has one unit, its peers
// (a sendrecv's two). A completion call has one unit per peer of the requests it completes: the
// time until that peer's requests completed is measured where that peer is loaded, and the
// call's time is the latest of them. Every other call (collectives, which the replay times
// apart, probes, local calls) has one unit without peers.
#include <cstdint>
#include <utility>
#include <vector>

#include "core/rank_program.hpp"

namespace p3s::replay {

using Unit = std::vector<std::int32_t>;

// Appends the units of `call` to `out` (at least one).
void event_units(const core::RankProgram& program, const core::ProgramStep& call,
                 std::vector<Unit>& out);

// The messages `call` sends as (destination, bytes), appended to `out`: a send's, a sendrecv's
// send half, a started persistent send's.
void sent_messages(const core::RankProgram& program, const core::ProgramStep& call,
                   std::vector<std::pair<std::int32_t, std::int64_t>>& out);

// The sources of the receives `call` completes, appended to `out`: a blocking receive's, a
// sendrecv's receive half, and the receives among the requests a completion call completes.
void received_peers(const core::RankProgram& program, const core::ProgramStep& call,
                    std::vector<std::int32_t>& out);

// The distinct peers of the requests a completion call completes, in record order: unit k of
// the call is peer k's. Requests without a peer (a non-blocking collective's) belong to none.
std::vector<std::int32_t> completion_peers(const core::RankProgram& program,
                                           const core::ProgramStep& call);

}  // namespace p3s::replay
