#pragma once
// One rank's collectives, run by SMPI itself so that its algorithms (chosen by
// smpi/coll-selector or smpi/<collective>) and their messages are simulated. The rank is an
// SMPI process in replay mode: SMPI neither copies buffers nor applies reduction operations.
#include <smpi/mpi.h>

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "core/rank_program.hpp"
#include "sim/rank_communicators.hpp"

namespace p3s::sim {

class CollectiveCalls {
 public:
  explicit CollectiveCalls(const RankCommunicators& comms) : comms_(comms) {}

  // Runs a collective step; a non-blocking one files its request for `complete`.
  void run(const core::ProgramStep& step);
  bool has_request(std::int64_t req) const { return pending_.count(req) != 0; }
  void complete(std::int64_t req);

 private:
  struct Pending {
    MPI_Request request;
    std::shared_ptr<void> arguments;  // counts SMPI may read until the request completes
  };
  const RankCommunicators& comms_;
  std::unordered_map<std::int64_t, Pending> pending_;
};

}  // namespace p3s::sim
