// Fortran wrappers: communicator and topology creation, and MPI_COMM_FREE.
#include "trace/communicator_creation.hpp"
#include "trace/fortran_binding.hpp"

using p3s::core::Op;
using p3s::trace::c_comm;
using p3s::trace::fortran_result;
using p3s::trace::RecordedCall;
using p3s::trace::should_record;

namespace {

// Runs `create` (which makes the call and returns its result) as a recorded call of `op` on
// `parent`, which leaves the new communicator in *created.
template <typename Create>
void traced_creation(Op op, const MPI_Fint* parent, const MPI_Fint* created, Create create) {
  if (!should_record()) {
    create();
    return;
  }
  RecordedCall call(op);
  int result = create();
  if (result == MPI_SUCCESS) {
    p3s::trace::record_communicator_created(call, c_comm(parent), c_comm(created));
  }
  call.commit(result);
}

}  // namespace

P3S_FORTRAN_WRAPPER(comm_split, COMM_SPLIT,
                    (MPI_Fint * comm, MPI_Fint* color, MPI_Fint* key, MPI_Fint* newcomm,
                     MPI_Fint* ierr),
                    (comm, color, key, newcomm, ierr)) {
  traced_creation(Op::CommSplit, comm, newcomm, [&] {
    pmpi_comm_split_(comm, color, key, newcomm, ierr);
    return fortran_result(ierr);
  });
}

P3S_FORTRAN_WRAPPER(comm_dup, COMM_DUP, (MPI_Fint * comm, MPI_Fint* newcomm, MPI_Fint* ierr),
                    (comm, newcomm, ierr)) {
  traced_creation(Op::CommDup, comm, newcomm, [&] {
    pmpi_comm_dup_(comm, newcomm, ierr);
    return fortran_result(ierr);
  });
}

P3S_FORTRAN_WRAPPER(comm_create, COMM_CREATE,
                    (MPI_Fint * comm, MPI_Fint* group, MPI_Fint* newcomm, MPI_Fint* ierr),
                    (comm, group, newcomm, ierr)) {
  traced_creation(Op::CommCreate, comm, newcomm, [&] {
    pmpi_comm_create_(comm, group, newcomm, ierr);
    return fortran_result(ierr);
  });
}

P3S_FORTRAN_WRAPPER(cart_create, CART_CREATE,
                    (MPI_Fint * comm, MPI_Fint* ndims, MPI_Fint* dims, MPI_Fint* periods,
                     MPI_Fint* reorder, MPI_Fint* comm_cart, MPI_Fint* ierr),
                    (comm, ndims, dims, periods, reorder, comm_cart, ierr)) {
  traced_creation(Op::CartCreate, comm, comm_cart, [&] {
    pmpi_cart_create_(comm, ndims, dims, periods, reorder, comm_cart, ierr);
    return fortran_result(ierr);
  });
}

P3S_FORTRAN_WRAPPER(cart_sub, CART_SUB,
                    (MPI_Fint * comm, MPI_Fint* remain_dims, MPI_Fint* newcomm, MPI_Fint* ierr),
                    (comm, remain_dims, newcomm, ierr)) {
  traced_creation(Op::CartSub, comm, newcomm, [&] {
    pmpi_cart_sub_(comm, remain_dims, newcomm, ierr);
    return fortran_result(ierr);
  });
}

P3S_FORTRAN_WRAPPER(dist_graph_create, DIST_GRAPH_CREATE,
                    (MPI_Fint * comm, MPI_Fint* n, MPI_Fint* sources, MPI_Fint* degrees,
                     MPI_Fint* destinations, MPI_Fint* weights, MPI_Fint* info, MPI_Fint* reorder,
                     MPI_Fint* newcomm, MPI_Fint* ierr),
                    (comm, n, sources, degrees, destinations, weights, info, reorder, newcomm,
                     ierr)) {
  traced_creation(Op::DistGraphCreate, comm, newcomm, [&] {
    pmpi_dist_graph_create_(comm, n, sources, degrees, destinations, weights, info, reorder,
                            newcomm, ierr);
    return fortran_result(ierr);
  });
}

P3S_FORTRAN_WRAPPER(comm_free, COMM_FREE, (MPI_Fint * comm, MPI_Fint* ierr), (comm, ierr)) {
  if (should_record()) p3s::trace::forget_communicator(c_comm(comm));
  pmpi_comm_free_(comm, ierr);
}

// Not an event: the given extents are kept before MPI fills them in, and the call written as a
// dims_create line when it succeeds.
P3S_FORTRAN_WRAPPER(dims_create, DIMS_CREATE,
                    (MPI_Fint * nnodes, MPI_Fint* ndims, MPI_Fint* dims, MPI_Fint* ierr),
                    (nnodes, ndims, dims, ierr)) {
  if (!should_record() || *ndims < 1 || *ndims > 16) {
    pmpi_dims_create_(nnodes, ndims, dims, ierr);
    return;
  }
  int given[16], chosen[16];
  for (MPI_Fint k = 0; k < *ndims; ++k) given[k] = static_cast<int>(dims[k]);
  pmpi_dims_create_(nnodes, ndims, dims, ierr);
  if (fortran_result(ierr) != MPI_SUCCESS) return;
  for (MPI_Fint k = 0; k < *ndims; ++k) chosen[k] = static_cast<int>(dims[k]);
  p3s::trace::record_dims_create(static_cast<int>(*nnodes), static_cast<int>(*ndims), given,
                                 chosen);
}
