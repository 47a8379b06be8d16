#pragma once
// Black-hole noise (001 sec. 4): a pair of processes that, told so at each measured repetition,
// put messages in flight between them, so that the network carries about as many messages as
// the application's N ranks would (what the step sends itself is counted out; see README).
#include <mpi.h>

#include <vector>

namespace p3s::replay {

class NoisePair {
 public:
  NoisePair(MPI_Comm noise, MPI_Comm control) : noise_(noise), control_(control) {}
  // The sender: waits for Noise controls from `trigger` and sends that many messages to
  // `receiver`, until End, which it passes on.
  void send(int trigger, int receiver);
  // The receiver: takes messages from `sender` until the end marker.
  void receive(int sender);

 private:
  MPI_Comm noise_, control_;
  std::vector<char> buffer_;
  std::vector<MPI_Request> requests_;
};

}  // namespace p3s::replay
