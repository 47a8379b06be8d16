#include "replay_mpi/control.hpp"

namespace p3s::replay {

void send_control(const Control& c, int process, MPI_Comm comm) {
  MPI_Send(&c, sizeof(Control), MPI_BYTE, process, kControlTag, comm);
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
