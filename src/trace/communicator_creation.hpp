#pragma once
// Recording calls that create communicators, and forgetting freed ones.
#include <mpi.h>

#include "trace/tracer.hpp"

namespace p3s::trace {

// Comm_split, Comm_dup, Comm_create, Cart_create, Cart_sub, Dist_graph_create: the new
// communicator's comm line precedes the event, whose COMM is the parent and REQ the new id
// (-1 where this rank got MPI_COMM_NULL).
void record_communicator_created(RecordedCall& call, MPI_Comm parent, MPI_Comm created);
// MPI_Comm_free (not an event): Open MPI may hand the same handle to a later communicator.
void forget_communicator(MPI_Comm comm);

}  // namespace p3s::trace
