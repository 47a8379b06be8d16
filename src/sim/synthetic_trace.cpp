#include "sim/synthetic_trace.hpp"

#include <numeric>
#include <stdexcept>
#include <string>

namespace p3s::sim {
namespace {

constexpr std::int32_t kHaloTag = 7;
constexpr std::int32_t kRingTag = 3;

core::Communicator world(int nprocs) {
  core::Communicator c{0, std::vector<std::int32_t>(static_cast<std::size_t>(nprocs))};
  std::iota(c.members.begin(), c.members.end(), 0);
  return c;
}

// Appends Irecvs from every peer, then Isends to every peer, then the Waitall completing
// them all, the first call after `compute_ns` of compute.
void exchange(const std::vector<std::int32_t>& peers, std::int32_t tag, std::int64_t bytes,
              std::int64_t compute_ns, std::vector<core::Event>& out) {
  core::Event waitall;
  waitall.op = core::Op::Waitall;
  std::int64_t next_req = 0;
  for (bool send : {false, true}) {
    for (std::int32_t peer : peers) {
      core::Event e;
      e.op = send ? core::Op::Isend : core::Op::Irecv;
      if (send) {
        e.dst = peer, e.tag = tag, e.bytes = bytes;
      } else {
        e.src = peer, e.rtag = tag, e.rbytes = bytes;
      }
      e.req = next_req++;
      e.burst_cpu = out.empty() ? compute_ns : 0;
      out.push_back(e);
      waitall.requests.push_back({e.req, send, peer, tag, bytes});
    }
  }
  out.push_back(std::move(waitall));
}

void check_phase(int phase, int count, int rank, int nprocs) {
  if (phase < 0 || phase >= count) throw std::out_of_range("no phase " + std::to_string(phase));
  if (rank < 0 || rank >= nprocs) throw std::out_of_range("no rank " + std::to_string(rank));
}

}  // namespace

StencilTrace::StencilTrace(const StencilShape& shape) : shape_(shape) {
  if (shape.side < 1) throw std::invalid_argument("stencil side must be at least 1");
  phases_ = {{"halo", shape.halo_weight}, {"residual", shape.residual_weight}};
}

std::vector<std::int32_t> StencilTrace::neighbours(int rank) const {
  const int side = shape_.side, x = rank % side, y = rank / side;
  return {y * side + (x + 1) % side, y * side + (x + side - 1) % side, ((y + 1) % side) * side + x,
          ((y + side - 1) % side) * side + x};
}

void StencilTrace::phase_events(int phase, int rank, std::vector<core::Event>& out) const {
  check_phase(phase, 2, rank, nprocs());
  if (phase == 0) {
    std::vector<core::Event> halo;
    exchange(neighbours(rank), kHaloTag, shape_.halo_bytes, shape_.halo_compute_ns, halo);
    out.insert(out.end(), halo.begin(), halo.end());
    return;
  }
  core::Event reduce;
  reduce.op = core::Op::Allreduce;
  reduce.bytes = reduce.rbytes = shape_.reduce_bytes;
  reduce.burst_cpu = shape_.residual_compute_ns;
  out.push_back(reduce);
}

std::vector<core::Communicator> StencilTrace::communicators(int) const {
  return {world(nprocs())};
}

RingTrace::RingTrace(const RingShape& shape) : shape_(shape) {
  if (shape.nprocs < 2) throw std::invalid_argument("a ring needs at least 2 ranks");
  phases_ = {{"ring", shape.weight}};
}

void RingTrace::phase_events(int phase, int rank, std::vector<core::Event>& out) const {
  check_phase(phase, 1, rank, nprocs());
  const int n = shape_.nprocs;
  std::vector<std::int32_t> peers{(rank + n - 1) % n};
  if (n > 2) peers.push_back((rank + 1) % n);
  std::vector<core::Event> ring;
  exchange(peers, kRingTag, shape_.bytes, shape_.compute_ns, ring);
  out.insert(out.end(), ring.begin(), ring.end());
}

std::vector<core::Communicator> RingTrace::communicators(int) const {
  return {world(nprocs())};
}

}  // namespace p3s::sim
