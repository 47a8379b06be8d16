// The fluid engine against SimGrid's (the truth it approximates, an independent
// implementation): alike to rounding on messages alone and shared, stencils, collectives and
// shared cores; within 1 % where links carry uneven loads (its max-min settles locally); and
// refusing by name what it does not run.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "sim/simulate.hpp"
#include "sim/synthetic_trace.hpp"
#include "sim_test_traces.hpp"

namespace p3s::sim {
namespace {

struct Pair {
  SimResult simgrid;
  SimResult fluid;
};

Pair both(const core::ScaledTrace& trace, SimOptions o) {
  o.engine = SimEngine::SimGrid;
  Pair p{simulate(trace, o), {}};
  o.engine = SimEngine::Fluid;
  p.fluid = simulate(trace, o);
  return p;
}

// Relative to the truth; a truth of 0 must be met to the picosecond.
double relative(double got, double truth) {
  return truth > 0 ? std::abs(got - truth) / truth : std::abs(got) * 1e3;
}

void expect_phases_within(const Pair& p, double bound) {
  ASSERT_EQ(p.fluid.phases.size(), p.simgrid.phases.size());
  for (std::size_t i = 0; i < p.fluid.phases.size(); ++i) {
    SCOPED_TRACE(p.simgrid.phases[i].name);
    const double truth = p.simgrid.phases[i].phase_et;
    std::printf("  %s: simgrid %.9g fluid %.9g (%+.3f %%)\n", p.simgrid.phases[i].name.c_str(),
                truth, p.fluid.phases[i].phase_et,
                100 * (p.fluid.phases[i].phase_et - truth) / truth);
    EXPECT_LE(relative(p.fluid.phases[i].phase_et, truth), bound);
    EXPECT_LE(relative(p.fluid.phases[i].per_rank.min, p.simgrid.phases[i].per_rank.min), bound);
  }
  EXPECT_EQ(p.fluid.cost.events, p.simgrid.cost.events);
}

std::filesystem::path default_platform() {
  return std::filesystem::path(P3S_SOURCE_DIR) / "simgrid_platforms" / "default.xml";
}

TEST(FluidEngine, OneMessageTakesSimGridsTime) {
  for (const std::int64_t bytes : {8, 1000, 70'000, 1'000'000}) {
    SCOPED_TRACE(bytes);
    expect_phases_within(both(RingTrace({2, bytes, 0, 10}), options_on(exact_platform(2))), 1e-9);
    // SMPI's factors by size, cross traffic and the default platform's loopback.
    expect_phases_within(both(RingTrace({2, bytes, 0, 10}), options_on(default_platform())), 1e-9);
  }
}

TEST(FluidEngine, ComputeAndLateReceiversTakeSimGridsTime) {
  SimOptions o = options_on(exact_platform(2));
  o.cpu_speedup = 4;
  expect_phases_within(both(RingTrace({2, 1000, 2'000'000, 3}), o), 1e-9);
  o.measured_repetitions = 1;
  expect_phases_within(both(late_receiver(1000), o), 1e-9);
  o.eager_threshold = 1000;  // rendezvous: the sender waits for the late receiver
  expect_phases_within(both(late_receiver(1000), o), 1e-9);
  o.platform = default_platform();
  expect_phases_within(both(late_receiver(1'000'000), o), 1e-9);
}

TEST(FluidEngine, StencilsTakeSimGridsTime) {
  for (const int side : {4, 8, 16}) {
    SCOPED_TRACE(side);
    StencilShape shape;
    shape.side = side;
    SimOptions o = options_on(default_platform());
    expect_phases_within(both(StencilTrace(shape), o), 1e-9);
    o.simgrid_args = {"--cfg=smpi/allreduce:rdb"};
    expect_phases_within(both(StencilTrace(shape), o), 1e-9);
  }
}

TEST(FluidEngine, CollectivesTakeSimGridsTime) {
  SimOptions o = options_on(default_platform());
  o.measured_repetitions = 2;
  expect_phases_within(both(collectives_trace(), o), 1e-9);
  // 64 ranks: the roots of the linear reduce and barrier hold 63 receives (an indexed queue).
  expect_phases_within(both(collectives_trace(64), o), 1e-9);
  o.simgrid_args = {"--cfg=smpi/allreduce:rdb"};
  expect_phases_within(both(collectives_trace(12), o), 1e-9);
}

// Every rank sends to three peers at distances 2, 5 and 10 (mod n) messages of 3, 1 and 2 times
// `bytes`, and receives from the ranks at those distances behind it, non-blocking, then waits
// for them all: links carry different numbers of flows of different sizes, so flows held back
// on one link leave bandwidth on another, which max-min gives to the others there.
ScriptedTrace irregular_exchange(int nprocs, std::int64_t bytes) {
  return ScriptedTrace(nprocs, [nprocs, bytes](int rank, std::vector<core::Event>& out) {
    const int distance[] = {2, 5, 10};
    const std::int64_t size[] = {3 * bytes, bytes, 2 * bytes};
    std::vector<core::RequestRecord> records;
    for (int k = 0; k < 3; ++k) {
      core::Event e = event(core::Op::Irecv, k == 0 ? 1000 * (rank % 3) : 0);
      e.src = (rank - distance[k] + nprocs) % nprocs, e.rtag = k, e.rbytes = size[k], e.req = k;
      out.push_back(e);
      records.push_back({k, false, e.src, k, size[k]});
    }
    for (int k = 0; k < 3; ++k) {
      core::Event e = event(core::Op::Isend);
      e.dst = (rank + distance[k]) % nprocs, e.tag = k, e.bytes = size[k], e.req = 3 + k;
      out.push_back(e);
      records.push_back({3 + k, true, e.dst, k, size[k]});
    }
    core::Event wait = event(core::Op::Waitall);
    wait.requests = records;
    out.push_back(wait);
  });
}

TEST(FluidEngine, IrregularSharingComesWithinOnePercent) {
  for (const int per_host : {1, 4}) {
    for (const std::int64_t bytes : {4'000, 200'000}) {
      SCOPED_TRACE(std::to_string(per_host) + " per host, " + std::to_string(bytes) + " B");
      SimOptions o = options_on(default_platform());
      o.ranks_per_host = per_host;
      expect_phases_within(both(irregular_exchange(24, bytes), o), 0.01);
    }
  }
}

// Fat tree, torus and dragonfly: routes of several links, shared by flows of other routes. The
// stencil at N = 64 and the uneven exchange at N = 24, with SMPI's factors and overheads.
TEST(FluidEngine, OtherTopologiesComeWithinOnePercent) {
  for (const Topology t : {Topology::FatTree, Topology::Torus, Topology::Dragonfly}) {
    SCOPED_TRACE(std::string(topology_name(t)));
    PlatformSpec spec;
    spec.hosts = 64;
    spec.topology = t;
    spec.os = "0:1us:0";
    const std::filesystem::path file =
        exact_platform(1).parent_path() / ("fluid-" + std::string(topology_name(t)) + ".xml");
    write_platform(spec, file);
    StencilShape shape;
    shape.side = 8;
    expect_phases_within(both(StencilTrace(shape), options_on(file)), 0.01);
    expect_phases_within(both(irregular_exchange(24, 50'000), options_on(file)), 0.01);
  }
}

TEST(FluidEngine, SharedCoresAndTheirRoundsTakeSimGridsTime) {
  // Four ranks computing on one core, paying 1 us per round of their blocking calls; then
  // two cores.
  StencilShape shape;
  shape.side = 2;
  for (const int cores : {1, 2}) {
    SCOPED_TRACE(cores);
    SimOptions o = options_on(shared_core_platform(cores, "1e-6"));
    o.ranks_per_host = 4;
    expect_phases_within(both(StencilTrace(shape), o), 1e-9);
  }
  // Four ranks on each host of the default platform: messages on the loopback and the links.
  shape.side = 4;
  SimOptions o = options_on(default_platform());
  o.ranks_per_host = 4;
  expect_phases_within(both(StencilTrace(shape), o), 1e-9);
}

TEST(FluidEngine, RefusesWhatItDoesNotRunByName) {
  SimOptions o = options_on(exact_platform(16));
  o.engine = SimEngine::Fluid;
  o.simgrid_args = {"--cfg=smpi/coll-selector:ompi"};
  try {
    simulate(collectives_trace(), o);
    ADD_FAILURE() << "simulated";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("bcast runs in SMPI's own algorithm"), std::string::npos)
        << e.what();
  }
  o.simgrid_args.clear();
  o.ranks_per_host = 3;
  try {
    simulate(every_kind_of_wait(), o);
    ADD_FAILURE() << "simulated";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("iallreduce runs in SMPI's own algorithm"),
              std::string::npos)
        << e.what();
  }
  o.native_collectives = false;
  EXPECT_THROW(simulate(collectives_trace(), o), std::runtime_error);
}

// An incast worked out on paper: ranks 1 to 15 each send 1 MB to rank 0, which has posted all
// 15 receives. Where the root's link is shared (max-min), the 15 MB cross it one after another
// in effect: 15 x 1 MB / 1.25 GB/s = 12 ms. Where links are not shared (--link-sharing none,
// SimGrid's FATPIPE), each message may take a link's whole bandwidth, but SimGrid bounds the
// flows of a link by the weight of the heaviest (1 / penalty, the penalty growing with the
// route's links): on the flat cluster every route has 2 links, so each message takes 0.8 ms;
// on a fat tree of 4 leaves of 4 hosts, the 12 messages from other leaves cross 4 links, and
// go at half the rate of the 3 from the root's leaf (2 links): when those end at 0.8 ms, half
// of each remote message is left, which takes 0.4 ms more at the full rate: 1.2 ms. Both
// engines.
TEST(FluidEngine, LinksWithoutSharingGiveEachMessageTheWholeBandwidth) {
  constexpr std::int64_t kBytes = 1'000'000;
  const ScriptedTrace incast(16, [](int rank, std::vector<core::Event>& out) {
    if (rank != 0) {
      core::Event send = event(core::Op::Send);
      send.dst = 0, send.tag = 1, send.bytes = kBytes;
      out.push_back(send);
      return;
    }
    core::Event wait = event(core::Op::Waitall);
    for (int peer = 1; peer < 16; ++peer) {
      core::Event recv = event(core::Op::Irecv);
      recv.src = peer, recv.rtag = 1, recv.rbytes = kBytes, recv.req = peer;
      out.push_back(recv);
      wait.requests.push_back({peer, false, peer, 1, kBytes});
    }
    out.push_back(wait);
  });
  const double one_message = kBytes / kBandwidth;
  for (const Topology t : {Topology::Flat, Topology::FatTree}) {
    for (const LinkSharing sharing : {LinkSharing::MaxMin, LinkSharing::None}) {
      SCOPED_TRACE(std::string(topology_name(t)) + ", sharing " +
                   std::string(link_sharing_name(sharing)));
      SimOptions o = options_on(exact_platform(16, t, sharing));
      o.measured_repetitions = 1;
      const Pair p = both(incast, o);
      expect_phases_within(p, 1e-9);
      const double messages = sharing == LinkSharing::MaxMin ? 15 : (t == Topology::Flat ? 1 : 1.5);
      const double expected = messages * one_message;
      // Beyond the transfer: a few latencies of 1 us per link, and SMPI's rendezvous.
      EXPECT_GT(p.fluid.phases[0].phase_et, expected);
      EXPECT_LT(p.fluid.phases[0].phase_et, expected + 20 * kLatency);
    }
  }
}

// Traces that cannot run end in an error naming a rank, as in SimGrid's engine: a receive no
// send matches, a request never completed.
TEST(FluidEngine, ReportsMessagesThatDoNotMatchAndRequestsLeftOpen) {
  SimOptions o = options_on(exact_platform(2));
  o.engine = SimEngine::Fluid;
  const ScriptedTrace orphan(2, [](int rank, std::vector<core::Event>& out) {
    if (rank == 1) {
      core::Event recv = event(core::Op::Recv);
      recv.src = 0, recv.rtag = 0, recv.rbytes = 10;
      out.push_back(recv);
    }
  });
  try {
    simulate(orphan, o);
    ADD_FAILURE() << "simulated";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("1 ranks never finished"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("rank 1 waits"), std::string::npos) << e.what();
  }
  const ScriptedTrace open(2, [](int rank, std::vector<core::Event>& out) {
    core::Event e = event(rank == 0 ? core::Op::Isend : core::Op::Recv);
    if (rank == 0) {
      e.dst = 1, e.tag = 0, e.bytes = 1'000'000, e.req = 7;  // rendezvous, never waited for
    } else {
      e.src = 0, e.rtag = 0, e.rbytes = 1'000'000;
    }
    out.push_back(e);
  });
  try {
    simulate(open, o);
    ADD_FAILURE() << "simulated";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("rank 0 ends with request 7 never completed"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace p3s::sim
