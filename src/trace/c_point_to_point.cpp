// C wrappers: blocking and non-blocking sends and receives, Sendrecv(_replace), Probe, Iprobe.
#include <mpi.h>

#include "trace/exported.hpp"
#include "trace/point_to_point.hpp"

using p3s::core::Op;
using p3s::trace::RecordedCall;
using p3s::trace::should_record;

namespace {

// The blocking sends differ only in their MPI function.
template <typename SendFunction>
int traced_send(Op op, SendFunction send, const void* buf, int count, MPI_Datatype type, int dest,
                int tag, MPI_Comm comm) {
  if (!should_record()) return send(buf, count, type, dest, tag, comm);
  RecordedCall call(op);
  int result = send(buf, count, type, dest, tag, comm);
  if (result == MPI_SUCCESS) p3s::trace::record_send(call, count, type, dest, tag, comm);
  return call.commit(result);
}

template <typename IsendFunction>
int traced_isend(Op op, IsendFunction isend, const void* buf, int count, MPI_Datatype type,
                 int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  if (!should_record()) return isend(buf, count, type, dest, tag, comm, request);
  RecordedCall call(op);
  int result = isend(buf, count, type, dest, tag, comm, request);
  if (result == MPI_SUCCESS) {
    p3s::trace::record_posted_send(call, count, type, dest, tag, comm, *request, false);
  }
  return call.commit(result);
}

}  // namespace

extern "C" {

P3S_EXPORT int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag,
                        MPI_Comm comm) {
  return traced_send(Op::Send, PMPI_Send, buf, count, type, dest, tag, comm);
}

P3S_EXPORT int MPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag,
                         MPI_Comm comm) {
  return traced_send(Op::Ssend, PMPI_Ssend, buf, count, type, dest, tag, comm);
}

P3S_EXPORT int MPI_Bsend(const void* buf, int count, MPI_Datatype type, int dest, int tag,
                         MPI_Comm comm) {
  return traced_send(Op::Bsend, PMPI_Bsend, buf, count, type, dest, tag, comm);
}

P3S_EXPORT int MPI_Rsend(const void* buf, int count, MPI_Datatype type, int dest, int tag,
                         MPI_Comm comm) {
  return traced_send(Op::Rsend, PMPI_Rsend, buf, count, type, dest, tag, comm);
}

P3S_EXPORT int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag,
                         MPI_Comm comm, MPI_Request* request) {
  return traced_isend(Op::Isend, PMPI_Isend, buf, count, type, dest, tag, comm, request);
}

P3S_EXPORT int MPI_Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag,
                          MPI_Comm comm, MPI_Request* request) {
  return traced_isend(Op::Issend, PMPI_Issend, buf, count, type, dest, tag, comm, request);
}

P3S_EXPORT int MPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag,
                         MPI_Comm comm, MPI_Request* request) {
  if (!should_record()) return PMPI_Irecv(buf, count, type, source, tag, comm, request);
  RecordedCall call(Op::Irecv);
  int result = PMPI_Irecv(buf, count, type, source, tag, comm, request);
  if (result == MPI_SUCCESS) {
    p3s::trace::record_posted_receive(call, count, type, source, tag, comm, *request, false);
  }
  return call.commit(result);
}

P3S_EXPORT int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                        MPI_Status* status) {
  if (!should_record()) return PMPI_Recv(buf, count, type, source, tag, comm, status);
  RecordedCall call(Op::Recv);
  MPI_Status own_status;
  if (status == MPI_STATUS_IGNORE) status = &own_status;
  int result = PMPI_Recv(buf, count, type, source, tag, comm, status);
  if (result == MPI_SUCCESS) p3s::trace::record_recv(call, source, tag, comm, *status);
  return call.commit(result);
}

P3S_EXPORT int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                            int sendtag, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                            int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  if (!should_record()) {
    return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                         source, recvtag, comm, status);
  }
  RecordedCall call(Op::Sendrecv);
  MPI_Status own_status;
  if (status == MPI_STATUS_IGNORE) status = &own_status;
  int result = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                             recvtype, source, recvtag, comm, status);
  if (result == MPI_SUCCESS) {
    p3s::trace::record_sendrecv(call, sendcount, sendtype, dest, sendtag, source, recvtag, comm,
                                *status);
  }
  return call.commit(result);
}

P3S_EXPORT int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int sendtag,
                                    int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  if (!should_record()) {
    return PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, status);
  }
  RecordedCall call(Op::SendrecvReplace);
  MPI_Status own_status;
  if (status == MPI_STATUS_IGNORE) status = &own_status;
  int result =
      PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, status);
  if (result == MPI_SUCCESS) {
    p3s::trace::record_sendrecv(call, count, type, dest, sendtag, source, recvtag, comm, *status);
  }
  return call.commit(result);
}

P3S_EXPORT int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  if (!should_record()) return PMPI_Probe(source, tag, comm, status);
  RecordedCall call(Op::Probe);
  MPI_Status own_status;
  if (status == MPI_STATUS_IGNORE) status = &own_status;
  int result = PMPI_Probe(source, tag, comm, status);
  if (result == MPI_SUCCESS) p3s::trace::record_probe(call, source, tag, comm, true, *status);
  return call.commit(result);
}

P3S_EXPORT int MPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  if (!should_record()) return PMPI_Iprobe(source, tag, comm, flag, status);
  RecordedCall call(Op::Iprobe);
  MPI_Status own_status;
  if (status == MPI_STATUS_IGNORE) status = &own_status;
  int result = PMPI_Iprobe(source, tag, comm, flag, status);
  if (result == MPI_SUCCESS) {
    p3s::trace::record_probe(call, source, tag, comm, *flag != 0, *status);
  }
  return call.commit(result);
}

}  // extern "C"
