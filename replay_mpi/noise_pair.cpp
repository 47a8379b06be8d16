#include "replay_mpi/noise_pair.hpp"

#include "replay_mpi/control.hpp"

namespace p3s::replay {

void NoisePair::send(int trigger, int receiver) {
  for (;;) {
    const Control c = receive_control(trigger, control_);
    if (c.kind == Control::End) {
      MPI_Send(nullptr, 0, MPI_BYTE, receiver, kNoiseEndTag, noise_);
      return;
    }
    if (static_cast<std::int64_t>(buffer_.size()) < c.send_bytes)
      buffer_.resize(static_cast<std::size_t>(c.send_bytes));
    requests_.resize(static_cast<std::size_t>(c.recv_bytes));
    for (MPI_Request& r : requests_)
      MPI_Isend(buffer_.data(), static_cast<int>(c.send_bytes), MPI_BYTE, receiver, kNoiseTag,
                noise_, &r);
    MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  }
}

void NoisePair::receive(int sender) {
  for (;;) {
    MPI_Status status;
    MPI_Probe(sender, MPI_ANY_TAG, noise_, &status);
    int bytes = 0;
    MPI_Get_count(&status, MPI_BYTE, &bytes);
    if (static_cast<int>(buffer_.size()) < bytes) buffer_.resize(static_cast<std::size_t>(bytes));
    MPI_Recv(buffer_.data(), bytes, MPI_BYTE, sender, status.MPI_TAG, noise_, MPI_STATUS_IGNORE);
    if (status.MPI_TAG == kNoiseEndTag) return;
  }
}

}  // namespace p3s::replay
