#pragma once
// A black hole (001 sec. 4): for one step it stands in for every rank its measurable process
// exchanges messages with that the step did not load, answering each control message with the
// message the absent peer would have sent (same size and tag) and receiving what the measurable
// process sends it, until the measurable process ends the step. It serves one measurable
// process per step (eq. 5), in the order that process asks.
#include <mpi.h>

#include <cstdint>
#include <vector>

namespace p3s::replay {

class BlackHole {
 public:
  BlackHole(MPI_Comm data, MPI_Comm control) : data_(data), control_(control) {}
  // Serves `process` until it sends End.
  void serve(int process);

 private:
  char* buffer(std::vector<char>& b, std::int64_t bytes);
  MPI_Comm data_, control_;
  std::vector<char> in_, out_;
};

}  // namespace p3s::replay
