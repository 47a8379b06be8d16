#include "replay_mpi/event_peers.hpp"

#include <algorithm>

namespace p3s::replay {
namespace {

using core::Op;

void add(std::int32_t peer, Unit& unit) {
  if (peer < 0) return;  // MPI_PROC_NULL, or a collective's request
  if (std::find(unit.begin(), unit.end(), peer) == unit.end()) unit.push_back(peer);
}

}  // namespace

void sent_messages(const core::RankProgram& program, const core::ProgramStep& call,
                   std::vector<std::pair<std::int32_t, std::int64_t>>& out) {
  switch (call.op) {
    case Op::Send:
    case Op::Ssend:
    case Op::Bsend:
    case Op::Rsend:
    case Op::Isend:
    case Op::Issend:
    case Op::Sendrecv:
    case Op::SendrecvReplace:
    case Op::Start:
      if (call.dst >= 0) out.emplace_back(call.dst, call.bytes);
      return;
    case Op::Startall:
      for (std::uint32_t i = 0; i < call.record_count; ++i) {
        const core::RequestRecord& r = program.records[call.first_record + i];
        if (r.send && r.peer >= 0) out.emplace_back(r.peer, r.bytes);
      }
      return;
    default:
      return;
  }
}

void received_peers(const core::RankProgram& program, const core::ProgramStep& call,
                    std::vector<std::int32_t>& out) {
  switch (core::op_kind(call.op)) {
    case core::OpKind::PointToPoint:
      // A blocking receive, or a sendrecv's receive half; an Irecv completes elsewhere.
      if (call.op == Op::Recv || call.op == Op::Sendrecv || call.op == Op::SendrecvReplace) {
        if (call.src >= 0) out.push_back(call.src);
      }
      return;
    case core::OpKind::Completion:
      for (std::uint32_t i = 0; i < call.record_count; ++i) {
        const core::RequestRecord& r = program.records[call.first_record + i];
        if (!r.send && r.peer >= 0) out.push_back(r.peer);
      }
      return;
    default:
      return;
  }
}

std::vector<std::int32_t> completion_peers(const core::RankProgram& program,
                                           const core::ProgramStep& call) {
  Unit peers;
  for (std::uint32_t i = 0; i < call.record_count; ++i)
    add(program.records[call.first_record + i].peer, peers);
  return peers;
}

void event_units(const core::RankProgram& program, const core::ProgramStep& call,
                 std::vector<Unit>& out) {
  Unit unit;
  switch (core::op_kind(call.op)) {
    case core::OpKind::PointToPoint:
      if (call.op != Op::Probe && call.op != Op::Iprobe) {
        add(call.dst, unit);
        add(call.src, unit);
      }
      break;
    case core::OpKind::Persistent:
      if (call.op == Op::Start) {
        add(call.dst, unit);
        add(call.src, unit);
      } else if (call.op == Op::Startall) {
        for (std::uint32_t i = 0; i < call.record_count; ++i)
          add(program.records[call.first_record + i].peer, unit);
      }
      break;
    case core::OpKind::Completion: {
      const Unit peers = completion_peers(program, call);
      for (const std::int32_t p : peers) out.push_back({p});
      if (!peers.empty()) return;
      break;
    }
    default:
      break;
  }
  out.push_back(std::move(unit));
}

}  // namespace p3s::replay
