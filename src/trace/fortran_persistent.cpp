// Fortran wrapper of MPI_REQUEST_FREE (the persistent-request calls are generated from the
// operation table: wrapped_point_to_point.cpp).
#include "trace/fortran_binding.hpp"
#include "trace/persistent.hpp"

using p3s::trace::c_request;
using p3s::trace::should_record;

P3S_FORTRAN_WRAPPER(request_free, REQUEST_FREE, (MPI_Fint * request, MPI_Fint* ierr),
                    (request, ierr)) {
  if (should_record()) p3s::trace::forget_request(c_request(request));
  pmpi_request_free_(request, ierr);
}
