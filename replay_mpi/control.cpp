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

}  // namespace p3s::replay
