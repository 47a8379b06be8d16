#include "trace/point_to_point.hpp"

#include "trace/message_bytes.hpp"

namespace p3s::trace {
namespace {

void set_send_side(core::Event& event, const CommunicatorInfo& comm, int count, MPI_Datatype type,
                   int dest, int tag) {
  event.comm = comm.id;
  event.dst = comm.world_rank(dest);
  event.tag = tag;
  // A send to MPI_PROC_NULL is still a call, but moves no data.
  event.bytes = dest == MPI_PROC_NULL ? 0 : message_bytes(count, type);
}

// The receive side of a completed receive: who sent it, with which tag and how much.
void set_received(core::Event& event, const CommunicatorInfo& comm, int source, int tag,
                  const MPI_Status& status) {
  event.comm = comm.id;
  if (source == MPI_PROC_NULL || status.MPI_SOURCE == MPI_PROC_NULL) {
    event.src = core::kNone;
    event.rtag = receive_tag(tag);
    event.rbytes = 0;
    return;
  }
  event.src = comm.world_rank(status.MPI_SOURCE);
  event.rtag = status.MPI_TAG;
  event.rbytes = received_bytes(status);
}

}  // namespace

void record_send(RecordedCall& call, int count, MPI_Datatype type, int dest, int tag,
                 MPI_Comm comm) {
  set_send_side(call.event(), call.communicator(comm), count, type, dest, tag);
}

void record_posted_send(RecordedCall& call, int count, MPI_Datatype type, int dest, int tag,
                        MPI_Comm comm, MPI_Request request, bool persistent) {
  core::Event& event = call.event();
  const CommunicatorInfo& info = call.communicator(comm);
  set_send_side(event, info, count, type, dest, tag);
  if (!info.recordable) return;
  event.req = requests().add(request, RequestInfo{.send = true,
                                                  .persistent = persistent,
                                                  .active = !persistent,
                                                  .comm = event.comm,
                                                  .peer = event.dst,
                                                  .tag = event.tag,
                                                  .bytes = event.bytes});
}

void record_posted_receive(RecordedCall& call, int count, MPI_Datatype type, int source, int tag,
                           MPI_Comm comm, MPI_Request request, bool persistent) {
  core::Event& event = call.event();
  const CommunicatorInfo& info = call.communicator(comm);
  event.comm = info.id;
  event.src = info.world_rank(source);
  event.rtag = receive_tag(tag);
  event.rbytes = source == MPI_PROC_NULL ? 0 : message_bytes(count, type);
  RequestInfo request_info{.send = false,
                           .persistent = persistent,
                           .active = !persistent,
                           .comm = event.comm,
                           .peer = event.src,
                           .tag = event.rtag,
                           .bytes = event.rbytes};
  if (!info.recordable) return;
  if (source == MPI_ANY_SOURCE) request_info.wildcard_peers = info.peers;
  event.req = requests().add(request, std::move(request_info));
}

void record_recv(RecordedCall& call, int source, int tag, MPI_Comm comm, const MPI_Status& status) {
  set_received(call.event(), call.communicator(comm), source, tag, status);
}

void record_sendrecv(RecordedCall& call, int sendcount, MPI_Datatype sendtype, int dest,
                     int sendtag, int source, int recvtag, MPI_Comm comm,
                     const MPI_Status& status) {
  const CommunicatorInfo& info = call.communicator(comm);
  set_send_side(call.event(), info, sendcount, sendtype, dest, sendtag);
  set_received(call.event(), info, source, recvtag, status);
}

void record_probe(RecordedCall& call, int source, int tag, MPI_Comm comm, bool found,
                  const MPI_Status& status) {
  core::Event& event = call.event();
  const CommunicatorInfo& info = call.communicator(comm);
  if (found) {
    set_received(event, info, source, tag, status);
    return;
  }
  event.comm = info.id;
  event.src = info.world_rank(source);
  event.rtag = receive_tag(tag);
}

}  // namespace p3s::trace
