#include "replay_mpi/collective_call.hpp"

#include <algorithm>
#include <stdexcept>
#include <tuple>

namespace p3s::replay {
namespace {

using core::Op;

int count(std::int64_t bytes) {
  return static_cast<int>(std::max<std::int64_t>(bytes, 0));
}

}  // namespace

bool CollectiveShape::operator<(const CollectiveShape& o) const {
  return std::tie(op, bytes, rbytes, members) < std::tie(o.op, o.bytes, o.rbytes, o.members);
}

std::string CollectiveShape::describe() const {
  return std::string(core::op_name(op)) + " of " + std::to_string(bytes) + "/" +
         std::to_string(rbytes) + " bytes over " + std::to_string(members) + " ranks";
}

bool is_replayed_collective(Op op) {
  return core::op_kind(op) == core::OpKind::Collective;
}

char* CollectiveCall::buffer(std::vector<char>& b, std::int64_t bytes) {
  if (static_cast<std::int64_t>(b.size()) < bytes) b.resize(static_cast<std::size_t>(bytes));
  return b.empty() ? nullptr : b.data();
}

void CollectiveCall::run(const CollectiveShape& s, MPI_Comm comm, int root) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  const std::int64_t largest = std::max(s.bytes, s.rbytes);
  // An all-to-all's BYTES is the sum over its N destinations: each pair exchanges BYTES / N.
  const std::int64_t per_peer_out = s.members > 0 ? s.bytes / s.members : s.bytes;
  // A non-blocking collective runs as its blocking form, where it is started.
  switch (core::blocking_form(s.op)) {
    case Op::Barrier:
      MPI_Barrier(comm);
      return;
    case Op::Bcast:
      MPI_Bcast(buffer(send_, largest), count(largest), MPI_BYTE, root, comm);
      return;
    case Op::Reduce:
      MPI_Reduce(buffer(send_, largest), buffer(recv_, largest), count(largest), MPI_BYTE, MPI_BOR,
                 root, comm);
      return;
    case Op::Allreduce:
      MPI_Allreduce(buffer(send_, largest), buffer(recv_, largest), count(largest), MPI_BYTE,
                    MPI_BOR, comm);
      return;
    case Op::Scan:
      MPI_Scan(buffer(send_, largest), buffer(recv_, largest), count(largest), MPI_BYTE, MPI_BOR,
               comm);
      return;
    case Op::Exscan:
      MPI_Exscan(buffer(send_, largest), buffer(recv_, largest), count(largest), MPI_BYTE, MPI_BOR,
                 comm);
      return;
    case Op::Gather:
    case Op::Gatherv:
      MPI_Gather(buffer(send_, s.bytes), count(s.bytes), MPI_BYTE, buffer(recv_, s.bytes * size),
                 count(s.bytes), MPI_BYTE, root, comm);
      return;
    case Op::Scatter:
    case Op::Scatterv:
      MPI_Scatter(buffer(send_, s.rbytes * size), count(s.rbytes), MPI_BYTE,
                  buffer(recv_, s.rbytes), count(s.rbytes), MPI_BYTE, root, comm);
      return;
    case Op::Allgather:
    case Op::Allgatherv:
      MPI_Allgather(buffer(send_, s.bytes), count(s.bytes), MPI_BYTE, buffer(recv_, s.bytes * size),
                    count(s.bytes), MPI_BYTE, comm);
      return;
    case Op::Alltoall:
    case Op::Alltoallv:
    case Op::Alltoallw:
      MPI_Alltoall(buffer(send_, per_peer_out * size), count(per_peer_out), MPI_BYTE,
                   buffer(recv_, per_peer_out * size), count(per_peer_out), MPI_BYTE, comm);
      return;
    case Op::ReduceScatter:
    case Op::ReduceScatterBlock:
      MPI_Reduce_scatter_block(buffer(send_, s.rbytes * size), buffer(recv_, s.rbytes),
                               count(s.rbytes), MPI_BYTE, MPI_BOR, comm);
      return;
    default:
      throw std::invalid_argument(std::string(core::op_name(s.op)) + " is not a collective");
  }
}

}  // namespace p3s::replay
