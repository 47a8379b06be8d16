// Fortran wrappers: blocking and non-blocking sends and receives, MPI_SENDRECV(_REPLACE),
// MPI_PROBE, MPI_IPROBE.
#include "trace/fortran_binding.hpp"
#include "trace/point_to_point.hpp"

using p3s::core::Op;
using p3s::trace::c_comm;
using p3s::trace::c_request;
using p3s::trace::c_type;
using p3s::trace::fortran_result;
using p3s::trace::FortranStatus;
using p3s::trace::RecordedCall;
using p3s::trace::should_record;

namespace {

template <typename PmpiSend>
void traced_send(Op op, PmpiSend pmpi_send, void* buf, MPI_Fint* count, MPI_Fint* type,
                 MPI_Fint* dest, MPI_Fint* tag, MPI_Fint* comm, MPI_Fint* ierr) {
  if (!should_record()) return pmpi_send(buf, count, type, dest, tag, comm, ierr);
  RecordedCall call(op);
  pmpi_send(buf, count, type, dest, tag, comm, ierr);
  if (fortran_result(ierr) == MPI_SUCCESS) {
    p3s::trace::record_send(call, *count, c_type(type), *dest, *tag, c_comm(comm));
  }
  call.commit(fortran_result(ierr));
}

template <typename PmpiIsend>
void traced_isend(Op op, PmpiIsend pmpi_isend, void* buf, MPI_Fint* count, MPI_Fint* type,
                  MPI_Fint* dest, MPI_Fint* tag, MPI_Fint* comm, MPI_Fint* request,
                  MPI_Fint* ierr) {
  if (!should_record()) return pmpi_isend(buf, count, type, dest, tag, comm, request, ierr);
  RecordedCall call(op);
  pmpi_isend(buf, count, type, dest, tag, comm, request, ierr);
  if (fortran_result(ierr) == MPI_SUCCESS) {
    p3s::trace::record_posted_send(call, *count, c_type(type), *dest, *tag, c_comm(comm),
                                   c_request(request), false);
  }
  call.commit(fortran_result(ierr));
}

}  // namespace

P3S_FORTRAN_WRAPPER(send, SEND,
                    (void* buf, MPI_Fint* count, MPI_Fint* type, MPI_Fint* dest, MPI_Fint* tag,
                     MPI_Fint* comm, MPI_Fint* ierr),
                    (buf, count, type, dest, tag, comm, ierr)) {
  traced_send(Op::Send, pmpi_send_, buf, count, type, dest, tag, comm, ierr);
}

P3S_FORTRAN_WRAPPER(ssend, SSEND,
                    (void* buf, MPI_Fint* count, MPI_Fint* type, MPI_Fint* dest, MPI_Fint* tag,
                     MPI_Fint* comm, MPI_Fint* ierr),
                    (buf, count, type, dest, tag, comm, ierr)) {
  traced_send(Op::Ssend, pmpi_ssend_, buf, count, type, dest, tag, comm, ierr);
}

P3S_FORTRAN_WRAPPER(bsend, BSEND,
                    (void* buf, MPI_Fint* count, MPI_Fint* type, MPI_Fint* dest, MPI_Fint* tag,
                     MPI_Fint* comm, MPI_Fint* ierr),
                    (buf, count, type, dest, tag, comm, ierr)) {
  traced_send(Op::Bsend, pmpi_bsend_, buf, count, type, dest, tag, comm, ierr);
}

P3S_FORTRAN_WRAPPER(rsend, RSEND,
                    (void* buf, MPI_Fint* count, MPI_Fint* type, MPI_Fint* dest, MPI_Fint* tag,
                     MPI_Fint* comm, MPI_Fint* ierr),
                    (buf, count, type, dest, tag, comm, ierr)) {
  traced_send(Op::Rsend, pmpi_rsend_, buf, count, type, dest, tag, comm, ierr);
}

P3S_FORTRAN_WRAPPER(isend, ISEND,
                    (void* buf, MPI_Fint* count, MPI_Fint* type, MPI_Fint* dest, MPI_Fint* tag,
                     MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr),
                    (buf, count, type, dest, tag, comm, request, ierr)) {
  traced_isend(Op::Isend, pmpi_isend_, buf, count, type, dest, tag, comm, request, ierr);
}

P3S_FORTRAN_WRAPPER(issend, ISSEND,
                    (void* buf, MPI_Fint* count, MPI_Fint* type, MPI_Fint* dest, MPI_Fint* tag,
                     MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr),
                    (buf, count, type, dest, tag, comm, request, ierr)) {
  traced_isend(Op::Issend, pmpi_issend_, buf, count, type, dest, tag, comm, request, ierr);
}

P3S_FORTRAN_WRAPPER(irecv, IRECV,
                    (void* buf, MPI_Fint* count, MPI_Fint* type, MPI_Fint* source, MPI_Fint* tag,
                     MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr),
                    (buf, count, type, source, tag, comm, request, ierr)) {
  if (!should_record()) return pmpi_irecv_(buf, count, type, source, tag, comm, request, ierr);
  RecordedCall call(Op::Irecv);
  pmpi_irecv_(buf, count, type, source, tag, comm, request, ierr);
  if (fortran_result(ierr) == MPI_SUCCESS) {
    p3s::trace::record_posted_receive(call, *count, c_type(type), *source, *tag, c_comm(comm),
                                      c_request(request), false);
  }
  call.commit(fortran_result(ierr));
}

P3S_FORTRAN_WRAPPER(recv, RECV,
                    (void* buf, MPI_Fint* count, MPI_Fint* type, MPI_Fint* source, MPI_Fint* tag,
                     MPI_Fint* comm, MPI_Fint* status, MPI_Fint* ierr),
                    (buf, count, type, source, tag, comm, status, ierr)) {
  if (!should_record()) return pmpi_recv_(buf, count, type, source, tag, comm, status, ierr);
  RecordedCall call(Op::Recv);
  FortranStatus own_status(status);
  pmpi_recv_(buf, count, type, source, tag, comm, own_status.get(), ierr);
  if (fortran_result(ierr) == MPI_SUCCESS) {
    p3s::trace::record_recv(call, *source, *tag, c_comm(comm), own_status.to_c());
  }
  call.commit(fortran_result(ierr));
}

P3S_FORTRAN_WRAPPER(sendrecv, SENDRECV,
                    (void* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, MPI_Fint* dest,
                     MPI_Fint* sendtag, void* recvbuf, MPI_Fint* recvcount, MPI_Fint* recvtype,
                     MPI_Fint* source, MPI_Fint* recvtag, MPI_Fint* comm, MPI_Fint* status,
                     MPI_Fint* ierr),
                    (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                     source, recvtag, comm, status, ierr)) {
  if (!should_record()) {
    return pmpi_sendrecv_(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                          source, recvtag, comm, status, ierr);
  }
  RecordedCall call(Op::Sendrecv);
  FortranStatus own_status(status);
  pmpi_sendrecv_(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                 recvtag, comm, own_status.get(), ierr);
  if (fortran_result(ierr) == MPI_SUCCESS) {
    p3s::trace::record_sendrecv(call, *sendcount, c_type(sendtype), *dest, *sendtag, *source,
                                *recvtag, c_comm(comm), own_status.to_c());
  }
  call.commit(fortran_result(ierr));
}

P3S_FORTRAN_WRAPPER(sendrecv_replace, SENDRECV_REPLACE,
                    (void* buf, MPI_Fint* count, MPI_Fint* type, MPI_Fint* dest, MPI_Fint* sendtag,
                     MPI_Fint* source, MPI_Fint* recvtag, MPI_Fint* comm, MPI_Fint* status,
                     MPI_Fint* ierr),
                    (buf, count, type, dest, sendtag, source, recvtag, comm, status, ierr)) {
  if (!should_record()) {
    return pmpi_sendrecv_replace_(buf, count, type, dest, sendtag, source, recvtag, comm, status,
                                  ierr);
  }
  RecordedCall call(Op::SendrecvReplace);
  FortranStatus own_status(status);
  pmpi_sendrecv_replace_(buf, count, type, dest, sendtag, source, recvtag, comm, own_status.get(),
                         ierr);
  if (fortran_result(ierr) == MPI_SUCCESS) {
    p3s::trace::record_sendrecv(call, *count, c_type(type), *dest, *sendtag, *source, *recvtag,
                                c_comm(comm), own_status.to_c());
  }
  call.commit(fortran_result(ierr));
}

P3S_FORTRAN_WRAPPER(probe, PROBE,
                    (MPI_Fint * source, MPI_Fint* tag, MPI_Fint* comm, MPI_Fint* status,
                     MPI_Fint* ierr),
                    (source, tag, comm, status, ierr)) {
  if (!should_record()) return pmpi_probe_(source, tag, comm, status, ierr);
  RecordedCall call(Op::Probe);
  FortranStatus own_status(status);
  pmpi_probe_(source, tag, comm, own_status.get(), ierr);
  if (fortran_result(ierr) == MPI_SUCCESS) {
    p3s::trace::record_probe(call, *source, *tag, c_comm(comm), true, own_status.to_c());
  }
  call.commit(fortran_result(ierr));
}

P3S_FORTRAN_WRAPPER(iprobe, IPROBE,
                    (MPI_Fint * source, MPI_Fint* tag, MPI_Fint* comm, MPI_Fint* flag,
                     MPI_Fint* status, MPI_Fint* ierr),
                    (source, tag, comm, flag, status, ierr)) {
  if (!should_record()) return pmpi_iprobe_(source, tag, comm, flag, status, ierr);
  RecordedCall call(Op::Iprobe);
  FortranStatus own_status(status);
  pmpi_iprobe_(source, tag, comm, flag, own_status.get(), ierr);
  if (fortran_result(ierr) == MPI_SUCCESS) {
    p3s::trace::record_probe(call, *source, *tag, c_comm(comm), *flag != 0, own_status.to_c());
  }
  call.commit(fortran_result(ierr));
}
