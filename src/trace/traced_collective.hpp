#pragma once
// The shape every collective wrapper shares, C or Fortran: run the MPI call as a recorded call
// and describe it from its arguments.
#include <mpi.h>

#include "trace/collectives.hpp"

namespace p3s::trace {

// `mpi_call` makes the real call and returns its result; `describe` returns the
// CollectiveArgs, and runs only when the call is recorded.
template <typename MpiCall, typename Describe>
int traced_collective(core::Op op, MpiCall mpi_call, Describe describe) {
  if (!should_record()) return mpi_call();
  RecordedCall call(op);
  int result = mpi_call();
  if (result == MPI_SUCCESS) record_collective(call, describe());
  return call.commit(result);
}

// The same for a non-blocking collective; `created_request` returns, after the call, the C
// handle of the request it created.
template <typename MpiCall, typename Describe, typename CreatedRequest>
int traced_nonblocking_collective(core::Op op, MpiCall mpi_call, Describe describe,
                                  CreatedRequest created_request) {
  if (!should_record()) return mpi_call();
  RecordedCall call(op);
  int result = mpi_call();
  if (result == MPI_SUCCESS) record_nonblocking_collective(call, describe(), created_request());
  return call.commit(result);
}

}  // namespace p3s::trace
