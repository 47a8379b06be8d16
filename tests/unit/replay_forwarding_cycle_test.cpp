// Which phases the Synthetic Signature says it cannot hold at R < N (forwarding_cycle.hpp),
// on hand-written phases whose cycles of messages can be followed on paper.
#include <gtest/gtest.h>

#include <functional>
#include <numeric>

#include "replay_mpi/forwarding_cycle.hpp"
#include "sim/synthetic_trace.hpp"

namespace p3s::replay {
namespace {

// One phase whose events come from a function of the rank.
class ScriptedTrace final : public core::ScaledTrace {
 public:
  using Script = std::function<void(int rank, std::vector<core::Event>&)>;
  ScriptedTrace(int nprocs, Script script) : nprocs_(nprocs), script_(std::move(script)) {}
  int nprocs() const override { return nprocs_; }
  const std::vector<core::ScaledPhase>& phases() const override { return phases_; }
  void phase_events(int, int rank, std::vector<core::Event>& out) const override {
    script_(rank, out);
  }
  std::vector<core::Communicator> communicators(int) const override {
    core::Communicator world{0, std::vector<std::int32_t>(static_cast<std::size_t>(nprocs_))};
    std::iota(world.members.begin(), world.members.end(), 0);
    return {world};
  }

 private:
  int nprocs_;
  Script script_;
  std::vector<core::ScaledPhase> phases_{{"scripted", 10}};
};

core::Event send(int dst) {
  core::Event e;
  e.op = core::Op::Send;
  e.dst = dst, e.tag = 0, e.bytes = 8;
  return e;
}

core::Event recv(int src) {
  core::Event e;
  e.op = core::Op::Recv;
  e.src = src, e.rtag = 0, e.rbytes = 8;
  return e;
}

// Irecv from `src` as request `req`, a blocking send to `dst`, then the wait: one swap.
void swap(int src, int dst, std::int64_t req, std::vector<core::Event>& out) {
  core::Event irecv;
  irecv.op = core::Op::Irecv;
  irecv.src = src, irecv.rtag = 0, irecv.rbytes = 8, irecv.req = req;
  out.push_back(irecv);
  out.push_back(send(dst));
  core::Event wait;
  wait.op = core::Op::Wait;
  wait.requests.push_back({req, false, src, 0, 8});
  out.push_back(wait);
}

// app_ring: even ranks send to the right, then receive from the left; odd ranks receive first
// and send what they received. Each odd rank forwards its left neighbour's message within the
// repetition, and the only cycle through any hop is the whole ring.
ScriptedTrace blocking_ring(int n) {
  return ScriptedTrace(n, [n](int r, std::vector<core::Event>& out) {
    const int right = (r + 1) % n, left = (r + n - 1) % n;
    if (r % 2 == 0) {
      out.push_back(send(right));
      out.push_back(recv(left));
    } else {
      out.push_back(recv(left));
      out.push_back(send(right));
    }
  });
}

TEST(ForwardingCycle, ARingOfForwardedMessagesIsNotHeldByFewerRanksThanItHas) {
  const ScriptedTrace ring = blocking_ring(64);
  const auto cycle = unloadable_forwarding_cycle(ring, 0, 8);
  ASSERT_TRUE(cycle);
  EXPECT_EQ(cycle->from, 0);
  EXPECT_EQ(cycle->rank, 1);  // the first odd rank, forwarding rank 0's message
  EXPECT_EQ(cycle->ranks, 64);
  EXPECT_NE(describe(*cycle, 8).find("a cycle of 64 ranks, more than the 8 a step loads"),
            std::string::npos)
      << describe(*cycle, 8);
  EXPECT_TRUE(unloadable_forwarding_cycle(ring, 0, 63));
  EXPECT_FALSE(unloadable_forwarding_cycle(ring, 0, 64)) << "every rank loaded: held";
}

TEST(ForwardingCycle, ShortCyclesAreHeldByStepsThatLoadThem) {
  // Two rings of three ranks each (0-2 and 3-5), every rank forwarding: cycles of 3 ranks.
  const ScriptedTrace rings(6, [](int r, std::vector<core::Event>& out) {
    const int base = r / 3 * 3;
    out.push_back(recv(base + (r - base + 2) % 3));
    out.push_back(send(base + (r - base + 1) % 3));
  });
  EXPECT_FALSE(unloadable_forwarding_cycle(rings, 0, 3));
  const auto cycle = unloadable_forwarding_cycle(rings, 0, 2);
  ASSERT_TRUE(cycle);
  EXPECT_EQ(cycle->ranks, 3);
}

TEST(ForwardingCycle, PatternsWithoutALongForwardedCycleAreHeld) {
  // A halo exchange (receives complete in the waitall, after every send): nothing forwarded.
  sim::StencilShape shape;
  shape.side = 8;
  const sim::StencilTrace stencil(shape);
  EXPECT_FALSE(unloadable_forwarding_cycle(stencil, 0, 4));
  EXPECT_FALSE(unloadable_forwarding_cycle(stencil, 1, 4));
  // An open pipeline (a wavefront's row): every rank forwards, but no message comes back.
  const int n = 32;
  const ScriptedTrace pipeline(n, [n](int r, std::vector<core::Event>& out) {
    if (r > 0) out.push_back(recv(r - 1));
    if (r + 1 < n) out.push_back(send(r + 1));
  });
  EXPECT_FALSE(unloadable_forwarding_cycle(pipeline, 0, 4));
  // Swaps both ways around a periodic ring, one at a time (a molecular-dynamics code's ghost
  // swaps): the second swap's send follows the first's receive, but each neighbour sends back
  // within the repetition, a cycle of two ranks that every unit's step loads.
  const ScriptedTrace swaps(n, [n](int r, std::vector<core::Event>& out) {
    const int right = (r + 1) % n, left = (r + n - 1) % n;
    swap(left, right, 1, out);
    swap(right, left, 2, out);
  });
  EXPECT_FALSE(unloadable_forwarding_cycle(swaps, 0, 4));
}

}  // namespace
}  // namespace p3s::replay
