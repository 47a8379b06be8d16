#pragma once
// Recording collective calls, blocking and non-blocking, shared by the C and Fortran wrappers.
#include <mpi.h>

#include "trace/handle_array.hpp"
#include "trace/tracer.hpp"

namespace p3s::trace {

// The arguments of a collective that decide who takes part and how many bytes move, as C
// handles. Wrappers set what their call has; arguments MPI does not read on this rank (the
// receive side of a non-root Gather, say) are not read here either, so dummies are safe.
struct CollectiveArgs {
  MPI_Comm comm = MPI_COMM_NULL;
  int root = MPI_PROC_NULL;    // rooted collectives (an intercommunicator's MPI_ROOT too)
  bool send_in_place = false;  // the send buffer was MPI_IN_PLACE
  bool recv_in_place = false;  // the receive buffer was MPI_IN_PLACE (Scatter(v) at the root)
  // One buffer: Bcast, Reduce, Allreduce, Scan, Exscan, Reduce_scatter_block (its recvcount);
  // Reduce_scatter has `type` and `recvcounts`.
  int count = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  // Gather(v), Scatter(v), Allgather(v), Alltoall(v,w).
  int sendcount = 0;
  const int* sendcounts = nullptr;
  MPI_Datatype sendtype = MPI_DATATYPE_NULL;
  TypeArray sendtypes{};
  int recvcount = 0;
  const int* recvcounts = nullptr;
  MPI_Datatype recvtype = MPI_DATATYPE_NULL;
  TypeArray recvtypes{};
};

// BYTES is what this rank contributes and RBYTES what it gets: Bcast, Reduce, Allreduce, Scan
// and Exscan the buffer on every rank; Gather(v) the send buffer, and at the root the sum
// received; Scatter(v) at the root the sum sent, and the receive buffer; Allgather(v) the send
// buffer and the sum received; Alltoall(v,w) the sums over destinations and sources;
// Reduce_scatter(_block) the whole vector and this rank's block. With MPI_IN_PLACE the
// in-place block counts. The root is written as a world rank.
//
// Intercommunicators: counts per peer range over the remote group, the root group's MPI_ROOT
// is this rank, and its other members (MPI_PROC_NULL) move nothing.
void record_collective(RecordedCall& call, const CollectiveArgs& args);
// The same for the non-blocking forms, and the request they created; its completion record
// is a send ("s") with no peer and this rank's BYTES.
void record_nonblocking_collective(RecordedCall& call, const CollectiveArgs& args,
                                   MPI_Request request);

}  // namespace p3s::trace
