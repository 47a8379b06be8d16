#include "core/rank_program.hpp"

#include <stdexcept>
#include <string>
#include <tuple>
#include <unordered_map>

namespace p3s::core {
namespace {

bool is_wildcard(std::int32_t src, std::int32_t rtag) {
  return src == kAnySource || rtag == kAnyTag;
}

}  // namespace

void check_per_peer_volume(const ProgramStep& s, int size) {
  bool splits_send = false, splits_receive = false;
  switch (s.op) {
    case Op::Alltoall:
    case Op::Ialltoall:
    case Op::Alltoallv:
    case Op::Ialltoallv:
    case Op::Alltoallw:
    case Op::Ialltoallw:
      splits_send = splits_receive = true;
      break;
    case Op::Scatter:
    case Op::Iscatter:
    case Op::Scatterv:
    case Op::Iscatterv:
      splits_send = true;
      break;
    case Op::Gather:
    case Op::Igather:
    case Op::Gatherv:
    case Op::Igatherv:
    case Op::Allgather:
    case Op::Iallgather:
    case Op::Allgatherv:
    case Op::Iallgatherv:
      splits_receive = true;
      break;
    default:
      return;
  }
  for (const auto& [splits, total, side] : {std::tuple{splits_send, s.bytes, "sends"},
                                            std::tuple{splits_receive, s.rbytes, "receives"}}) {
    if (splits && total > 0 && total < size) {
      throw std::invalid_argument(
          std::string(op_name(s.op)) + " " + side + " " + std::to_string(total) +
          " bytes in all among " + std::to_string(size) +
          " ranks: less than one byte per rank, which MPI cannot send (the model's volume at "
          "this N is below what it can mean: extrapolated too far?)");
    }
  }
}

RankProgram compile_rank_program(const std::vector<Event>& events, double cpu_speedup) {
  RankProgram program;
  program.steps.reserve(events.size());
  // Where each request's completion record says who its message came from.
  std::unordered_map<std::int64_t, const RequestRecord*> completion;
  for (const Event& e : events) {
    if (op_kind(e.op) != OpKind::Completion) continue;
    for (const RequestRecord& r : e.requests) completion.emplace(r.req, &r);
  }
  for (std::size_t i = 0; i < events.size(); ++i) {
    const Event& e = events[i];
    ProgramStep s;
    s.op = e.op;
    s.compute_seconds = static_cast<double>(e.burst_cpu) * 1e-9 / cpu_speedup;
    s.comm = e.comm;
    s.dst = e.dst, s.tag = e.tag, s.bytes = e.bytes;
    s.src = e.src, s.rtag = e.rtag, s.rbytes = e.rbytes;
    s.root = e.root;
    s.req = e.req;
    if (is_wildcard(s.src, s.rtag) && (e.op == Op::Irecv || e.op == Op::Recv ||
                                       e.op == Op::Sendrecv || e.op == Op::SendrecvReplace)) {
      auto found = e.op == Op::Irecv ? completion.find(e.req) : completion.end();
      if (found == completion.end()) {
        throw std::invalid_argument("event " + std::to_string(i) + " (" +
                                    std::string(op_name(e.op)) +
                                    ") receives from any source or tag and the trace does not say "
                                    "which message it got");
      }
      s.src = found->second->peer;
      s.rtag = found->second->tag;
    }
    s.first_record = static_cast<std::uint32_t>(program.records.size());
    s.record_count = static_cast<std::uint32_t>(e.requests.size());
    program.records.insert(program.records.end(), e.requests.begin(), e.requests.end());
    program.steps.push_back(s);
  }
  return program;
}

}  // namespace p3s::core
