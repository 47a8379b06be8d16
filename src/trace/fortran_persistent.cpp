// Fortran wrappers: persistent requests (MPI_SEND_INIT, MPI_RECV_INIT, MPI_START,
// MPI_STARTALL) and MPI_REQUEST_FREE.
#include "trace/fortran_binding.hpp"
#include "trace/persistent.hpp"
#include "trace/point_to_point.hpp"

using p3s::core::Op;
using p3s::trace::c_comm;
using p3s::trace::c_request;
using p3s::trace::c_type;
using p3s::trace::fortran_length;
using p3s::trace::fortran_result;
using p3s::trace::RecordedCall;
using p3s::trace::should_record;

P3S_FORTRAN_WRAPPER(send_init, SEND_INIT,
                    (void* buf, MPI_Fint* count, MPI_Fint* type, MPI_Fint* dest, MPI_Fint* tag,
                     MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr),
                    (buf, count, type, dest, tag, comm, request, ierr)) {
  if (!should_record()) return pmpi_send_init_(buf, count, type, dest, tag, comm, request, ierr);
  RecordedCall call(Op::SendInit);
  pmpi_send_init_(buf, count, type, dest, tag, comm, request, ierr);
  if (fortran_result(ierr) == MPI_SUCCESS) {
    p3s::trace::record_posted_send(call, *count, c_type(type), *dest, *tag, c_comm(comm),
                                   c_request(request), true);
  }
  call.commit(fortran_result(ierr));
}

P3S_FORTRAN_WRAPPER(recv_init, RECV_INIT,
                    (void* buf, MPI_Fint* count, MPI_Fint* type, MPI_Fint* source, MPI_Fint* tag,
                     MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr),
                    (buf, count, type, source, tag, comm, request, ierr)) {
  if (!should_record()) return pmpi_recv_init_(buf, count, type, source, tag, comm, request, ierr);
  RecordedCall call(Op::RecvInit);
  pmpi_recv_init_(buf, count, type, source, tag, comm, request, ierr);
  if (fortran_result(ierr) == MPI_SUCCESS) {
    p3s::trace::record_posted_receive(call, *count, c_type(type), *source, *tag, c_comm(comm),
                                      c_request(request), true);
  }
  call.commit(fortran_result(ierr));
}

P3S_FORTRAN_WRAPPER(start, START, (MPI_Fint * request, MPI_Fint* ierr), (request, ierr)) {
  if (!should_record()) return pmpi_start_(request, ierr);
  RecordedCall call(Op::Start);
  pmpi_start_(request, ierr);
  if (fortran_result(ierr) == MPI_SUCCESS) p3s::trace::record_start(call, c_request(request));
  call.commit(fortran_result(ierr));
}

P3S_FORTRAN_WRAPPER(startall, STARTALL, (MPI_Fint * count, MPI_Fint* requests, MPI_Fint* ierr),
                    (count, requests, ierr)) {
  if (!should_record()) return pmpi_startall_(count, requests, ierr);
  RecordedCall call(Op::Startall);
  pmpi_startall_(count, requests, ierr);
  if (fortran_result(ierr) == MPI_SUCCESS) {
    for (std::size_t i = 0; i < fortran_length(count); ++i) {
      p3s::trace::record_started(call, c_request(&requests[i]));
    }
  }
  call.commit(fortran_result(ierr));
}

P3S_FORTRAN_WRAPPER(request_free, REQUEST_FREE, (MPI_Fint * request, MPI_Fint* ierr),
                    (request, ierr)) {
  if (should_record()) p3s::trace::forget_request(c_request(request));
  pmpi_request_free_(request, ierr);
}
