// Fortran wrappers: the wait and test families. As in C, request handles are taken before the
// call frees them and ignored statuses are replaced by the tracer's own; Fortran indices
// (MPI_WAITANY, MPI_WAITSOME ...) count from 1.
#include "trace/completion.hpp"
#include "trace/fortran_binding.hpp"

using p3s::core::Op;
using p3s::trace::c_request;
using p3s::trace::CRequests;
using p3s::trace::fortran_length;
using p3s::trace::fortran_result;
using p3s::trace::FortranStatus;
using p3s::trace::FortranStatuses;
using p3s::trace::record_completion;
using p3s::trace::RecordedCall;
using p3s::trace::should_record;

namespace {

// The 0-based position of a Fortran index.
std::size_t position(MPI_Fint fortran_index) {
  return static_cast<std::size_t>(fortran_index - 1);
}

}  // namespace

P3S_FORTRAN_WRAPPER(wait, WAIT, (MPI_Fint * request, MPI_Fint* status, MPI_Fint* ierr),
                    (request, status, ierr)) {
  if (!should_record()) return pmpi_wait_(request, status, ierr);
  RecordedCall call(Op::Wait);
  MPI_Request handle = c_request(request);
  FortranStatus own_status(status);
  pmpi_wait_(request, own_status.get(), ierr);
  if (fortran_result(ierr) == MPI_SUCCESS) record_completion(call, handle, own_status.to_c());
  call.commit(fortran_result(ierr));
}

P3S_FORTRAN_WRAPPER(test, TEST,
                    (MPI_Fint * request, MPI_Fint* flag, MPI_Fint* status, MPI_Fint* ierr),
                    (request, flag, status, ierr)) {
  if (!should_record()) return pmpi_test_(request, flag, status, ierr);
  RecordedCall call(Op::Test);
  MPI_Request handle = c_request(request);
  FortranStatus own_status(status);
  pmpi_test_(request, flag, own_status.get(), ierr);
  if (fortran_result(ierr) == MPI_SUCCESS && *flag != 0) {
    record_completion(call, handle, own_status.to_c());
  }
  call.commit(fortran_result(ierr));
}

P3S_FORTRAN_WRAPPER(waitall, WAITALL,
                    (MPI_Fint * count, MPI_Fint* requests, MPI_Fint* statuses, MPI_Fint* ierr),
                    (count, requests, statuses, ierr)) {
  if (!should_record()) return pmpi_waitall_(count, requests, statuses, ierr);
  RecordedCall call(Op::Waitall);
  const std::size_t n = fortran_length(count);
  CRequests handles(requests, n);
  FortranStatuses own_statuses(statuses, n);
  pmpi_waitall_(count, requests, own_statuses.get(), ierr);
  if (fortran_result(ierr) == MPI_SUCCESS) {
    for (std::size_t i = 0; i < n; ++i) {
      record_completion(call, handles[i], own_statuses.to_c(i));
    }
  }
  call.commit(fortran_result(ierr));
}

P3S_FORTRAN_WRAPPER(testall, TESTALL,
                    (MPI_Fint * count, MPI_Fint* requests, MPI_Fint* flag, MPI_Fint* statuses,
                     MPI_Fint* ierr),
                    (count, requests, flag, statuses, ierr)) {
  if (!should_record()) return pmpi_testall_(count, requests, flag, statuses, ierr);
  RecordedCall call(Op::Testall);
  const std::size_t n = fortran_length(count);
  CRequests handles(requests, n);
  FortranStatuses own_statuses(statuses, n);
  pmpi_testall_(count, requests, flag, own_statuses.get(), ierr);
  if (fortran_result(ierr) == MPI_SUCCESS && *flag != 0) {
    for (std::size_t i = 0; i < n; ++i) {
      record_completion(call, handles[i], own_statuses.to_c(i));
    }
  }
  call.commit(fortran_result(ierr));
}

P3S_FORTRAN_WRAPPER(waitany, WAITANY,
                    (MPI_Fint * count, MPI_Fint* requests, MPI_Fint* index, MPI_Fint* status,
                     MPI_Fint* ierr),
                    (count, requests, index, status, ierr)) {
  if (!should_record()) return pmpi_waitany_(count, requests, index, status, ierr);
  RecordedCall call(Op::Waitany);
  CRequests handles(requests, fortran_length(count));
  FortranStatus own_status(status);
  pmpi_waitany_(count, requests, index, own_status.get(), ierr);
  if (fortran_result(ierr) == MPI_SUCCESS && *index != MPI_UNDEFINED) {
    record_completion(call, handles[position(*index)], own_status.to_c());
  }
  call.commit(fortran_result(ierr));
}

P3S_FORTRAN_WRAPPER(testany, TESTANY,
                    (MPI_Fint * count, MPI_Fint* requests, MPI_Fint* index, MPI_Fint* flag,
                     MPI_Fint* status, MPI_Fint* ierr),
                    (count, requests, index, flag, status, ierr)) {
  if (!should_record()) return pmpi_testany_(count, requests, index, flag, status, ierr);
  RecordedCall call(Op::Testany);
  CRequests handles(requests, fortran_length(count));
  FortranStatus own_status(status);
  pmpi_testany_(count, requests, index, flag, own_status.get(), ierr);
  if (fortran_result(ierr) == MPI_SUCCESS && *flag != 0 && *index != MPI_UNDEFINED) {
    record_completion(call, handles[position(*index)], own_status.to_c());
  }
  call.commit(fortran_result(ierr));
}

P3S_FORTRAN_WRAPPER(waitsome, WAITSOME,
                    (MPI_Fint * incount, MPI_Fint* requests, MPI_Fint* outcount, MPI_Fint* indices,
                     MPI_Fint* statuses, MPI_Fint* ierr),
                    (incount, requests, outcount, indices, statuses, ierr)) {
  if (!should_record()) return pmpi_waitsome_(incount, requests, outcount, indices, statuses, ierr);
  RecordedCall call(Op::Waitsome);
  const std::size_t n = fortran_length(incount);
  CRequests handles(requests, n);
  FortranStatuses own_statuses(statuses, n);
  pmpi_waitsome_(incount, requests, outcount, indices, own_statuses.get(), ierr);
  if (fortran_result(ierr) == MPI_SUCCESS && *outcount != MPI_UNDEFINED) {
    for (std::size_t k = 0; k < fortran_length(outcount); ++k) {
      record_completion(call, handles[position(indices[k])], own_statuses.to_c(k));
    }
  }
  call.commit(fortran_result(ierr));
}

P3S_FORTRAN_WRAPPER(testsome, TESTSOME,
                    (MPI_Fint * incount, MPI_Fint* requests, MPI_Fint* outcount, MPI_Fint* indices,
                     MPI_Fint* statuses, MPI_Fint* ierr),
                    (incount, requests, outcount, indices, statuses, ierr)) {
  if (!should_record()) return pmpi_testsome_(incount, requests, outcount, indices, statuses, ierr);
  RecordedCall call(Op::Testsome);
  const std::size_t n = fortran_length(incount);
  CRequests handles(requests, n);
  FortranStatuses own_statuses(statuses, n);
  pmpi_testsome_(incount, requests, outcount, indices, own_statuses.get(), ierr);
  if (fortran_result(ierr) == MPI_SUCCESS && *outcount != MPI_UNDEFINED) {
    for (std::size_t k = 0; k < fortran_length(outcount); ++k) {
      record_completion(call, handles[position(indices[k])], own_statuses.to_c(k));
    }
  }
  call.commit(fortran_result(ierr));
}
