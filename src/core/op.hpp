#pragma once
// The MPI operations a trace records, with their names in the trace format.
#include <cstdint>
#include <optional>
#include <string_view>

namespace p3s::core {

enum class Op : std::uint8_t {
  // point-to-point
  Send,
  Ssend,
  Bsend,
  Rsend,
  Isend,
  Issend,
  Irecv,
  Recv,
  Sendrecv,
  SendrecvReplace,
  Probe,
  Iprobe,
  // completion
  Wait,
  Waitall,
  Waitany,
  Waitsome,
  Test,
  Testall,
  Testany,
  Testsome,
  // persistent requests
  SendInit,
  RecvInit,
  Start,
  Startall,
  // blocking collectives
  Barrier,
  Bcast,
  Reduce,
  Allreduce,
  Gather,
  Gatherv,
  Scatter,
  Scatterv,
  Allgather,
  Allgatherv,
  Alltoall,
  Alltoallv,
  Alltoallw,
  ReduceScatter,
  ReduceScatterBlock,
  Scan,
  Exscan,
  // non-blocking collectives
  Ibarrier,
  Ibcast,
  Ireduce,
  Iallreduce,
  Igather,
  Igatherv,
  Iscatter,
  Iscatterv,
  Iallgather,
  Iallgatherv,
  Ialltoall,
  Ialltoallv,
  Ialltoallw,
  IreduceScatter,
  IreduceScatterBlock,
  Iscan,
  Iexscan,
  // communicator and topology creation
  CommSplit,
  CommDup,
  CommCreate,
  CartCreate,
  CartSub,
  DistGraphCreate,
  // program end (its burst is the compute after the last MPI call)
  Finalize,
};

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
// True for calls that return before their communication completes (a request is created).
bool is_nonblocking(Op op);
// True for collectives with a root argument.
bool is_rooted(Op op);
// The blocking collective of a non-blocking one (ibcast: bcast); any other op itself.
Op blocking_form(Op op);
// True when a collective's bytes on that side are one block per member of its communicator
// (an alltoall's both sides, a gather's receive side at the root, a reduce_scatter's send
// side): they grow with the communicator, not with what each member contributes.
bool bytes_per_member(Op op, bool receive_side);
// True for the completions that finish one request of those pending (wait, waitany, test,
// testany) or a timing-dependent number of them (waitsome, testsome), not all (waitall,
// testall).
bool completes_one(Op op);

}  // namespace p3s::core
