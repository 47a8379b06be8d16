// C wrapper of MPI_Request_free (the persistent-request calls are generated from the operation
// table: wrapped_point_to_point.cpp).
#include <mpi.h>

#include "trace/exported.hpp"
#include "trace/persistent.hpp"

using p3s::trace::should_record;

extern "C" {

P3S_EXPORT int MPI_Request_free(MPI_Request* request) {
  // Called on the tracer's thread only: the request table is not shared between threads.
  if (should_record()) p3s::trace::forget_request(*request);
  return PMPI_Request_free(request);
}

}  // extern "C"
