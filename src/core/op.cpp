#include "core/op.hpp"

#include <iterator>

namespace p3s::core {
namespace {

// Which side of a collective counts its bytes per member of the communicator (see
// bytes_per_member), named after the table's byte rules (trace/collectives.hpp): a rule
// describes both the counting and this.
enum class PerMember { Neither, Send, Receive, Both };
constexpr PerMember kPerMember_none = PerMember::Neither;
constexpr PerMember kPerMember_buffer = PerMember::Neither;
constexpr PerMember kPerMember_gather = PerMember::Receive;
constexpr PerMember kPerMember_gatherv = PerMember::Receive;
constexpr PerMember kPerMember_allgather = PerMember::Receive;
constexpr PerMember kPerMember_allgatherv = PerMember::Receive;
constexpr PerMember kPerMember_scatter = PerMember::Send;
constexpr PerMember kPerMember_scatterv = PerMember::Send;
constexpr PerMember kPerMember_reduce_scatter = PerMember::Send;
constexpr PerMember kPerMember_reduce_scatter_block = PerMember::Send;
constexpr PerMember kPerMember_alltoall = PerMember::Both;
constexpr PerMember kPerMember_alltoallv = PerMember::Both;
constexpr PerMember kPerMember_alltoallw = PerMember::Both;

// What the table says of one op; kOps[i] describes the Op whose value is i.
struct OpInfo {
  Op op;
  std::string_view name;
  OpKind kind;
  bool nonblocking = false;
  bool rooted = false;
  Op blocking;
  std::string_view ti;
  PerMember per_member = PerMember::Neither;
};

#define P3S_WRAPPED_INFO(kind, Enum, lower, CName, UPPER, nonblocking, ...) \
  OpInfo{Op::Enum, #lower, kind, nonblocking, false, Op::Enum, {}},
#define P3S_POINT_TO_POINT_INFO(...) P3S_WRAPPED_INFO(OpKind::PointToPoint, __VA_ARGS__)
#define P3S_PERSISTENT_INFO(...) P3S_WRAPPED_INFO(OpKind::Persistent, __VA_ARGS__)
#define P3S_BLOCKING_INFO(Enum, IEnum, lower, CName, UPPER, rooted, bytes, ti, ...) \
  OpInfo{Op::Enum, #lower, OpKind::Collective, false, rooted, Op::Enum, ti, kPerMember_##bytes},
#define P3S_NONBLOCKING_INFO(Enum, IEnum, lower, CName, UPPER, rooted, bytes, ti, ...) \
  OpInfo{Op::IEnum, "i" #lower, OpKind::Collective, true, rooted, Op::Enum, ti, kPerMember_##bytes},
#define P3S_HAND_WRITTEN_INFO(kind, Enum, lower) \
  OpInfo{Op::Enum, #lower, kind, false, false, Op::Enum, {}},
#define P3S_COMPLETION_INFO(...) P3S_HAND_WRITTEN_INFO(OpKind::Completion, __VA_ARGS__)
#define P3S_COMM_CREATE_INFO(...) P3S_HAND_WRITTEN_INFO(OpKind::CommCreate, __VA_ARGS__)
#define P3S_FINALIZE_INFO(...) P3S_HAND_WRITTEN_INFO(OpKind::Finalize, __VA_ARGS__)

// clang-format off
constexpr OpInfo kOps[] = {
  P3S_POINT_TO_POINT_OPS(P3S_POINT_TO_POINT_INFO)
  P3S_COMPLETION_OPS(P3S_COMPLETION_INFO)
  P3S_PERSISTENT_OPS(P3S_PERSISTENT_INFO)
  P3S_COLLECTIVE_OPS(P3S_BLOCKING_INFO)
  P3S_COLLECTIVE_OPS(P3S_NONBLOCKING_INFO)
  P3S_COMM_CREATE_OPS(P3S_COMM_CREATE_INFO)
  P3S_FINALIZE_OPS(P3S_FINALIZE_INFO)
};
// clang-format on

// The enum and this table come from the same lists in the same order; checked anyway, with
// the names: present and each used once (op_from_name reads the first).
constexpr bool table_matches_enum() {
  if (std::size(kOps) != static_cast<std::size_t>(kOpCount)) return false;
  for (std::size_t i = 0; i < std::size(kOps); ++i) {
    if (static_cast<std::size_t>(kOps[i].op) != i || kOps[i].name.empty()) return false;
    for (std::size_t j = 0; j < i; ++j) {
      if (kOps[j].name == kOps[i].name) return false;
    }
  }
  return true;
}
static_assert(table_matches_enum(), "core/op_table.hpp: an op out of order or a name twice");

const OpInfo& info(Op op) {
  return kOps[static_cast<std::size_t>(op)];
}

}  // namespace

std::string_view op_name(Op op) {
  return info(op).name;
}

std::optional<Op> op_from_name(std::string_view name) {
  for (const OpInfo& row : kOps) {
    if (row.name == name) return row.op;
  }
  return std::nullopt;
}

OpKind op_kind(Op op) {
  return info(op).kind;
}

bool is_point_to_point(Op op) {
  return op_kind(op) == OpKind::PointToPoint;
}

bool is_nonblocking(Op op) {
  return info(op).nonblocking;
}

bool is_rooted(Op op) {
  return info(op).rooted;
}

Op blocking_form(Op op) {
  return info(op).blocking;
}

std::string_view ti_action_name(Op op) {
  return info(op).ti;
}

bool bytes_per_member(Op op, bool receive_side) {
  switch (info(op).per_member) {
    case PerMember::Both:
      return true;
    case PerMember::Receive:
      return receive_side;
    case PerMember::Send:
      return !receive_side;
    case PerMember::Neither:
      return false;
  }
  return false;
}

bool completes_one(Op op) {
  return op_kind(op) == OpKind::Completion && op != Op::Waitall && op != Op::Testall;
}

}  // namespace p3s::core
