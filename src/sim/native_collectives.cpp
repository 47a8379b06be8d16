#include "sim/native_collectives.hpp"

#include <string>
#include <xbt/config.hpp>

namespace p3s::sim {
namespace {

using core::Op;

// Tags of the collectives' messages: application tags are never negative.
constexpr std::int32_t kBarrierTag = -10;
constexpr std::int32_t kBcastTag = -11;
constexpr std::int32_t kReduceTag = -12;
constexpr std::int32_t kAllreduceTag = -13;

// Request ids of the collectives' own messages: below any the trace uses.
constexpr std::int64_t kFirstRequest = -(std::int64_t{1} << 62);

// The algorithm SMPI runs for a collective: smpi/<collective>, else the selector's.
std::string algorithm(const char* collective) {
  std::string name = simgrid::config::get_value<std::string>(std::string("smpi/") + collective);
  if (name.empty()) name = simgrid::config::get_value<std::string>("smpi/coll-selector");
  return name.empty() ? "default" : name;
}

}  // namespace

bool rebuilt_by_p3s(std::string_view collective, std::string_view algorithm) {
  if (collective == "allreduce") return algorithm == "default" || algorithm == "rdb";
  return (collective == "barrier" || collective == "bcast" || collective == "reduce") &&
         algorithm == "default";
}

NativeAlgorithms NativeAlgorithms::from_config() {
  NativeAlgorithms n;
  n.barrier = rebuilt_by_p3s("barrier", algorithm("barrier"));
  n.bcast = rebuilt_by_p3s("bcast", algorithm("bcast"));
  n.reduce = rebuilt_by_p3s("reduce", algorithm("reduce"));
  // SMPI's default allreduce calls its default reduce and bcast whatever they are set to.
  const std::string allreduce = algorithm("allreduce");
  if (rebuilt_by_p3s("allreduce", allreduce)) {
    n.allreduce =
        allreduce == "rdb" ? AllreduceAlgorithm::RecursiveDoubling : AllreduceAlgorithm::Default;
  }
  return n;
}

bool NativeCollectives::handles(Op op) const {
  switch (op) {
    case Op::Barrier:
      return algorithms_.barrier;
    case Op::Bcast:
      return algorithms_.bcast;
    case Op::Reduce:
      return algorithms_.reduce;
    case Op::Allreduce:
      return algorithms_.allreduce != AllreduceAlgorithm::Smpi;
    default:
      return false;
  }
}

void NativeCollectives::run(const core::ProgramStep& s) {
  const Group g = group(s.comm);
  const std::int64_t bytes = std::max(s.bytes, s.rbytes);
  switch (s.op) {
    case Op::Barrier:
      return barrier(g);
    case Op::Bcast:
      return bcast(g, bytes, comms_.rank_in(s.comm, s.root));
    case Op::Reduce:
      return reduce(g, bytes, comms_.rank_in(s.comm, s.root));
    case Op::Allreduce:
      if (algorithms_.allreduce == AllreduceAlgorithm::RecursiveDoubling) {
        return allreduce_recursive_doubling(g, bytes);
      }
      reduce(g, bytes, 0);
      return bcast(g, bytes, 0);
    default:
      return;
  }
}

NativeCollectives::Group NativeCollectives::group(std::int32_t id) const {
  return {id, comms_.key(id), comms_.rank_in(id, comms_.own_rank()), comms_.size(id)};
}

void NativeCollectives::send(const Group& g, int to, std::int32_t tag, std::int64_t bytes,
                             bool blocking, std::int64_t req) {
  p2p_.send(g.key, comms_.world_rank(g.id, to), tag, bytes, SendMode::Standard, blocking, req);
}

void NativeCollectives::receive(const Group& g, int from, std::int32_t tag, std::int64_t bytes,
                                bool blocking, std::int64_t req) {
  p2p_.receive(g.key, comms_.world_rank(g.id, from), tag, bytes, blocking, req);
}

// barrier__ompi_basic_linear: everyone sends an empty message to rank 0 and waits for its
// answer; rank 0 receives them all, then answers them all.
void NativeCollectives::barrier(const Group& g) {
  if (g.rank > 0) {
    send(g, 0, kBarrierTag, 0, true, 0);
    receive(g, 0, kBarrierTag, 0, true, 0);
    return;
  }
  for (int peer = 1; peer < g.size; ++peer)
    receive(g, peer, kBarrierTag, 0, false, kFirstRequest + peer);
  for (int peer = 1; peer < g.size; ++peer) p2p_.complete(kFirstRequest + peer);
  for (int peer = 1; peer < g.size; ++peer)
    send(g, peer, kBarrierTag, 0, false, kFirstRequest + peer);
  for (int peer = 1; peer < g.size; ++peer) p2p_.complete(kFirstRequest + peer);
}

// bcast__binomial_tree: receive from the parent, then send to the children, farthest first,
// with blocking calls.
void NativeCollectives::bcast(const Group& g, std::int64_t bytes, int root) {
  const int relative = g.rank >= root ? g.rank - root : g.rank - root + g.size;
  int mask = 1;
  while (mask < g.size) {
    if (relative & mask) {
      int from = g.rank - mask;
      if (from < 0) from += g.size;
      receive(g, from, kBcastTag, bytes, true, 0);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    if (relative + mask < g.size) {
      int to = g.rank + mask;
      if (to >= g.size) to -= g.size;
      send(g, to, kBcastTag, bytes, true, 0);
    }
  }
}

// colls::ireduce then a wait: every rank but the root sends its buffer to the root, which
// receives them all, started in rank order.
void NativeCollectives::reduce(const Group& g, std::int64_t bytes, int root) {
  if (g.rank != root) {
    send(g, root, kReduceTag, bytes, false, kFirstRequest);
    p2p_.complete(kFirstRequest);
    return;
  }
  for (int peer = 0; peer < g.size; ++peer) {
    if (peer != root) receive(g, peer, kReduceTag, bytes, false, kFirstRequest + peer);
  }
  for (int peer = 0; peer < g.size; ++peer) {
    if (peer != root) p2p_.complete(kFirstRequest + peer);
  }
}

// As SMPI's Request::sendrecv: both started (the send first), then both completed. SMPI's own
// copies (a rank to itself) cost nothing and are left out.
void NativeCollectives::sendrecv(const Group& g, int peer, std::int32_t tag, std::int64_t bytes) {
  send(g, peer, tag, bytes, false, kFirstRequest);
  receive(g, peer, tag, bytes, false, kFirstRequest + 1);
  p2p_.complete(kFirstRequest);
  p2p_.complete(kFirstRequest + 1);
}

// allreduce__rdb: ranks beyond the largest power of two fold into their odd neighbour, the
// power of two exchange with partners at distance 1, 2, 4, ..., then the folded ranks get the
// result back.
void NativeCollectives::allreduce_recursive_doubling(const Group& g, std::int64_t bytes) {
  int pof2 = 1;
  while (pof2 <= g.size) pof2 <<= 1;
  pof2 >>= 1;
  const int rem = g.size - pof2;
  int newrank = g.rank - rem;
  if (g.rank < 2 * rem) {
    if (g.rank % 2 == 0) {
      send(g, g.rank + 1, kAllreduceTag, bytes, true, 0);
      newrank = -1;
    } else {
      receive(g, g.rank - 1, kAllreduceTag, bytes, true, 0);
      newrank = g.rank / 2;
    }
  }
  if (newrank != -1) {
    for (int mask = 1; mask < pof2; mask <<= 1) {
      const int newdst = newrank ^ mask;
      sendrecv(g, newdst < rem ? newdst * 2 + 1 : newdst + rem, kAllreduceTag, bytes);
    }
  }
  if (g.rank < 2 * rem) {
    if (g.rank % 2) {
      send(g, g.rank - 1, kAllreduceTag, bytes, true, 0);
    } else {
      receive(g, g.rank + 1, kAllreduceTag, bytes, true, 0);
    }
  }
}

}  // namespace p3s::sim
