#pragma once
// Runs one rank of a session inside SimGrid: an SMPI process that executes its phases' events
// — compute on its host's CPU, point-to-point messages on mailboxes, collectives through SMPI.
#include <cstdint>
#include <string>
#include <vector>

#include "core/scaled_trace.hpp"
#include "core/session_plan.hpp"
#include "sim/eager_send_board.hpp"
#include "sim/native_collectives.hpp"
#include "sim/session_output.hpp"

namespace p3s::sim {

// What every rank of a session shares. Ranks run one at a time (SimGrid's actors are
// cooperative), so they write their own slots of `output` without locking.
struct SessionContext {
  const core::ScaledTrace* trace = nullptr;
  const core::SessionPlan* plan = nullptr;
  double cpu_speedup = 1;
  std::int64_t eager_threshold = 0;  // point-to-point messages, p3s's collectives' too
  NativeAlgorithms native;           // collectives p3s runs itself
  EagerSendBoard* eager_sends = nullptr;
  bool create_communicators = false;  // some event uses a communicator other than world or self
  // Per rank, the seconds each communication round of a blocking call costs on its host: 0
  // unless the host is oversubscribed and says what sharing its cores costs (shared_core.hpp).
  std::vector<double> round_delays;
  SessionOutput* output = nullptr;
  std::string error;  // the first rank's failure; the session then stops every rank
};

// The body of rank `rank`'s actor, whose properties name it for SMPI (kSmpiInstance, rank).
void run_rank(int rank, SessionContext& context);

// The name SMPI knows the simulated application by.
inline constexpr const char* kSmpiInstance = "p3s";

}  // namespace p3s::sim
