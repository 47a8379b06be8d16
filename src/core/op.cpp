#include "core/op.hpp"

#include <array>

namespace p3s::core {
namespace {

constexpr std::array<std::string_view, kOpCount> kNames = {"send",
                                                           "ssend",
                                                           "bsend",
                                                           "rsend",
                                                           "isend",
                                                           "issend",
                                                           "irecv",
                                                           "recv",
                                                           "sendrecv",
                                                           "sendrecv_replace",
                                                           "probe",
                                                           "iprobe",
                                                           "wait",
                                                           "waitall",
                                                           "waitany",
                                                           "waitsome",
                                                           "test",
                                                           "testall",
                                                           "testany",
                                                           "testsome",
                                                           "send_init",
                                                           "recv_init",
                                                           "start",
                                                           "startall",
                                                           "barrier",
                                                           "bcast",
                                                           "reduce",
                                                           "allreduce",
                                                           "gather",
                                                           "gatherv",
                                                           "scatter",
                                                           "scatterv",
                                                           "allgather",
                                                           "allgatherv",
                                                           "alltoall",
                                                           "alltoallv",
                                                           "alltoallw",
                                                           "reduce_scatter",
                                                           "reduce_scatter_block",
                                                           "scan",
                                                           "exscan",
                                                           "ibarrier",
                                                           "ibcast",
                                                           "ireduce",
                                                           "iallreduce",
                                                           "igather",
                                                           "igatherv",
                                                           "iscatter",
                                                           "iscatterv",
                                                           "iallgather",
                                                           "iallgatherv",
                                                           "ialltoall",
                                                           "ialltoallv",
                                                           "ialltoallw",
                                                           "ireduce_scatter",
                                                           "ireduce_scatter_block",
                                                           "iscan",
                                                           "iexscan",
                                                           "comm_split",
                                                           "comm_dup",
                                                           "comm_create",
                                                           "cart_create",
                                                           "cart_sub",
                                                           "dist_graph_create",
                                                           "finalize"};

bool in_range(Op op, Op first, Op last) {
  return op >= first && op <= last;
}

}  // namespace

std::string_view op_name(Op op) {
  return kNames[static_cast<std::size_t>(op)];
}

std::optional<Op> op_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name) return static_cast<Op>(i);
  }
  return std::nullopt;
}

OpKind op_kind(Op op) {
  if (in_range(op, Op::Send, Op::Iprobe)) return OpKind::PointToPoint;
  if (in_range(op, Op::Wait, Op::Testsome)) return OpKind::Completion;
  if (in_range(op, Op::SendInit, Op::Startall)) return OpKind::Persistent;
  if (in_range(op, Op::Barrier, Op::Iexscan)) return OpKind::Collective;
  if (in_range(op, Op::CommSplit, Op::DistGraphCreate)) return OpKind::CommCreate;
  return OpKind::Finalize;
}

bool is_nonblocking(Op op) {
  return op == Op::Isend || op == Op::Issend || op == Op::Irecv || op == Op::Start ||
         op == Op::Startall || in_range(op, Op::Ibarrier, Op::Iexscan);
}

Op blocking_form(Op op) {
  if (op < Op::Ibarrier || op > Op::Iexscan) return op;
  return static_cast<Op>(static_cast<int>(op) - static_cast<int>(Op::Ibarrier) +
                         static_cast<int>(Op::Barrier));
}

bool bytes_per_member(Op op, bool receive_side) {
  switch (blocking_form(op)) {
    case Op::Alltoall:
    case Op::Alltoallv:
    case Op::Alltoallw:
      return true;
    case Op::Gather:
    case Op::Gatherv:
    case Op::Allgather:
    case Op::Allgatherv:
      return receive_side;
    case Op::Scatter:
    case Op::Scatterv:
    case Op::ReduceScatter:
    case Op::ReduceScatterBlock:
      return !receive_side;
    default:
      return false;
  }
}

bool completes_one(Op op) {
  return op_kind(op) == OpKind::Completion && op != Op::Waitall && op != Op::Testall;
}

bool is_rooted(Op op) {
  switch (op) {
    case Op::Bcast:
    case Op::Reduce:
    case Op::Gather:
    case Op::Gatherv:
    case Op::Scatter:
    case Op::Scatterv:
    case Op::Ibcast:
    case Op::Ireduce:
    case Op::Igather:
    case Op::Igatherv:
    case Op::Iscatter:
    case Op::Iscatterv:
      return true;
    default:
      return false;
  }
}

}  // namespace p3s::core
