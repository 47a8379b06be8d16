#pragma once
// A black hole (001 sec. 4): for one step it stands in for every rank its measurable process
// exchanges messages with that the step did not load. The measurable process tells it, as the
// step starts, what one repetition exchanges with them (control messages, Fig. 14 A, all at
// once) and how many repetitions the step plays; the black hole then posts every repetition's
// messages in call order, the absent peers' sends (same size and tag) and receives, and
// completes them when the measurable process ends the step. It serves one measurable process
// per step (eq. 5). Asked call by call instead, each of its messages would come a control
// message's latency after the receive was posted, which slows every chain of ranks a black
// hole feeds (a ring of sendrecvs, by a latency or two per repetition).
#include <mpi.h>

#include <cstdint>
#include <deque>
#include <vector>

#include "replay_mpi/control.hpp"

namespace p3s::replay {

class BlackHole {
 public:
  BlackHole(MPI_Comm data, MPI_Comm control) : data_(data), control_(control) {}
  // Serves `process` until it sends End.
  void serve(int process);

 private:
  void complete_all();
  void serve_request(int process, const Control& c);
  MPI_Comm data_, control_;
  std::vector<char> out_;             // what it sends: any bytes
  std::deque<std::vector<char>> in_;  // one landing buffer per receive in flight
  std::vector<MPI_Request> requests_;
};

}  // namespace p3s::replay
