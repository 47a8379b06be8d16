// C wrappers: communicator and topology creation, and MPI_Comm_free.
#include <mpi.h>

#include <algorithm>

#include "trace/communicator_creation.hpp"
#include "trace/exported.hpp"

using p3s::core::Op;
using p3s::trace::RecordedCall;
using p3s::trace::should_record;

namespace {

// Runs `create` (which fills *created) as a recorded call of `op` on `parent`.
template <typename Create>
int traced_creation(Op op, MPI_Comm parent, MPI_Comm* created, Create create) {
  if (!should_record()) return create();
  RecordedCall call(op);
  int result = create();
  if (result == MPI_SUCCESS) p3s::trace::record_communicator_created(call, parent, *created);
  return call.commit(result);
}

}  // namespace

extern "C" {

P3S_EXPORT int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  return traced_creation(Op::CommSplit, comm, newcomm,
                         [&] { return PMPI_Comm_split(comm, color, key, newcomm); });
}

P3S_EXPORT int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  return traced_creation(Op::CommDup, comm, newcomm, [&] { return PMPI_Comm_dup(comm, newcomm); });
}

P3S_EXPORT int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
  return traced_creation(Op::CommCreate, comm, newcomm,
                         [&] { return PMPI_Comm_create(comm, group, newcomm); });
}

P3S_EXPORT int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[],
                               int reorder, MPI_Comm* comm_cart) {
  return traced_creation(Op::CartCreate, comm, comm_cart, [&] {
    return PMPI_Cart_create(comm, ndims, dims, periods, reorder, comm_cart);
  });
}

P3S_EXPORT int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm) {
  return traced_creation(Op::CartSub, comm, newcomm,
                         [&] { return PMPI_Cart_sub(comm, remain_dims, newcomm); });
}

P3S_EXPORT int MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[], const int degrees[],
                                     const int destinations[], const int weights[], MPI_Info info,
                                     int reorder, MPI_Comm* newcomm) {
  return traced_creation(Op::DistGraphCreate, comm, newcomm, [&] {
    return PMPI_Dist_graph_create(comm, n, sources, degrees, destinations, weights, info, reorder,
                                  newcomm);
  });
}

// Not an event: the given extents are kept before MPI fills them in, and the call written as a
// dims_create line when it succeeds.
P3S_EXPORT int MPI_Dims_create(int nnodes, int ndims, int dims[]) {
  if (!should_record() || ndims < 1 || ndims > 16) return PMPI_Dims_create(nnodes, ndims, dims);
  int given[16];
  std::copy(dims, dims + ndims, given);
  const int result = PMPI_Dims_create(nnodes, ndims, dims);
  if (result == MPI_SUCCESS) p3s::trace::record_dims_create(nnodes, ndims, given, dims);
  return result;
}

P3S_EXPORT int MPI_Comm_free(MPI_Comm* comm) {
  if (should_record()) p3s::trace::forget_communicator(*comm);
  return PMPI_Comm_free(comm);
}

}  // extern "C"
