#include "trace/persistent.hpp"

namespace p3s::trace {

void record_start(RecordedCall& call, MPI_Request request) {
  RequestInfo* info = requests().find(request);
  if (info == nullptr) {
    call.discard();
    return;
  }
  info->active = true;
  core::Event& event = call.event();
  event.req = info->id;
  event.comm = info->comm;
  if (info->send) {
    event.dst = info->peer;
    event.tag = info->tag;
    event.bytes = info->bytes;
  } else {
    event.src = info->peer;
    event.rtag = info->tag;
    event.rbytes = info->bytes;
  }
}

void record_started(RecordedCall& call, MPI_Request request) {
  RequestInfo* info = requests().find(request);
  if (info == nullptr) return;
  info->active = true;
  call.event().requests.push_back(core::RequestRecord{.req = info->id,
                                                      .send = info->send,
                                                      .peer = info->peer,
                                                      .tag = info->tag,
                                                      .bytes = info->bytes});
}

void forget_request(MPI_Request request) {
  requests().forget(request);
}

}  // namespace p3s::trace
