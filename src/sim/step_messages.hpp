#pragma once
// The messages of one program step's point-to-point or persistent call, posted on a
// MessagePort as SMPI would post them: both engines run this one dispatch.
#include <cstdint>

#include "core/rank_program.hpp"
#include "sim/message_port.hpp"

namespace p3s::sim {

// Posts the messages of `step` (a point-to-point or persistent call of `program`) on `port`,
// in communicator `comm_key`; peers that are MPI_PROC_NULL get none. A Sendrecv starts both
// halves, then completes both, as SMPI does; probes and request descriptions post nothing.
void post_step_messages(const core::ProgramStep& step, const core::RankProgram& program,
                        MessagePort& port, std::uint64_t comm_key);

}  // namespace p3s::sim
