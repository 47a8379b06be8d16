#include "replay_mpi/control.hpp"

namespace p3s::replay {

void send_control(const Control& c, int process, MPI_Comm comm) {
  MPI_Send(&c, sizeof(Control), MPI_BYTE, process, kControlTag, comm);
}

// The counts, then the requests: a probe for the size would cost simulated time under SMPI
// (smpi/iprobe, 100 us by default).
void send_step_requests(const StepRequests& s, int process, MPI_Comm comm) {
  const std::int64_t counts[2] = {static_cast<std::int64_t>(s.requests.size()), s.repetitions};
  MPI_Send(counts, 2, MPI_INT64_T, process, kControlTag, comm);
  if (s.requests.empty()) return;
  MPI_Send(s.requests.data(), static_cast<int>(s.requests.size() * sizeof(Control)), MPI_BYTE,
           process, kControlTag, comm);
}

StepRequests receive_step_requests(int process, MPI_Comm comm) {
  std::int64_t counts[2] = {0, 0};
  MPI_Recv(counts, 2, MPI_INT64_T, process, kControlTag, comm, MPI_STATUS_IGNORE);
  StepRequests s;
  s.requests.resize(static_cast<std::size_t>(counts[0]));
  s.repetitions = counts[1];
  if (s.requests.empty()) return s;
  MPI_Recv(s.requests.data(), static_cast<int>(s.requests.size() * sizeof(Control)), MPI_BYTE,
           process, kControlTag, comm, MPI_STATUS_IGNORE);
  return s;
}

Control receive_control(int process, MPI_Comm comm) {
  Control c;
  MPI_Recv(&c, sizeof(Control), MPI_BYTE, process, kControlTag, comm, MPI_STATUS_IGNORE);
  return c;
}

void leave_together(MPI_Comm comm) {
  // A dissemination barrier: every member makes the same rounds of one message each, so all
  // leave at the same time (a linear or tree barrier lets its root or upper levels leave first).
  int self = 0, size = 1;
  MPI_Comm_rank(comm, &self);
  MPI_Comm_size(comm, &size);
  char token = 0, got = 0;
  for (int distance = 1; distance < size; distance *= 2) {
    MPI_Sendrecv(&token, 1, MPI_BYTE, (self + distance) % size, kSyncTag, &got, 1, MPI_BYTE,
                 (self - distance + size) % size, kSyncTag, comm, MPI_STATUS_IGNORE);
  }
}

}  // namespace p3s::replay
