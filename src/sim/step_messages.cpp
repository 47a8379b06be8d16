#include "sim/step_messages.hpp"

#include <limits>

namespace p3s::sim {
namespace {

using core::Op;

// The two halves of a Sendrecv, under request ids no trace uses.
constexpr std::int64_t kSendrecvSend = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kSendrecvRecv = kSendrecvSend + 1;

void send(const core::ProgramStep& s, MessagePort& port, std::uint64_t key, SendMode mode,
          bool blocking, std::int64_t req) {
  if (s.dst == core::kNone) return;  // MPI_PROC_NULL
  port.send(key, s.dst, s.tag, s.bytes, mode, blocking, req);
}

void receive(const core::ProgramStep& s, MessagePort& port, std::uint64_t key, bool blocking,
             std::int64_t req) {
  if (s.src == core::kNone) return;
  port.receive(key, s.src, s.rtag, s.rbytes, blocking, req);
}

void persistent(const core::ProgramStep& s, const core::RankProgram& program, MessagePort& port,
                std::uint64_t key) {
  if (s.op == Op::Start) {
    if (s.dst != core::kNone) return send(s, port, key, SendMode::Standard, false, s.req);
    return receive(s, port, key, false, s.req);
  }
  if (s.op != Op::Startall) return;  // send_init and recv_init only describe a request
  for (std::uint32_t i = 0; i < s.record_count; ++i) {
    const core::RequestRecord& r = program.records[s.first_record + i];
    if (r.peer == core::kNone) continue;
    if (r.send) {
      port.send(key, r.peer, r.tag, r.bytes, SendMode::Standard, false, r.req);
    } else {
      port.receive(key, r.peer, r.tag, r.bytes, false, r.req);
    }
  }
}

}  // namespace

void post_step_messages(const core::ProgramStep& s, const core::RankProgram& program,
                        MessagePort& port, std::uint64_t key) {
  if (core::op_kind(s.op) == core::OpKind::Persistent) return persistent(s, program, port, key);
  switch (s.op) {
    case Op::Send:
    case Op::Rsend:
      return send(s, port, key, SendMode::Standard, true, s.req);
    case Op::Bsend:
      return send(s, port, key, SendMode::Buffered, true, s.req);
    case Op::Ssend:
      return send(s, port, key, SendMode::Synchronous, true, s.req);
    case Op::Isend:
      return send(s, port, key, SendMode::Standard, false, s.req);
    case Op::Issend:
      return send(s, port, key, SendMode::Synchronous, false, s.req);
    case Op::Recv:
      return receive(s, port, key, true, s.req);
    case Op::Irecv:
      return receive(s, port, key, false, s.req);
    case Op::Sendrecv:
    case Op::SendrecvReplace:
      send(s, port, key, SendMode::Standard, false, kSendrecvSend);
      receive(s, port, key, false, kSendrecvRecv);
      port.complete(kSendrecvSend);
      port.complete(kSendrecvRecv);
      return;
    default:  // probes leave no trace on the network
      return;
  }
}

}  // namespace p3s::sim
