#pragma once
// Runs one collective of the ST4NP as a real MPI collective on a communicator of the replay's
// processes, with the per-member sizes it has at N: the measurable processes run it during a
// step (all N members loaded: its measured time is the collective's; otherwise it only keeps
// them in step), and the collective benchmark times it on communicators of several sizes.
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/op.hpp"

namespace p3s::replay {

struct CollectiveShape {
  core::Op op = core::Op::Barrier;
  std::int64_t bytes = 0;    // what a member contributes (BYTES)
  std::int64_t rbytes = 0;   // what it gets (RBYTES)
  std::int64_t members = 0;  // communicator size at N: alltoall's sums are split over it
  bool operator<(const CollectiveShape& o) const;
  bool operator==(const CollectiveShape& o) const = default;
  std::string describe() const;
};

// Whether the replay can run `op` (blocking and non-blocking collectives of the trace format).
bool is_replayed_collective(core::Op op);

class CollectiveCall {
 public:
  // Runs `shape` on `comm` (size P) rooted at `root` (a rank of `comm`). Buffers are kept
  // between calls.
  void run(const CollectiveShape& shape, MPI_Comm comm, int root);

 private:
  char* buffer(std::vector<char>& b, std::int64_t bytes);
  std::vector<char> send_, recv_;
};

}  // namespace p3s::replay
