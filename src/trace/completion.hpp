#pragma once
// Recording what completion calls (the wait and test families) completed.
#include <mpi.h>

#include "trace/tracer.hpp"

namespace p3s::trace {

// `handle` (its value before the call) completed in this call, with `status`: adds its request
// record to the event and forgets a non-persistent request. A receive's record names the
// actual source, tag and size. Requests the tracer did not see created (or whose creation it
// could not record), MPI_REQUEST_NULL and inactive persistent requests add nothing.
void record_completion(RecordedCall& call, MPI_Request handle, const MPI_Status& status);

}  // namespace p3s::trace
