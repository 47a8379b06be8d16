// The Synthetic Signature's pure logic: step plans over hand-written ST4NPs whose units and
// black holes can be counted on paper, the roles of the processes, and the collectives' fit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "replay_mpi/collective_fit.hpp"
#include "replay_mpi/replay_result.hpp"
#include "replay_mpi/replay_setup.hpp"
#include "replay_mpi/step_plan.hpp"
#include "sim/synthetic_trace.hpp"

namespace p3s::replay {
namespace {

// The synthetic stencil: per rank, "halo" is 4 irecv + 4 isend (a unit each) and a waitall
// over 4 neighbours (a unit per neighbour): 12 units; "residual" is one allreduce: 1 unit.
constexpr std::size_t kHaloUnits = 12;
constexpr std::size_t kResidualUnits = 1;

sim::StencilTrace stencil(int side) {
  sim::StencilShape shape;
  shape.side = side;
  return sim::StencilTrace(shape);
}

void expect_every_unit_once(const sim::StencilTrace& trace, const Plan& plan, int measurable) {
  std::map<std::pair<int, int>, std::size_t> measured;
  for (const PlannedStep& s : plan.steps) {
    std::set<std::int32_t> loaded;
    int holes = 0;
    EXPECT_LE(static_cast<int>(s.ranks.size()), measurable);
    for (std::size_t slot = 0; slot < s.ranks.size(); ++slot) {
      const std::int32_t r = s.ranks[slot];
      if (r < 0) continue;
      EXPECT_TRUE(loaded.insert(r).second) << "rank " << r << " loaded twice";
    }
    for (std::size_t slot = 0; slot < s.ranks.size(); ++slot) {
      const std::int32_t r = s.ranks[slot];
      if (r < 0) continue;
      measured[{s.phase, r}] += s.measured[slot].size();
      const auto n = trace.neighbours(r);
      const bool external = s.phase == 0 && std::any_of(n.begin(), n.end(), [&](std::int32_t p) {
                              return !loaded.count(p);
                            });
      EXPECT_EQ(s.black_hole[slot] >= 0, external) << "rank " << r;
      holes += external ? 1 : 0;
    }
    EXPECT_EQ(s.black_holes, holes);
  }
  for (int r = 0; r < trace.nprocs(); ++r) {
    EXPECT_EQ((measured[{0, r}]), kHaloUnits) << "rank " << r;
    EXPECT_EQ((measured[{1, r}]), kResidualUnits) << "rank " << r;
  }
}

TEST(ReplayPlan, EveryUnitOfEveryRankMeasuredOnceWithItsPeersLoaded) {
  const sim::StencilTrace trace = stencil(16);
  PlanOptions o;
  o.measurable = 8;
  const Plan plan = plan_steps(trace, o);
  expect_every_unit_once(trace, plan, 8);
  EXPECT_GT(plan.black_holes, 0);
  EXPECT_LE(plan.black_holes, 8);
}

TEST(ReplayPlan, AllRanksLoadedIsOneStepPerPhaseWithoutBlackHoles) {
  const sim::StencilTrace trace = stencil(4);
  PlanOptions o;
  o.measurable = 16;
  const Plan plan = plan_steps(trace, o);
  ASSERT_EQ(plan.steps.size(), 2u);
  EXPECT_EQ(plan.black_holes, 0);
  expect_every_unit_once(trace, plan, 16);
}

TEST(ReplayPlan, TooFewMeasurableProcessesIsAnErrorNamingTheEvent) {
  const sim::StencilTrace trace = stencil(4);
  PlanOptions o;
  o.measurable = 1;
  try {
    plan_steps(trace, o);
    FAIL() << "a rank and its peer cannot be measured on one process";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("R too small"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("rank 0"), std::string::npos) << e.what();
  }
}

TEST(ReplayPlan, KeptPlacementPutsOneApplicationNodeOnEachMeasurableNode) {
  const sim::StencilTrace trace = stencil(8);
  PlanOptions o;
  o.measurable = 8;
  o.ranks_per_node = 4;
  o.nodes = 2;
  o.node_slots = 4;
  const Plan plan = plan_steps(trace, o);
  expect_every_unit_once(trace, plan, 8);
  for (const PlannedStep& s : plan.steps) {
    for (int g = 0; g < 2; ++g) {
      std::set<std::int32_t> nodes;
      for (int j = 0; j < 4; ++j)
        if (s.ranks[static_cast<std::size_t>(g * 4 + j)] >= 0)
          nodes.insert(s.ranks[static_cast<std::size_t>(g * 4 + j)] / 4);
      EXPECT_LE(nodes.size(), 1u) << "slots of measurable node " << g;
    }
  }
}

TEST(ReplayPlan, EncodesAndDecodesTheSameSetup) {
  const sim::StencilTrace trace = stencil(8);
  // 16 processes, 4 per node.
  std::vector<int> node(16);
  for (int p = 0; p < 16; ++p) node[static_cast<std::size_t>(p)] = p / 4;
  SetupOptions o;
  o.ranks_per_node = 4;
  const replay::Setup s = make_setup(trace, node, o);
  EXPECT_TRUE(s.placement_kept) << s.placement;
  // Black holes on nodes of their own: none shares a node with a measurable process.
  for (const int b : s.black_holes)
    for (const int m : s.measurable)
      EXPECT_NE(node[static_cast<std::size_t>(b)], node[static_cast<std::size_t>(m)]);
  const replay::Setup back = decode_setup(encode_setup(s));
  EXPECT_EQ(back.measurable, s.measurable);
  EXPECT_EQ(back.black_holes, s.black_holes);
  EXPECT_EQ(back.noise_pairs, s.noise_pairs);
  EXPECT_EQ(back.placement, s.placement);
  ASSERT_EQ(back.plan.steps.size(), s.plan.steps.size());
  for (std::size_t i = 0; i < s.plan.steps.size(); ++i) {
    EXPECT_EQ(back.plan.steps[i].ranks, s.plan.steps[i].ranks);
    EXPECT_EQ(back.plan.steps[i].measured, s.plan.steps[i].measured);
    EXPECT_EQ(back.plan.steps[i].black_hole, s.plan.steps[i].black_hole);
  }
  EXPECT_EQ(back.plan.traffic.size(), s.plan.traffic.size());
}

TEST(ReplaySetup, OneNodeForManyApplicationNodesIsSaidNotKept) {
  const sim::StencilTrace trace = stencil(8);
  const replay::Setup s = make_setup(trace, std::vector<int>(8, 0), SetupOptions{});
  EXPECT_FALSE(s.placement_kept);
  EXPECT_NE(s.placement.find("NOT kept"), std::string::npos);
  EXPECT_EQ(s.measurable.size(), 4u);
  EXPECT_LE(s.black_holes.size() + s.measurable.size() + 2 * s.noise_pairs.size(), 8u);
}

TEST(CollectiveFit, RecoversLinearAndTreeCosts) {
  const std::vector<int> sizes = sample_sizes(32);
  std::vector<double> linear, tree;
  for (const int p : sizes) {
    linear.push_back(2e-6 + 1e-7 * p);
    tree.push_back(3e-6 + 4e-6 * std::floor(std::log2(p)));
  }
  const CollectiveFit l = fit_collective(sizes, linear);
  EXPECT_NEAR(l.at(1024), 2e-6 + 1e-7 * 1024, 1e-9);
  const CollectiveFit t = fit_collective(sizes, tree);
  EXPECT_NEAR(t.at(256), 3e-6 + 4e-6 * 8, 1e-9);
  EXPECT_NEAR(t.b, 0, 1e-12);
  EXPECT_LT(t.max_relative_residual, 1e-9);
  // A cost that falls with P is no reason to extrapolate a negative time: terms stay >= 0.
  const CollectiveFit f = fit_collective({2, 4, 8}, {3e-6, 2e-6, 1e-6});
  EXPECT_GE(f.b, 0);
  EXPECT_GE(f.c, 0);
  EXPECT_THROW(fit_collective({}, {}), std::invalid_argument);
}

// Recursive doubling's rounds: log2 P at a power of two, two more elsewhere (the ranks beyond
// the largest power of two folded in and out), 4 us each.
double recursive_doubling(int p) {
  const double rounds = std::floor(std::log2(p)) + ((p & (p - 1)) == 0 ? 0 : 2);
  return 4e-6 * rounds;
}

TEST(CollectiveFit, RecursiveDoublingIsFittedFromTheSizesOfNsKind) {
  const std::vector<int> sizes = sample_sizes(32);
  std::vector<double> seconds;
  for (const int p : sizes) seconds.push_back(recursive_doubling(p));
  const auto fitted_at = [&](std::int64_t n) {
    std::vector<int> s;
    std::vector<double> t;
    for (const std::size_t i : fit_points(sizes, n)) {
      s.push_back(sizes[i]);
      t.push_back(seconds[i]);
    }
    for (const int p : s) EXPECT_EQ((p & (p - 1)) == 0, (n & (n - 1)) == 0) << "P = " << p;
    return fit_collective(s, t).at(static_cast<double>(n));
  };
  for (const std::int64_t n : {64, 256, 4096, 100, 1000}) {
    EXPECT_NEAR(fitted_at(n), recursive_doubling(static_cast<int>(n)), 1e-12) << "N = " << n;
  }
  // Over both kinds the fit misses it: what made a halo phase's replay 6 % long.
  EXPECT_GT(fit_collective(sizes, seconds).at(256), 1.1 * recursive_doubling(256));
  // Too few of N's kind measured: every size.
  EXPECT_EQ(fit_points({2, 3, 4, 5}, 8).size(), 4u);
}

// An MPI that changes algorithm with P (as real ones choose by communicator and message size):
// a binomial tree up to 7 members, a linear one from 8 on. No law of the three terms lies near
// both, so the replay must say its time at N is a guess, not extrapolate one silently.
TEST(CollectiveFit, AnAlgorithmThatChangesWithPIsNamedAsAGuess) {
  const std::vector<int> sizes = sample_sizes(32);
  std::vector<double> seconds;
  for (const int p : sizes)
    seconds.push_back(p < 8 ? 4e-6 * std::ceil(std::log2(p)) : 4e-6 + 3e-6 * p);
  CollectiveResult c;
  c.op = "allreduce";
  c.bytes = 8;
  c.members = 256;
  c.sizes = sizes;
  c.seconds = seconds;
  c.fit_sizes = sizes;
  c.fit = fit_collective(sizes, seconds);
  c.at_n_seconds = c.fit.at(256);
  EXPECT_FALSE(c.fit.follows_points());
  const std::string why = fit_misses_because(c);
  EXPECT_NE(why.find("allreduce of 8 bytes"), std::string::npos) << why;
  EXPECT_NE(why.find("N = 256"), std::string::npos) << why;
  // Each law alone is followed: a tree, a linear root, recursive doubling from N's kind.
  for (const auto& law :
       std::vector<double (*)(int)>{[](int p) { return 3e-6 + 4e-6 * std::floor(std::log2(p)); },
                                    [](int p) { return 2e-6 + 1e-7 * p; }}) {
    std::vector<double> t;
    for (const int p : sizes) t.push_back(law(p));
    c.fit = fit_collective(sizes, t);
    EXPECT_TRUE(c.fit.follows_points());
    EXPECT_EQ(fit_misses_because(c), "");
  }
}

TEST(ReplayResultJson, ThePhasesVerdictsReadBackAsWritten) {
  ReplayResult r;
  r.source = "app.slt";
  r.nprocs = 64;
  r.processes = 8;
  r.measurable = 4;
  r.compute = "spin";
  r.repetitions = 3;
  r.steps = 6;
  r.phases.resize(3);
  for (PhaseResult& ph : r.phases) {
    ph.weight = 10;
    ph.steps = 2;
    ph.collectives = "fit";
  }
  r.phases[0].name = "phase 0";
  r.phases[1].name = "phase 1";
  r.phases[1].not_held = "a cycle of 256 ranks";
  r.phases[2].name = "phase 2";
  r.phases[2].collective_fit_misses = "allreduce of 8 bytes: a guess";
  const nlohmann::ordered_json j = to_json(r);
  EXPECT_TRUE(j.at("phases")[0].at("held").get<bool>());
  EXPECT_TRUE(j.at("phases")[0].at("collective_fit_holds").get<bool>());
  EXPECT_FALSE(j.at("phases")[1].at("held").get<bool>());
  EXPECT_FALSE(j.at("phases")[2].at("collective_fit_holds").get<bool>());
  const ReplayResult back = replay_result_of(nlohmann::json::parse(j.dump()));
  ASSERT_EQ(back.phases.size(), 3u);
  EXPECT_EQ(back.phases[0].not_held, "");
  EXPECT_EQ(back.phases[0].collective_fit_misses, "");
  EXPECT_EQ(back.phases[1].not_held, "a cycle of 256 ranks");
  EXPECT_EQ(back.phases[2].collective_fit_misses, "allreduce of 8 bytes: a guess");
  // A verdict of no without its reason is an error, not a silent yes.
  nlohmann::json broken = nlohmann::json::parse(j.dump());
  broken["phases"][2].erase("collective_fit_misses_because");
  EXPECT_ANY_THROW(replay_result_of(broken));
}

}  // namespace
}  // namespace p3s::replay
