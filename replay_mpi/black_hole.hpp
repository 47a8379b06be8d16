#pragma once
// A black hole (001 sec. 4): for one step it stands in for every rank its measurable process
// exchanges messages with that the step did not load, answering each control message with the
// message the absent peer would have sent (same size and tag) and receiving what the measurable
// process sends it, until the measurable process ends the step. It serves one measurable
// process per step (eq. 5), in the order that process asks, without waiting for one answer to
// complete before it takes the next request, as the absent ranks would not wait for each other.
#include <mpi.h>

#include <cstdint>
#include <deque>
#include <vector>

namespace p3s::replay {

class BlackHole {
 public:
  BlackHole(MPI_Comm data, MPI_Comm control) : data_(data), control_(control) {}
  // Serves `process` until it sends End.
  void serve(int process);

 private:
  void complete_all();
  MPI_Comm data_, control_;
  std::vector<char> out_;             // what it sends: any bytes
  std::deque<std::vector<char>> in_;  // one landing buffer per receive in flight
  std::vector<MPI_Request> requests_;
};

}  // namespace p3s::replay
