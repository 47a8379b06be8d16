#pragma once
// One rank's program for the fluid engine (fluid_session.hpp): its steps' compute, its
// messages (the trace's point-to-point calls and the collectives p3s rebuilds, posted through
// the same dispatch as in SimGrid), its waits and SMPI's overheads, as a flat list of actions
// that need no simulated process to run.
#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/rank_program.hpp"
#include "sim/message_port.hpp"
#include "sim/native_collectives.hpp"
#include "sim/point_to_point.hpp"
#include "sim/rank_communicators.hpp"

namespace p3s::sim {

enum class FluidAction : std::uint8_t {
  Compute,  // `seconds` of compute on the rank's core
  Sleep,    // `seconds` busy without the CPU: an overhead, or the turns of a shared core
  Send,     // post a message to `peer`; `eager`: the sender's request is complete at once
  Receive,  // post a receive from `peer`
  Wait,     // wait for request `req`; `seconds`: smpi/or, if the message came eagerly
};

struct FluidRoute;

struct FluidStep {
  FluidAction action = FluidAction::Compute;
  bool eager = false;
  std::int32_t peer = 0;
  std::int32_t tag = 0;
  std::int64_t bytes = 0;
  std::uint64_t comm_key = 0;
  std::int64_t req = 0;
  double seconds = 0;
  const FluidRoute* route = nullptr;  // a send's, once the engine has looked it up
};

// What lowering a rank's program needs to know of its host and of the session.
struct FluidRankSetup {
  int rank = 0;
  int nprocs = 0;
  std::int64_t eager_threshold = 0;
  const SmpiOverheads* overheads = nullptr;
  const NativeAlgorithms* native = nullptr;
  const std::vector<core::Communicator>* communicators = nullptr;  // the rank's, from the trace
  double round_delay = 0;                                          // shared_core.hpp
};

// Lowers one repetition of `program`. Throws std::invalid_argument naming the call for what
// the fluid engine cannot run: a collective p3s does not rebuild (another algorithm than
// SMPI's default ones and rdb's allreduce, or a non-blocking collective).
std::vector<FluidStep> lower_rank_program(const core::RankProgram& program,
                                          const FluidRankSetup& setup);

// Records what a rank posts as FluidSteps, with SMPI's point-to-point semantics
// (point_to_point.hpp): who goes on when, and which overheads it pays.
class FluidProgramBuilder final : public MessagePort {
 public:
  FluidProgramBuilder(int rank, std::int64_t eager_threshold, const SmpiOverheads& overheads,
                      std::vector<FluidStep>& out)
      : rank_(rank), eager_threshold_(eager_threshold), overheads_(overheads), out_(out) {}

  void send(std::uint64_t comm_key, std::int32_t dst, std::int32_t tag, std::int64_t bytes,
            SendMode mode, bool blocking, std::int64_t req) override;
  void receive(std::uint64_t comm_key, std::int32_t src, std::int32_t tag, std::int64_t bytes,
               bool blocking, std::int64_t req) override;
  bool has_request(std::int64_t req) const override {
    return open_.count(req) != 0 || eager_sends_.count(req) != 0;
  }
  void complete(std::int64_t req) override;

  void sleep(double seconds);

 private:
  void file(std::int64_t req);

  int rank_;
  std::int64_t eager_threshold_;
  const SmpiOverheads& overheads_;
  std::vector<FluidStep>& out_;
  std::unordered_set<std::int64_t> open_;         // requests a Wait must complete
  std::unordered_set<std::int64_t> eager_sends_;  // complete for MPI already
};

// The request id of a blocking call's own message: below any the trace or p3s's collectives use.
inline constexpr std::int64_t kFluidBlockingRequest = -(std::int64_t{1} << 62) - 1;

}  // namespace p3s::sim
