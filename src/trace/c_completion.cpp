// C wrappers: the wait and test families. A completed request's handle is overwritten with
// MPI_REQUEST_NULL, so handles are copied before the call; statuses the program ignores are
// still needed (the actual source and size of a receive), so the tracer supplies its own.
#include <mpi.h>

#include <algorithm>
#include <cstddef>

#include "trace/completion.hpp"
#include "trace/exported.hpp"
#include "trace/scratch_array.hpp"

using p3s::core::Op;
using p3s::trace::kInlineRequests;
using p3s::trace::record_completion;
using p3s::trace::RecordedCall;
using p3s::trace::should_record;

namespace {

using HandleCopy = p3s::trace::ScratchArray<MPI_Request, kInlineRequests>;
using OwnStatuses = p3s::trace::ScratchArray<MPI_Status, kInlineRequests>;

std::size_t length(int count) {
  return count > 0 ? static_cast<std::size_t>(count) : 0;
}

void copy_handles(HandleCopy& copy, int count, const MPI_Request* requests) {
  std::copy_n(requests, length(count), copy.data());
}

// The statuses to pass to MPI: the program's, or ours when it passed MPI_STATUSES_IGNORE.
MPI_Status* statuses_to_use(MPI_Status* statuses, OwnStatuses& own) {
  return statuses == MPI_STATUSES_IGNORE ? own.data() : statuses;
}

std::size_t own_length(const MPI_Status* statuses, int count) {
  return statuses == MPI_STATUSES_IGNORE ? length(count) : 0;
}

}  // namespace

extern "C" {

P3S_EXPORT int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  if (!should_record()) return PMPI_Wait(request, status);
  RecordedCall call(Op::Wait);
  MPI_Request handle = *request;
  MPI_Status own_status;
  if (status == MPI_STATUS_IGNORE) status = &own_status;
  int result = PMPI_Wait(request, status);
  if (result == MPI_SUCCESS) record_completion(call, handle, *status);
  return call.commit(result);
}

P3S_EXPORT int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  if (!should_record()) return PMPI_Test(request, flag, status);
  RecordedCall call(Op::Test);
  MPI_Request handle = *request;
  MPI_Status own_status;
  if (status == MPI_STATUS_IGNORE) status = &own_status;
  int result = PMPI_Test(request, flag, status);
  if (result == MPI_SUCCESS && *flag != 0) record_completion(call, handle, *status);
  return call.commit(result);
}

P3S_EXPORT int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  if (!should_record()) return PMPI_Waitall(count, requests, statuses);
  RecordedCall call(Op::Waitall);
  HandleCopy handles(length(count));
  copy_handles(handles, count, requests);
  OwnStatuses own(own_length(statuses, count));
  statuses = statuses_to_use(statuses, own);
  int result = PMPI_Waitall(count, requests, statuses);
  if (result == MPI_SUCCESS) {
    for (std::size_t i = 0; i < length(count); ++i) {
      record_completion(call, handles[i], statuses[i]);
    }
  }
  return call.commit(result);
}

P3S_EXPORT int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  if (!should_record()) return PMPI_Testall(count, requests, flag, statuses);
  RecordedCall call(Op::Testall);
  HandleCopy handles(length(count));
  copy_handles(handles, count, requests);
  OwnStatuses own(own_length(statuses, count));
  statuses = statuses_to_use(statuses, own);
  int result = PMPI_Testall(count, requests, flag, statuses);
  if (result == MPI_SUCCESS && *flag != 0) {
    for (std::size_t i = 0; i < length(count); ++i) {
      record_completion(call, handles[i], statuses[i]);
    }
  }
  return call.commit(result);
}

P3S_EXPORT int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  if (!should_record()) return PMPI_Waitany(count, requests, index, status);
  RecordedCall call(Op::Waitany);
  HandleCopy handles(length(count));
  copy_handles(handles, count, requests);
  MPI_Status own_status;
  if (status == MPI_STATUS_IGNORE) status = &own_status;
  int result = PMPI_Waitany(count, requests, index, status);
  if (result == MPI_SUCCESS && *index != MPI_UNDEFINED) {
    record_completion(call, handles[static_cast<std::size_t>(*index)], *status);
  }
  return call.commit(result);
}

P3S_EXPORT int MPI_Testany(int count, MPI_Request requests[], int* index, int* flag,
                           MPI_Status* status) {
  if (!should_record()) return PMPI_Testany(count, requests, index, flag, status);
  RecordedCall call(Op::Testany);
  HandleCopy handles(length(count));
  copy_handles(handles, count, requests);
  MPI_Status own_status;
  if (status == MPI_STATUS_IGNORE) status = &own_status;
  int result = PMPI_Testany(count, requests, index, flag, status);
  if (result == MPI_SUCCESS && *flag != 0 && *index != MPI_UNDEFINED) {
    record_completion(call, handles[static_cast<std::size_t>(*index)], *status);
  }
  return call.commit(result);
}

P3S_EXPORT int MPI_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[],
                            MPI_Status statuses[]) {
  if (!should_record()) return PMPI_Waitsome(incount, requests, outcount, indices, statuses);
  RecordedCall call(Op::Waitsome);
  HandleCopy handles(length(incount));
  copy_handles(handles, incount, requests);
  OwnStatuses own(own_length(statuses, incount));
  statuses = statuses_to_use(statuses, own);
  int result = PMPI_Waitsome(incount, requests, outcount, indices, statuses);
  if (result == MPI_SUCCESS && *outcount != MPI_UNDEFINED) {
    for (std::size_t k = 0; k < length(*outcount); ++k) {
      record_completion(call, handles[static_cast<std::size_t>(indices[k])], statuses[k]);
    }
  }
  return call.commit(result);
}

P3S_EXPORT int MPI_Testsome(int incount, MPI_Request requests[], int* outcount, int indices[],
                            MPI_Status statuses[]) {
  if (!should_record()) return PMPI_Testsome(incount, requests, outcount, indices, statuses);
  RecordedCall call(Op::Testsome);
  HandleCopy handles(length(incount));
  copy_handles(handles, incount, requests);
  OwnStatuses own(own_length(statuses, incount));
  statuses = statuses_to_use(statuses, own);
  int result = PMPI_Testsome(incount, requests, outcount, indices, statuses);
  if (result == MPI_SUCCESS && *outcount != MPI_UNDEFINED) {
    for (std::size_t k = 0; k < length(*outcount); ++k) {
      record_completion(call, handles[static_cast<std::size_t>(indices[k])], statuses[k]);
    }
  }
  return call.commit(result);
}

}  // extern "C"
