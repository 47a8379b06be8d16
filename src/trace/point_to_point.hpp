#pragma once
// Recording point-to-point calls, shared by the C and Fortran wrappers (which pass C handles).
#include <mpi.h>

#include "trace/tracer.hpp"

namespace p3s::trace {

// Send, Ssend, Bsend, Rsend.
void record_send(RecordedCall& call, int count, MPI_Datatype type, int dest, int tag,
                 MPI_Comm comm);
// Isend, Issend and Send_init: the send, and the request it created. A persistent request
// stays inactive until started.
void record_posted_send(RecordedCall& call, int count, MPI_Datatype type, int dest, int tag,
                        MPI_Comm comm, MPI_Request request, bool persistent);
// Irecv and Recv_init: the receive as posted (a wildcard source is core::kAnySource until its
// completion names it), and its request.
void record_posted_receive(RecordedCall& call, int count, MPI_Datatype type, int source, int tag,
                           MPI_Comm comm, MPI_Request request, bool persistent);
// Recv: the message that arrived, from the status.
void record_recv(RecordedCall& call, int source, int tag, MPI_Comm comm, const MPI_Status& status);
// Sendrecv and Sendrecv_replace.
void record_sendrecv(RecordedCall& call, int sendcount, MPI_Datatype sendtype, int dest,
                     int sendtag, int source, int recvtag, MPI_Comm comm, const MPI_Status& status);
// Probe, and Iprobe: the message found (from the status), or when none was the pattern
// probed for, with 0 bytes.
void record_probe(RecordedCall& call, int source, int tag, MPI_Comm comm, bool found,
                  const MPI_Status& status);

}  // namespace p3s::trace
