#include "trace/collectives.hpp"

#include <array>
#include <cstddef>

#include "trace/message_bytes.hpp"

namespace p3s::trace {
namespace {

using core::Op;

using core::blocking_form;

// This rank's part in a rooted collective.
enum class Role { Root, NonRoot, Idle };

Role role_of(int root, const CommunicatorInfo& comm) {
  if (!comm.inter) return root == comm.my_rank ? Role::Root : Role::NonRoot;
  if (root == MPI_ROOT) return Role::Root;
  return root == MPI_PROC_NULL ? Role::Idle : Role::NonRoot;
}

std::int32_t root_world_rank(int root, const CommunicatorInfo& comm) {
  if (comm.inter && root == MPI_ROOT) return comm.my_world_rank;
  return comm.world_rank(root);
}

std::int64_t sum_bytes(const int* counts, MPI_Datatype type, int n) {
  std::int64_t elements = 0;
  for (int i = 0; i < n; ++i) elements += counts[i] > 0 ? counts[i] : 0;
  return elements * type_bytes(type);
}

std::int64_t sum_bytes(const int* counts, const TypeArray& types, int n) {
  std::int64_t bytes = 0;
  for (int i = 0; i < n; ++i) bytes += message_bytes(counts[i], types[i]);
  return bytes;
}

struct Sizes {
  std::int64_t bytes = 0;
  std::int64_t rbytes = 0;
};

Sizes gather_sizes(const CollectiveArgs& a, const CommunicatorInfo& comm, Role role, bool v) {
  Sizes sizes;
  const int n = comm.peer_count();
  const bool root = role == Role::Root;
  // An intercommunicator's root only receives; the idle members of its group do nothing.
  const bool sends = role == Role::NonRoot || (root && !comm.inter);
  if (sends) {
    if (root && a.send_in_place) {
      sizes.bytes = v ? message_bytes(a.recvcounts[comm.my_rank], a.recvtype)
                      : message_bytes(a.recvcount, a.recvtype);
    } else {
      sizes.bytes = message_bytes(a.sendcount, a.sendtype);
    }
  }
  if (root) {
    sizes.rbytes =
        v ? sum_bytes(a.recvcounts, a.recvtype, n) : message_bytes(a.recvcount, a.recvtype) * n;
  }
  return sizes;
}

Sizes scatter_sizes(const CollectiveArgs& a, const CommunicatorInfo& comm, Role role, bool v) {
  Sizes sizes;
  const int n = comm.peer_count();
  const bool root = role == Role::Root;
  const bool receives = role == Role::NonRoot || (root && !comm.inter);
  if (root) {
    sizes.bytes =
        v ? sum_bytes(a.sendcounts, a.sendtype, n) : message_bytes(a.sendcount, a.sendtype) * n;
  }
  if (receives) {
    if (root && a.recv_in_place) {
      sizes.rbytes = v ? message_bytes(a.sendcounts[comm.my_rank], a.sendtype)
                       : message_bytes(a.sendcount, a.sendtype);
    } else {
      sizes.rbytes = message_bytes(a.recvcount, a.recvtype);
    }
  }
  return sizes;
}

// The byte rules the operation table names (its `bytes` column), one per way a collective's
// arguments say what moves.
Sizes bytes_none(const CollectiveArgs&, const CommunicatorInfo&, Role) {
  return {};
}

Sizes bytes_buffer(const CollectiveArgs& a, const CommunicatorInfo&, Role role) {
  if (role == Role::Idle) return {};
  std::int64_t buffer = message_bytes(a.count, a.type);
  return {buffer, buffer};
}

Sizes bytes_gather(const CollectiveArgs& a, const CommunicatorInfo& comm, Role role) {
  return gather_sizes(a, comm, role, false);
}

Sizes bytes_gatherv(const CollectiveArgs& a, const CommunicatorInfo& comm, Role role) {
  return gather_sizes(a, comm, role, true);
}

Sizes bytes_scatter(const CollectiveArgs& a, const CommunicatorInfo& comm, Role role) {
  return scatter_sizes(a, comm, role, false);
}

Sizes bytes_scatterv(const CollectiveArgs& a, const CommunicatorInfo& comm, Role role) {
  return scatter_sizes(a, comm, role, true);
}

Sizes bytes_allgather(const CollectiveArgs& a, const CommunicatorInfo& comm, Role) {
  std::int64_t block = message_bytes(a.recvcount, a.recvtype);
  return {a.send_in_place ? block : message_bytes(a.sendcount, a.sendtype),
          block * comm.peer_count()};
}

Sizes bytes_allgatherv(const CollectiveArgs& a, const CommunicatorInfo& comm, Role) {
  std::int64_t own = a.send_in_place ? message_bytes(a.recvcounts[comm.my_rank], a.recvtype)
                                     : message_bytes(a.sendcount, a.sendtype);
  return {own, sum_bytes(a.recvcounts, a.recvtype, comm.peer_count())};
}

Sizes bytes_alltoall(const CollectiveArgs& a, const CommunicatorInfo& comm, Role) {
  const int n = comm.peer_count();
  std::int64_t received = message_bytes(a.recvcount, a.recvtype) * n;
  return {a.send_in_place ? received : message_bytes(a.sendcount, a.sendtype) * n, received};
}

Sizes bytes_alltoallv(const CollectiveArgs& a, const CommunicatorInfo& comm, Role) {
  const int n = comm.peer_count();
  std::int64_t received = sum_bytes(a.recvcounts, a.recvtype, n);
  return {a.send_in_place ? received : sum_bytes(a.sendcounts, a.sendtype, n), received};
}

Sizes bytes_alltoallw(const CollectiveArgs& a, const CommunicatorInfo& comm, Role) {
  const int n = comm.peer_count();
  std::int64_t received = sum_bytes(a.recvcounts, a.recvtypes, n);
  return {a.send_in_place ? received : sum_bytes(a.sendcounts, a.sendtypes, n), received};
}

// The reduction runs over this rank's own group, so its counts do too.
Sizes bytes_reduce_scatter(const CollectiveArgs& a, const CommunicatorInfo& comm, Role) {
  return {sum_bytes(a.recvcounts, a.type, comm.local_size),
          message_bytes(a.recvcounts[comm.my_rank], a.type)};
}

Sizes bytes_reduce_scatter_block(const CollectiveArgs& a, const CommunicatorInfo& comm, Role) {
  std::int64_t block = message_bytes(a.count, a.type);
  return {block * comm.local_size, block};
}

using ByteRule = Sizes (*)(const CollectiveArgs&, const CommunicatorInfo&, Role);

// Each blocking collective's byte rule by Op, from the operation table (null for the other
// operations). A table rather than a switch: the collectives that share a rule would be cases
// with identical bodies.
constexpr std::array<ByteRule, core::kOpCount> kByteRules = [] {
  std::array<ByteRule, core::kOpCount> rules{};
#define P3S_BYTE_RULE(Enum, IEnum, lower, CName, UPPER, rooted, bytes, ...) \
  rules[static_cast<std::size_t>(Op::Enum)] = bytes_##bytes;
  P3S_COLLECTIVE_OPS(P3S_BYTE_RULE)
#undef P3S_BYTE_RULE
  return rules;
}();

// `op` is a blocking collective.
Sizes sizes_of(Op op, const CollectiveArgs& a, const CommunicatorInfo& comm, Role role) {
  const ByteRule rule = kByteRules[static_cast<std::size_t>(op)];
  return rule != nullptr ? rule(a, comm, role) : Sizes{};
}

// Fills the event; false when the communicator cannot be recorded.
bool fill_collective(RecordedCall& call, const CollectiveArgs& args) {
  core::Event& event = call.event();
  const CommunicatorInfo& comm = call.communicator(args.comm);
  if (!comm.recordable) return false;
  event.comm = comm.id;
  Op op = blocking_form(event.op);
  Role role = Role::NonRoot;
  if (core::is_rooted(op)) {
    role = role_of(args.root, comm);
    event.root = root_world_rank(args.root, comm);
  }
  Sizes sizes = sizes_of(op, args, comm, role);
  event.bytes = sizes.bytes;
  event.rbytes = sizes.rbytes;
  return true;
}

}  // namespace

void record_collective(RecordedCall& call, const CollectiveArgs& args) {
  fill_collective(call, args);
}

void record_nonblocking_collective(RecordedCall& call, const CollectiveArgs& args,
                                   MPI_Request request) {
  if (!fill_collective(call, args)) return;
  core::Event& event = call.event();
  event.req =
      requests().add(request, RequestInfo{.send = true, .comm = event.comm, .bytes = event.bytes});
}

}  // namespace p3s::trace
