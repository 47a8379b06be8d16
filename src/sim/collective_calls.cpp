#include "sim/collective_calls.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <climits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace p3s::sim {
namespace {

using core::Op;

// SMPI wants real buffers but, replaying, never touches them: one reserved, never-touched
// region serves every rank, so that buffers cost address space only.
void* scratch(std::int64_t bytes) {
  static void* region = nullptr;
  static std::int64_t size = 0;
  // Even an empty collective gets a real buffer: SimGrid's algorithms pack from it.
  if (region == nullptr || bytes > size) {
    std::int64_t grown = std::max<std::int64_t>(bytes, std::int64_t{1} << 30);
    void* p = mmap(nullptr, static_cast<std::size_t>(grown), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("cannot reserve collective buffers");
    // Requests of earlier calls may still point into the old region: it stays mapped.
    region = p, size = grown;
  }
  return region;
}

int count(std::int64_t bytes) {
  if (bytes < 0 || bytes > INT_MAX) {
    throw std::invalid_argument("a collective of " + std::to_string(bytes) +
                                " bytes: SMPI counts are ints (at most 2 GiB of bytes)");
  }
  return static_cast<int>(bytes);
}

// The counts and displacements of a v-collective, kept alive until it completes.
struct VectorArgs {
  std::vector<int> send_counts, send_displs, recv_counts, recv_displs;
};

std::vector<int> displacements(const std::vector<int>& counts) {
  std::vector<int> displs(counts.size());
  long long at = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    displs[i] = static_cast<int>(std::min<long long>(at, INT_MAX));
    at += counts[i];
  }
  return displs;
}

}  // namespace

void CollectiveCalls::run(const core::ProgramStep& s) {
  const MPI_Comm comm = comms_.get(s.comm);
  const int size = comms_.size(s.comm);
  const bool rooted = core::is_rooted(s.op);
  const int root = rooted ? comms_.rank_in(s.comm, s.root) : 0;
  const std::int64_t both = std::max(s.bytes, s.rbytes);
  check_per_peer_volume(s, size);
  // Collectives record totals; what one rank gives or gets per peer is assumed even.
  const int per_peer_send = count(s.bytes / size);
  const int per_peer_recv = count(s.rbytes / size);
  const std::int64_t buffer_bytes = std::max(both, std::max(s.bytes, s.rbytes) * size);
  void* send = scratch(buffer_bytes);
  void* recv = send;
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Request* req = core::is_nonblocking(s.op) ? &request : nullptr;
  auto v = std::make_shared<VectorArgs>();
  auto even = [&](int per_peer) {
    return std::vector<int>(static_cast<std::size_t>(size), per_peer);
  };
  const MPI_Datatype byte = MPI_BYTE;
  const MPI_Op op = MPI_BOR;  // commutative, like the trace's reductions SMPI replays with

  switch (s.op) {
    case Op::Barrier:
      MPI_Barrier(comm);
      break;
    case Op::Ibarrier:
      // SimGrid 3.32's MPI_Ibarrier, run in this engine, crashes SMPI's message matching
      // (a segmentation fault in Request::match_common; tests/unit/sim_engine_test.cpp): a
      // named refusal instead.
      throw std::invalid_argument(
          "the simulator cannot run ibarrier (SimGrid's MPI_Ibarrier crashes in p3s's engine)");
    case Op::Bcast:
      MPI_Bcast(send, count(both), byte, root, comm);
      break;
    case Op::Ibcast:
      MPI_Ibcast(send, count(both), byte, root, comm, req);
      break;
    case Op::Reduce:
      MPI_Reduce(send, recv, count(both), byte, op, root, comm);
      break;
    case Op::Ireduce:
      MPI_Ireduce(send, recv, count(both), byte, op, root, comm, req);
      break;
    case Op::Allreduce:
      MPI_Allreduce(send, recv, count(both), byte, op, comm);
      break;
    case Op::Iallreduce:
      MPI_Iallreduce(send, recv, count(both), byte, op, comm, req);
      break;
    case Op::Scan:
      MPI_Scan(send, recv, count(both), byte, op, comm);
      break;
    case Op::Iscan:
      MPI_Iscan(send, recv, count(both), byte, op, comm, req);
      break;
    case Op::Exscan:
      MPI_Exscan(send, recv, count(both), byte, op, comm);
      break;
    case Op::Iexscan:
      MPI_Iexscan(send, recv, count(both), byte, op, comm, req);
      break;
    case Op::Gather:
      MPI_Gather(send, count(s.bytes), byte, recv, std::max(count(s.bytes), per_peer_recv), byte,
                 root, comm);
      break;
    case Op::Igather:
      MPI_Igather(send, count(s.bytes), byte, recv, std::max(count(s.bytes), per_peer_recv), byte,
                  root, comm, req);
      break;
    case Op::Scatter:
      MPI_Scatter(send, per_peer_send, byte, recv, count(s.rbytes), byte, root, comm);
      break;
    case Op::Iscatter:
      MPI_Iscatter(send, per_peer_send, byte, recv, count(s.rbytes), byte, root, comm, req);
      break;
    case Op::Allgather:
      MPI_Allgather(send, count(s.bytes), byte, recv, std::max(count(s.bytes), per_peer_recv), byte,
                    comm);
      break;
    case Op::Iallgather:
      MPI_Iallgather(send, count(s.bytes), byte, recv, std::max(count(s.bytes), per_peer_recv),
                     byte, comm, req);
      break;
    case Op::Alltoall:
      MPI_Alltoall(send, per_peer_send, byte, recv, per_peer_recv, byte, comm);
      break;
    case Op::Ialltoall:
      MPI_Ialltoall(send, per_peer_send, byte, recv, per_peer_recv, byte, comm, req);
      break;
    case Op::Gatherv:
    case Op::Igatherv:
      v->recv_counts = even(per_peer_recv);
      v->recv_displs = displacements(v->recv_counts);
      if (req) {
        MPI_Igatherv(send, count(s.bytes), byte, recv, v->recv_counts.data(), v->recv_displs.data(),
                     byte, root, comm, req);
      } else {
        MPI_Gatherv(send, count(s.bytes), byte, recv, v->recv_counts.data(), v->recv_displs.data(),
                    byte, root, comm);
      }
      break;
    case Op::Scatterv:
    case Op::Iscatterv:
      v->send_counts = even(per_peer_send);
      v->send_displs = displacements(v->send_counts);
      if (req) {
        MPI_Iscatterv(send, v->send_counts.data(), v->send_displs.data(), byte, recv,
                      count(s.rbytes), byte, root, comm, req);
      } else {
        MPI_Scatterv(send, v->send_counts.data(), v->send_displs.data(), byte, recv,
                     count(s.rbytes), byte, root, comm);
      }
      break;
    case Op::Allgatherv:
    case Op::Iallgatherv:
      v->recv_counts = even(per_peer_recv);
      v->recv_displs = displacements(v->recv_counts);
      if (req) {
        MPI_Iallgatherv(send, count(s.bytes), byte, recv, v->recv_counts.data(),
                        v->recv_displs.data(), byte, comm, req);
      } else {
        MPI_Allgatherv(send, count(s.bytes), byte, recv, v->recv_counts.data(),
                       v->recv_displs.data(), byte, comm);
      }
      break;
    case Op::Alltoallv:
    case Op::Ialltoallv:
      v->send_counts = even(per_peer_send);
      v->send_displs = displacements(v->send_counts);
      v->recv_counts = even(per_peer_recv);
      v->recv_displs = displacements(v->recv_counts);
      if (req) {
        MPI_Ialltoallv(send, v->send_counts.data(), v->send_displs.data(), byte, recv,
                       v->recv_counts.data(), v->recv_displs.data(), byte, comm, req);
      } else {
        MPI_Alltoallv(send, v->send_counts.data(), v->send_displs.data(), byte, recv,
                      v->recv_counts.data(), v->recv_displs.data(), byte, comm);
      }
      break;
    case Op::ReduceScatterBlock:
      MPI_Reduce_scatter_block(send, recv, count(s.rbytes), byte, op, comm);
      break;
    case Op::IreduceScatterBlock:
      MPI_Ireduce_scatter_block(send, recv, count(s.rbytes), byte, op, comm, req);
      break;
    case Op::ReduceScatter:
    case Op::IreduceScatter:
      v->recv_counts = even(count(s.rbytes));
      if (req) {
        MPI_Ireduce_scatter(send, recv, v->recv_counts.data(), byte, op, comm, req);
      } else {
        MPI_Reduce_scatter(send, recv, v->recv_counts.data(), byte, op, comm);
      }
      break;
    default:
      throw std::invalid_argument("the simulator cannot run " + std::string(core::op_name(s.op)));
  }
  if (req) {
    auto [it, inserted] = pending_.try_emplace(s.req, Pending{request, std::move(v)});
    if (!inserted) {
      throw std::invalid_argument("request " + std::to_string(s.req) +
                                  " started again before it completed");
    }
  }
}

void CollectiveCalls::complete(std::int64_t req) {
  auto it = pending_.find(req);
  if (it == pending_.end()) return;
  MPI_Wait(&it->second.request, MPI_STATUS_IGNORE);
  pending_.erase(it);
}

}  // namespace p3s::sim
