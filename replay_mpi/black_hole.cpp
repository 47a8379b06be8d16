#include "replay_mpi/black_hole.hpp"

#include "replay_mpi/control.hpp"

namespace p3s::replay {

char* BlackHole::buffer(std::vector<char>& b, std::int64_t bytes) {
  if (static_cast<std::int64_t>(b.size()) < bytes) b.resize(static_cast<std::size_t>(bytes));
  return b.empty() ? nullptr : b.data();
}

void BlackHole::serve(int process) {
  for (;;) {
    const Control c = receive_control(process, control_);
    if (c.kind == Control::End) return;
    MPI_Request requests[2];
    int n = 0;
    if (c.recv_bytes >= 0) {
      MPI_Irecv(buffer(in_, c.recv_bytes), static_cast<int>(c.recv_bytes), MPI_BYTE, process,
                c.recv_tag, data_, &requests[n++]);
    }
    if (c.send_bytes >= 0) {
      MPI_Isend(buffer(out_, c.send_bytes), static_cast<int>(c.send_bytes), MPI_BYTE, process,
                c.send_tag, data_, &requests[n++]);
    }
    MPI_Waitall(n, requests, MPI_STATUSES_IGNORE);
  }
}

}  // namespace p3s::replay
