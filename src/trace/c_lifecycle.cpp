// C wrappers: MPI_Init, MPI_Init_thread, MPI_Finalize, MPI_Abort.
#include <mpi.h>

#include "trace/exported.hpp"
#include "trace/tracer.hpp"

using p3s::trace::RecordedCall;
using p3s::trace::should_record;

extern "C" {

P3S_EXPORT int MPI_Init(int* argc, char*** argv) {
  int result = PMPI_Init(argc, argv);
  if (result == MPI_SUCCESS) p3s::trace::start_tracing(MPI_THREAD_SINGLE);
  return result;
}

P3S_EXPORT int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  int result = PMPI_Init_thread(argc, argv, required, provided);
  if (result == MPI_SUCCESS) p3s::trace::start_tracing(required);
  return result;
}

P3S_EXPORT int MPI_Finalize() {
  if (!should_record()) return PMPI_Finalize();
  int result;
  {
    RecordedCall call(p3s::core::Op::Finalize);
    result = call.commit(PMPI_Finalize());
  }
  p3s::trace::end_tracing(p3s::core::TraceEnd::Complete);
  return result;
}

P3S_EXPORT int MPI_Abort(MPI_Comm comm, int errorcode) {
  if (should_record()) p3s::trace::end_tracing(p3s::core::TraceEnd::Aborted);
  return PMPI_Abort(comm, errorcode);
}

}  // extern "C"
