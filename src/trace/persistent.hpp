#pragma once
// Recording the start and the release of requests (Send_init and Recv_init are recorded as
// posted sends and receives, see point_to_point.hpp).
#include <mpi.h>

#include "trace/tracer.hpp"

namespace p3s::trace {

// Start: the event names the request and repeats the message of its init. A request the
// tracer did not see created (Bsend_init, Ssend_init, Rsend_init, ...) leaves the call
// unrecorded, since the trace could not say what it started.
void record_start(RecordedCall& call, MPI_Request request);
// One request of a Startall: adds its request record (requests the tracer did not see created
// are left out).
void record_started(RecordedCall& call, MPI_Request request);
// MPI_Request_free (not an event): the tracer forgets the request.
void forget_request(MPI_Request request);

}  // namespace p3s::trace
