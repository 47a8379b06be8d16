#pragma once
// The MPI operations a trace records, with their names in the trace format (from the
// operation table, core/op_table.hpp).
#include <cstdint>
#include <optional>
#include <string_view>

#include "core/op_table.hpp"

namespace p3s::core {

// The enum follows the table's order: point-to-point, completion, persistent, blocking then
// non-blocking collectives, communicator creation, finalize.
#define P3S_OP_ENUM(Enum, ...) Enum,
#define P3S_OP_ENUM_NONBLOCKING(Enum, IEnum, ...) IEnum,
// clang-format off
enum class Op : std::uint8_t {
  P3S_POINT_TO_POINT_OPS(P3S_OP_ENUM)
  P3S_COMPLETION_OPS(P3S_OP_ENUM)
  P3S_PERSISTENT_OPS(P3S_OP_ENUM)
  P3S_COLLECTIVE_OPS(P3S_OP_ENUM)
  P3S_COLLECTIVE_OPS(P3S_OP_ENUM_NONBLOCKING)
  P3S_COMM_CREATE_OPS(P3S_OP_ENUM)
  P3S_FINALIZE_OPS(P3S_OP_ENUM)
};
// clang-format on
#undef P3S_OP_ENUM
#undef P3S_OP_ENUM_NONBLOCKING

inline constexpr int kOpCount = static_cast<int>(Op::Finalize) + 1;

enum class OpKind : std::uint8_t {
  PointToPoint,
  Completion,
  Persistent,
  Collective,
  CommCreate,
  Finalize
};

std::string_view op_name(Op op);
std::optional<Op> op_from_name(std::string_view name);
OpKind op_kind(Op op);
// True for point-to-point calls (sends, receives, sendrecv, probes), not persistent ones.
bool is_point_to_point(Op op);
// True for calls that return before their communication completes (a request is created).
bool is_nonblocking(Op op);
// True for collectives with a root argument.
bool is_rooted(Op op);
// The blocking collective of a non-blocking one (ibcast: bcast); any other op itself.
Op blocking_form(Op op);
// The SimGrid TI action of a collective (its blocking form's: ibcast is bcast), empty for
// other ops and for collectives TI traces cannot express (alltoallw).
std::string_view ti_action_name(Op op);
// True when a collective's bytes on that side are one block per member of its communicator
// (an alltoall's both sides, a gather's receive side at the root, a reduce_scatter's send
// side): they grow with the communicator, not with what each member contributes.
bool bytes_per_member(Op op, bool receive_side);
// True for the completions that finish one request of those pending (wait, waitany, test,
// testany) or a timing-dependent number of them (waitsome, testsome), not all (waitall,
// testall).
bool completes_one(Op op);

}  // namespace p3s::core
