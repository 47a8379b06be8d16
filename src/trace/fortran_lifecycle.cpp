// Fortran wrappers: MPI_INIT, MPI_INIT_THREAD, MPI_FINALIZE, MPI_ABORT.
#include "trace/fortran_binding.hpp"
#include "trace/tracer.hpp"

using p3s::core::Op;
using p3s::trace::fortran_result;
using p3s::trace::RecordedCall;
using p3s::trace::should_record;

P3S_FORTRAN_WRAPPER(init, INIT, (MPI_Fint * ierr), (ierr)) {
  pmpi_init_(ierr);
  if (fortran_result(ierr) == MPI_SUCCESS) p3s::trace::start_tracing(MPI_THREAD_SINGLE);
}

P3S_FORTRAN_WRAPPER(init_thread, INIT_THREAD,
                    (MPI_Fint * required, MPI_Fint* provided, MPI_Fint* ierr),
                    (required, provided, ierr)) {
  pmpi_init_thread_(required, provided, ierr);
  if (fortran_result(ierr) == MPI_SUCCESS) p3s::trace::start_tracing(*required);
}

P3S_FORTRAN_WRAPPER(finalize, FINALIZE, (MPI_Fint * ierr), (ierr)) {
  if (!should_record()) return pmpi_finalize_(ierr);
  {
    RecordedCall call(Op::Finalize);
    pmpi_finalize_(ierr);
    call.commit(fortran_result(ierr));
  }
  p3s::trace::end_tracing(p3s::core::TraceEnd::Complete);
}

P3S_FORTRAN_WRAPPER(abort, ABORT, (MPI_Fint * comm, MPI_Fint* errorcode, MPI_Fint* ierr),
                    (comm, errorcode, ierr)) {
  if (should_record()) p3s::trace::end_tracing(p3s::core::TraceEnd::Aborted);
  pmpi_abort_(comm, errorcode, ierr);
}
