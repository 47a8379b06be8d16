// The simulator's parts that need no SimGrid run: rank placement, SMPI's overhead tables,
// compiling a rank's events.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

#include "core/rank_program.hpp"
#include "sim/fluid_match_queue.hpp"
#include "sim/fluid_platform.hpp"
#include "sim/fluid_sharing.hpp"
#include "sim/overhead_table.hpp"
#include "sim/rank_placement.hpp"

namespace p3s::sim {
namespace {

// Runs `sharing` from `now` to the end: each flow's finish time, by flow id.
std::vector<double> finishes(FluidSharing& sharing, std::size_t flows, double now = 0) {
  std::vector<double> at(flows, -1);
  for (;;) {
    sharing.settle(now);
    const auto next = sharing.next_finish();
    if (!next) break;
    now = next->first;
    sharing.finish(next->second);
    at[next->second] = now;
  }
  return at;
}

// Each flow's finish time, by flow id, as worked out on paper (to rounding).
void expect_finishes(const std::vector<double>& at, const std::vector<double>& want) {
  ASSERT_EQ(at.size(), want.size());
  for (std::size_t i = 0; i < at.size(); ++i) EXPECT_NEAR(at[i], want[i], 1e-12) << "flow " << i;
}

// Worked out on paper: two flows of 10 on a link of 10/s share it, 5/s each, and both end at
// 2 s. With a third flow of 5 starting at 1 s, when the first two have 5 left each, three
// share the link (10/3 per second each) and all end 1.5 s later.
TEST(FluidSharing, EqualFlowsShareALinkEvenly) {
  FluidSharing s;
  const FluidSharing::Use link[] = {{s.add_resource(10, true), 1.0}};
  s.start(0, 10, -1, 1, link);
  s.start(0, 10, -1, 1, link);
  EXPECT_EQ(finishes(s, 2), (std::vector<double>{2, 2}));
  FluidSharing t;
  const FluidSharing::Use other[] = {{t.add_resource(10, true), 1.0}};
  t.start(0, 10, -1, 1, other);
  t.start(0, 10, -1, 1, other);
  t.settle(0);
  ASSERT_EQ(t.next_finish()->first, 2);
  t.start(1, 5, -1, 1, other);
  const std::vector<double> at = finishes(t, 3, 1);
  for (const double a : at) EXPECT_NEAR(a, 2.5, 1e-12);
}

// Water-filling: a flow bounded at 2/s leaves 8/s to the two others (4/s each); weights
// 1/penalty split a link 2:1; a FATPIPE link gives each flow its whole capacity; a flow's
// coefficient counts its rate that many times on the link.
TEST(FluidSharing, BoundsPenaltiesFatpipesAndCoefficients) {
  FluidSharing s;
  const FluidSharing::Use link[] = {{s.add_resource(10, true), 1.0}};
  s.start(0, 2, 2, 1, link);  // 1 s at its bound
  s.start(0, 8, -1, 1, link);
  s.start(0, 8, -1, 1, link);
  std::vector<double> at = finishes(s, 3);
  EXPECT_NEAR(at[0], 1, 1e-12);
  // 4/s for 1 s (4 left), then 5/s each: 0.8 s more.
  EXPECT_NEAR(at[1], 1.8, 1e-12);
  EXPECT_NEAR(at[2], 1.8, 1e-12);

  FluidSharing w;
  const FluidSharing::Use wl[] = {{w.add_resource(9, true), 1.0}};
  w.start(0, 6, -1, 1, wl);  // weight 1: 6/s
  w.start(0, 6, -1, 2, wl);  // weight 1/2: 3/s
  at = finishes(w, 2);
  EXPECT_NEAR(at[0], 1, 1e-12);
  EXPECT_NEAR(at[1], 1 + 3.0 / 9, 1e-12);  // 3 left at 1 s, then alone at 9/s

  FluidSharing f;
  const FluidSharing::Use fat[] = {{f.add_resource(10, false), 1.0}};
  f.start(0, 10, -1, 1, fat);
  f.start(0, 10, -1, 1, fat);
  EXPECT_EQ(finishes(f, 2), (std::vector<double>{1, 1}));

  FluidSharing c;
  const FluidSharing::Resource r = c.add_resource(10, true);
  const FluidSharing::Use forward[] = {{r, 1.0}};
  const FluidSharing::Use backward[] = {{r, 0.05}};
  c.start(0, 10.5, -1, 1, forward);
  c.start(0, 10.5, -1, 1, backward);  // both at 10 / 1.05 per second
  at = finishes(c, 2);
  EXPECT_NEAR(at[0], 1.05 * 1.05, 1e-12);
  EXPECT_NEAR(at[1], 1.05 * 1.05, 1e-12);
  EXPECT_EQ(c.running(), 0u);
}

// A flow alone on a link of 3/s also crosses a link of 4/s with two others: 4/3 per second
// each until the second flow (4/3) ends at 1 s, then 2/s each until the third (10/3) ends at
// 2 s, then the first is held by its own link, 3/s: 19/3 ends at 3 s. Its own link, where it
// is alone, is not levelled again while the other link's level climbs past 3/s.
TEST(FluidSharing, AFlowAloneOnALinkTakesTheLeastOfItAndItsOtherLinks) {
  FluidSharing s;
  const FluidSharing::Resource own = s.add_resource(3, true);
  const FluidSharing::Resource shared = s.add_resource(4, true);
  const FluidSharing::Use both[] = {{own, 1.0}, {shared, 1.0}};
  const FluidSharing::Use other[] = {{shared, 1.0}};
  s.start(0, 19.0 / 3, -1, 1, both);
  s.start(0, 4.0 / 3, -1, 1, other);
  s.start(0, 10.0 / 3, -1, 1, other);
  expect_finishes(finishes(s, 3), {3, 1, 2});
}

// A link its flows do not fill, until one of them may take more: a link of 8/s carries the
// first flow, held to 3/s by a link of 6/s it shares with the third, and the second, held to
// 4/s by a link of its own: 7/s, so it is not full. When the third (3) ends at 1 s the first
// may take 6/s there, which would make 10/s: now the link of 8/s is full, and shares 4/s each.
// The first (7) and the second (8) both end at 2 s.
TEST(FluidSharing, ALinkItsFlowsDidNotFillIsSharedOnceTheyWouldOverfillIt) {
  FluidSharing s;
  const FluidSharing::Resource shared = s.add_resource(6, true);
  const FluidSharing::Resource own = s.add_resource(4, true);
  const FluidSharing::Resource wide = s.add_resource(8, true);
  const FluidSharing::Use first[] = {{shared, 1.0}, {wide, 1.0}};
  const FluidSharing::Use second[] = {{own, 1.0}, {wide, 1.0}};
  const FluidSharing::Use third[] = {{shared, 1.0}};
  s.start(0, 7, -1, 1, first);
  s.start(0, 8, -1, 1, second);
  s.start(0, 3, -1, 1, third);
  expect_finishes(finishes(s, 3), {2, 2, 1});
}

// A FATPIPE link of 10/s, as SimGrid's maximum constraint: flows of penalty 1 and 2 take 10/s
// and 5/s (the heavier one sets the level), so the first (10) ends at 1 s and the second (10)
// has 5 left, which it takes alone at 10/s: 1.5 s. A flow held back elsewhere below the
// capacity (4/s on a link of its own) does not set the level: the other, of penalty 2, then
// takes the whole 10/s.
TEST(FluidSharing, AFatpipeLinkBoundsItsFlowsByTheHeaviest) {
  FluidSharing s;
  const FluidSharing::Use fat[] = {{s.add_resource(10, false), 1.0}};
  s.start(0, 10, -1, 1, fat);
  s.start(0, 10, -1, 2, fat);
  expect_finishes(finishes(s, 2), {1, 1.5});

  FluidSharing h;
  const FluidSharing::Resource pipe = h.add_resource(10, false);
  const FluidSharing::Use held[] = {{pipe, 1.0}, {h.add_resource(4, true), 1.0}};
  const FluidSharing::Use free[] = {{pipe, 1.0}};
  h.start(0, 4, -1, 1, held);
  h.start(0, 10, -1, 2, free);
  expect_finishes(finishes(h, 2), {1, 1});
}

// Flows on shared links as max-min defines them, re-solved from scratch at every start and
// finish by progressive filling: the truth the fluid sharing (settled around what changed,
// its groups on one clock) must give. Each flow: a start, an amount, its links with their
// coefficients, a penalty (it is served in proportion to 1 / penalty) and a bound (none if
// not positive).
struct ReferenceFlow {
  double start;
  double amount;
  std::vector<FluidSharing::Use> uses;
  double penalty = 1;
  double bound = -1;
};

std::vector<double> reference_rates(const std::vector<double>& capacity,
                                    const std::vector<ReferenceFlow>& flows,
                                    const std::vector<bool>& active) {
  std::vector<double> rate(flows.size(), 0);
  std::vector<bool> fixed(flows.size(), false);
  std::vector<double> left = capacity;
  const auto fix = [&](std::size_t f, double value) {
    fixed[f] = true;
    rate[f] = value;
    for (const auto& u : flows[f].uses) left[u.resource] -= u.coefficient * value;
  };
  for (;;) {
    // The unfixed flows take level / penalty each; the level rises until a resource
    // saturates or a flow reaches its bound, whichever comes first.
    double level = std::numeric_limits<double>::infinity();
    std::size_t tightest = capacity.size();
    std::size_t bounded = flows.size();
    for (std::size_t r = 0; r < capacity.size(); ++r) {
      double weight = 0;
      for (std::size_t f = 0; f < flows.size(); ++f) {
        if (!active[f] || fixed[f]) continue;
        for (const auto& u : flows[f].uses) {
          if (u.resource == r) weight += u.coefficient / flows[f].penalty;
        }
      }
      if (weight > 0 && left[r] / weight < level) {
        level = left[r] / weight;
        tightest = r;
      }
    }
    for (std::size_t f = 0; f < flows.size(); ++f) {
      if (!active[f] || fixed[f] || flows[f].bound <= 0) continue;
      if (flows[f].bound * flows[f].penalty < level) {
        level = flows[f].bound * flows[f].penalty;
        bounded = f;
      }
    }
    if (bounded < flows.size()) {
      fix(bounded, flows[bounded].bound);
      continue;
    }
    if (tightest == capacity.size()) return rate;
    for (std::size_t f = 0; f < flows.size(); ++f) {
      if (!active[f] || fixed[f]) continue;
      const bool crosses = std::any_of(flows[f].uses.begin(), flows[f].uses.end(),
                                       [&](const auto& u) { return u.resource == tightest; });
      if (crosses) fix(f, level / flows[f].penalty);
    }
  }
}

std::vector<double> reference_finishes(const std::vector<double>& capacity,
                                       const std::vector<ReferenceFlow>& flows) {
  std::vector<double> remaining(flows.size());
  std::vector<double> at(flows.size(), -1);
  std::vector<bool> active(flows.size(), false);
  double now = 0;
  for (;;) {
    const std::vector<double> rate = reference_rates(capacity, flows, active);
    double next = std::numeric_limits<double>::infinity();
    for (std::size_t f = 0; f < flows.size(); ++f) {
      if (at[f] < 0 && !active[f]) next = std::min(next, flows[f].start);
      if (active[f]) next = std::min(next, now + remaining[f] / rate[f]);
    }
    if (next == std::numeric_limits<double>::infinity()) return at;
    for (std::size_t f = 0; f < flows.size(); ++f) {
      if (!active[f]) continue;
      remaining[f] -= rate[f] * (next - now);
      if (remaining[f] <= 1e-12 * flows[f].amount) {
        active[f] = false;
        at[f] = next;
      }
    }
    now = next;
    for (std::size_t f = 0; f < flows.size(); ++f) {
      if (at[f] < 0 && !active[f] && flows[f].start <= now) {
        active[f] = true;
        remaining[f] = flows[f].amount;
      }
    }
  }
}

// The same flows through FluidSharing, started at their instants: each one's finish.
std::vector<double> sharing_finishes(const std::vector<double>& capacity,
                                     const std::vector<ReferenceFlow>& flows) {
  FluidSharing s;
  for (const double c : capacity) s.add_resource(c, true);
  std::vector<std::size_t> order(flows.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return flows[a].start < flows[b].start; });
  std::vector<double> at(flows.size(), -1);
  std::vector<std::size_t> flow_of;  // by FluidSharing's id (ids are reused)
  std::size_t started = 0;
  double now = 0;
  for (;;) {
    s.settle(now);
    const auto next = s.next_finish();
    if (started < order.size() && (!next || flows[order[started]].start <= next->first)) {
      now = flows[order[started]].start;
      const ReferenceFlow& f = flows[order[started]];
      const FluidSharing::Flow id = s.start(now, f.amount, f.bound, f.penalty, f.uses);
      if (id >= flow_of.size()) flow_of.resize(id + 1);
      flow_of[id] = order[started++];
      continue;
    }
    if (!next) return at;
    now = next->first;
    s.finish(next->second);
    at[flow_of[next->second]] = now;
  }
}

// An incast (most flows cross one link, enough for a group) with flows arriving and leaving
// at their own instants, some crossing a second or third link, some of those links narrow
// (a group's rider is held back there, and the group must end), cross-traffic-like uses of
// 5 %, penalties of 1 and 2.5 (riders of one group progressing at different rates) and some
// flows bounded: every finish as max-min re-solved from scratch gives it, for several draws.
TEST(FluidSharing, FlowsComingAndGoingOnAnIncastEndAsMaxMinReSolvedAtEveryEventGives) {
  for (unsigned seed = 1; seed <= 40; ++seed) {
    std::mt19937 draw(seed);
    std::uniform_real_distribution<double> unit(0, 1);
    const std::vector<double> capacity = {10, 10, 3, 6, 1.5, 20, 8};
    std::vector<ReferenceFlow> flows(80);
    for (ReferenceFlow& f : flows) {
      f.start = seed % 3 == 0 ? 0 : 4 * unit(draw);
      f.amount = 0.5 + 4 * unit(draw);
      if (unit(draw) < 0.8) f.uses.push_back({0, 1.0});
      for (FluidSharing::Resource r = 1; r < capacity.size(); ++r) {
        if (unit(draw) < 0.15) f.uses.push_back({r, unit(draw) < 0.3 ? 0.05 : 1.0});
      }
      if (f.uses.empty()) f.uses.push_back({1, 1.0});
      if (seed % 2 == 0 && unit(draw) < 0.3) f.penalty = 2.5;
      if (seed % 4 == 1 && unit(draw) < 0.2) f.bound = 0.2;
    }
    const std::vector<double> want = reference_finishes(capacity, flows);
    const std::vector<double> got = sharing_finishes(capacity, flows);
    for (std::size_t f = 0; f < flows.size(); ++f)
      EXPECT_NEAR(got[f], want[f], 1e-9 * want[f]) << "seed " << seed << ", flow " << f;
  }
}

// Matching takes the first entry of a key, whatever the others, with a few entries (a list) and
// with many (an index): 100 entries from 10 sources, 2 tags, taken back in another order.
TEST(FluidMatchQueue, TakesEachKeysEntriesFirstInFirstOut) {
  for (const int count : {6, 100}) {
    FluidMatchQueue<int> q;
    for (int i = 0; i < count; ++i) q.push(MessageStream{7, i % 10, 0, i % 4 < 2 ? 1 : 2}, i);
    EXPECT_EQ(q.size(), static_cast<std::size_t>(count));
    int found = -1;
    EXPECT_FALSE(q.take(MessageStream{8, 0, 0, 1}, found));  // another communicator
    for (int source = 9; source >= 0; --source) {
      for (const int tag : {2, 1}) {
        int last = -1;
        while (q.take(MessageStream{7, source, 0, tag}, found)) {
          EXPECT_EQ(found % 10, source);
          EXPECT_EQ(found % 4 < 2 ? 1 : 2, tag);
          EXPECT_GT(found, last);  // first in, first out
          last = found;
        }
      }
    }
    EXPECT_EQ(q.size(), 0u);
  }
}

// SMPI's factor syntax: 1 up to the first size, then the value of the last size exceeded.
TEST(SmpiFactor, ValueOfTheLastSizeExceeded) {
  const SmpiFactor f("1000:0.5;0:2;65000:0.9");
  EXPECT_EQ(f.at(0), 1);
  EXPECT_EQ(f.at(1), 2);
  EXPECT_EQ(f.at(1000), 2);
  EXPECT_EQ(f.at(1001), 0.5);
  EXPECT_EQ(f.at(1e6), 0.9);
  EXPECT_EQ(SmpiFactor("").at(100), 1);
  EXPECT_THROW(SmpiFactor("1000"), std::invalid_argument);
  EXPECT_THROW(SmpiFactor("a:1"), std::invalid_argument);
}

TEST(RankPlacement, OrdersHostNamesAsNumbers) {
  EXPECT_TRUE(natural_less("node-2", "node-10"));
  EXPECT_FALSE(natural_less("node-10", "node-2"));
  EXPECT_TRUE(natural_less("a-009", "a-10"));
  EXPECT_TRUE(natural_less("node-1", "node-1a"));
  EXPECT_FALSE(natural_less("node-1", "node-1"));
}

TEST(RankPlacement, BlockAndCyclic) {
  EXPECT_EQ(place_ranks(6, 4, 2, Mapping::Block), (std::vector<int>{0, 0, 1, 1, 2, 2}));
  EXPECT_EQ(place_ranks(6, 4, 2, Mapping::Cyclic), (std::vector<int>{0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(place_ranks(5, 5, 1, Mapping::Cyclic), (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_THROW(place_ranks(9, 4, 2, Mapping::Block), std::invalid_argument);
}

TEST(OverheadTable, ComputesAsSmpi) {
  // Up to 1000 bytes: 1 us + 1 ns/byte; above: 5 us + 2 ns/byte.
  OverheadTable t("0:1us:1ns;1000:5e-6:2e-9");
  EXPECT_DOUBLE_EQ(t.seconds(0), 1e-6);
  EXPECT_DOUBLE_EQ(t.seconds(500), 1e-6 + 500e-9);
  EXPECT_DOUBLE_EQ(t.seconds(1000), 1e-6 + 1000e-9);
  EXPECT_DOUBLE_EQ(t.seconds(2000), 5e-6 + 4000e-9);
  EXPECT_EQ(OverheadTable("0:0:0:0:0").seconds(1000), 0);
  EXPECT_EQ(OverheadTable().seconds(1000), 0);
  EXPECT_THROW(OverheadTable("0:1"), std::invalid_argument);
  EXPECT_THROW(OverheadTable("x:1:2"), std::invalid_argument);
  EXPECT_THROW(OverheadTable("0:1furlong:2"), std::invalid_argument);
}

TEST(RankProgram, ResolvesWildcardReceivesFromTheirCompletion) {
  core::Event irecv;
  irecv.op = core::Op::Irecv;
  irecv.src = core::kAnySource;
  irecv.rtag = core::kAnyTag;
  irecv.rbytes = 64;
  irecv.req = 4;
  irecv.burst_cpu = 2'000'000;
  core::Event wait;
  wait.op = core::Op::Wait;
  wait.requests = {{4, false, 3, 9, 64}};
  const core::RankProgram p = core::compile_rank_program({irecv, wait}, 2.0);
  ASSERT_EQ(p.steps.size(), 2u);
  EXPECT_EQ(p.steps[0].src, 3);
  EXPECT_EQ(p.steps[0].rtag, 9);
  EXPECT_DOUBLE_EQ(p.steps[0].compute_seconds, 1e-3);
  EXPECT_EQ(p.steps[1].record_count, 1u);
  EXPECT_EQ(p.records.at(p.steps[1].first_record).req, 4);

  core::Event recv;
  recv.op = core::Op::Recv;
  recv.src = core::kAnySource;
  EXPECT_THROW(core::compile_rank_program({recv}, 1.0), std::invalid_argument);
}

}  // namespace
}  // namespace p3s::sim
