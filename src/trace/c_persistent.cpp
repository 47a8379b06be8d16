// C wrappers: persistent requests (Send_init, Recv_init, Start, Startall) and Request_free.
#include <mpi.h>

#include "trace/exported.hpp"
#include "trace/persistent.hpp"
#include "trace/point_to_point.hpp"

using p3s::core::Op;
using p3s::trace::RecordedCall;
using p3s::trace::should_record;

extern "C" {

P3S_EXPORT int MPI_Send_init(const void* buf, int count, MPI_Datatype type, int dest, int tag,
                             MPI_Comm comm, MPI_Request* request) {
  if (!should_record()) return PMPI_Send_init(buf, count, type, dest, tag, comm, request);
  RecordedCall call(Op::SendInit);
  int result = PMPI_Send_init(buf, count, type, dest, tag, comm, request);
  if (result == MPI_SUCCESS) {
    p3s::trace::record_posted_send(call, count, type, dest, tag, comm, *request, true);
  }
  return call.commit(result);
}

P3S_EXPORT int MPI_Recv_init(void* buf, int count, MPI_Datatype type, int source, int tag,
                             MPI_Comm comm, MPI_Request* request) {
  if (!should_record()) return PMPI_Recv_init(buf, count, type, source, tag, comm, request);
  RecordedCall call(Op::RecvInit);
  int result = PMPI_Recv_init(buf, count, type, source, tag, comm, request);
  if (result == MPI_SUCCESS) {
    p3s::trace::record_posted_receive(call, count, type, source, tag, comm, *request, true);
  }
  return call.commit(result);
}

P3S_EXPORT int MPI_Start(MPI_Request* request) {
  if (!should_record()) return PMPI_Start(request);
  RecordedCall call(Op::Start);
  int result = PMPI_Start(request);
  if (result == MPI_SUCCESS) p3s::trace::record_start(call, *request);
  return call.commit(result);
}

P3S_EXPORT int MPI_Startall(int count, MPI_Request requests[]) {
  if (!should_record()) return PMPI_Startall(count, requests);
  RecordedCall call(Op::Startall);
  int result = PMPI_Startall(count, requests);
  if (result == MPI_SUCCESS) {
    for (int i = 0; i < count; ++i) p3s::trace::record_started(call, requests[i]);
  }
  return call.commit(result);
}

P3S_EXPORT int MPI_Request_free(MPI_Request* request) {
  // Called on the tracer's thread only: the request table is not shared between threads.
  if (should_record()) p3s::trace::forget_request(*request);
  return PMPI_Request_free(request);
}

}  // extern "C"
