#include "trace/completion.hpp"

#include "trace/message_bytes.hpp"

namespace p3s::trace {

void record_completion(RecordedCall& call, MPI_Request handle, const MPI_Status& status) {
  if (handle == MPI_REQUEST_NULL) return;
  RequestTable& table = requests();
  RequestInfo* info = table.find(handle);
  if (info == nullptr || !info->active) return;
  core::RequestRecord record{.req = info->id,
                             .send = info->send,
                             .peer = info->peer,
                             .tag = info->tag,
                             .bytes = info->bytes};
  if (!info->send) {
    if (status.MPI_SOURCE == MPI_PROC_NULL) {
      record.peer = core::kNone;
      record.bytes = 0;
    } else {
      if (info->wildcard_peers) {
        const WorldRanks& peers = *info->wildcard_peers;
        auto source = static_cast<std::size_t>(status.MPI_SOURCE);
        record.peer = source < peers.size() ? peers[source] : core::kNone;
      }
      record.tag = status.MPI_TAG;
      record.bytes = received_bytes(status);
    }
  }
  call.event().requests.push_back(record);
  if (info->persistent) {
    info->active = false;
  } else {
    table.forget(handle);
  }
}

}  // namespace p3s::trace
