#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>
#include <random>
#include <variant>
#include <vector>

#include "model/integer_math.hpp"
#include "model/peer_inference.hpp"
#include "model/process_grid.hpp"
#include "model/slot_sequence.hpp"

namespace p3s::model {
namespace {

using PeerOf = std::function<std::int64_t(std::int64_t rank, std::int64_t n)>;

std::vector<PeerSample> runs(const std::vector<std::int64_t>& ns, const PeerOf& peer_of) {
  std::vector<PeerSample> samples;
  for (std::int64_t n : ns) {
    PeerSample s{n, 0, {}};
    for (std::int64_t r = 0; r < n; ++r) s.peers.push_back(peer_of(r, n));
    samples.push_back(std::move(s));
  }
  return samples;
}

// The rule must give every rank, borders included, the generating function's peer at n.
void expect_reproduces(const PeerRule& rule, std::int64_t n, const PeerOf& peer_of) {
  const PeerMap map = rule.at(n);
  for (std::int64_t r = 0; r < n; ++r) {
    ASSERT_EQ(map(r), peer_of(r, n)) << rule.text() << " at n = " << n << ", rank " << r;
  }
}

PeerRule infer_and_check(const std::vector<std::int64_t>& ns, std::int64_t target,
                         const PeerOf& peer_of) {
  const PeerRuleInference inference = infer_peer_rule(runs(ns, peer_of));
  EXPECT_TRUE(inference.modelled()) << inference.reason << "; closest: " << inference.closest;
  if (!inference.modelled()) return {};
  expect_reproduces(*inference.rule, target, peer_of);
  return *inference.rule;
}

// app_stencil2d: a non-periodic sqrt(n) x sqrt(n) grid, row-major.
std::int64_t stencil(std::int64_t r, std::int64_t n, int di, int dj) {
  const std::int64_t q = *exact_root(n, 2);
  const std::int64_t i = r / q + di;
  const std::int64_t j = r % q + dj;
  return i < 0 || i >= q || j < 0 || j >= q ? kNoPeer : i * q + j;
}

TEST(PeerInference, StencilNeighboursOnSquareGrids) {
  const std::vector<std::int64_t> ns = {4, 9, 16, 25};
  const PeerRule north =
      infer_and_check(ns, 256, [](auto r, auto n) { return stencil(r, n, -1, 0); });
  // r - sqrt(n) reproduces it too; the grid's constant offset is the simpler general equation.
  EXPECT_EQ(north.text(),
            "peer = (i - 1, j) on the sqrt(n) x sqrt(n) grid, row-major; none "
            "outside the grid");
  infer_and_check(ns, 256, [](auto r, auto n) { return stencil(r, n, 1, 0); });
  const PeerRule west =
      infer_and_check(ns, 256, [](auto r, auto n) { return stencil(r, n, 0, -1); });
  EXPECT_EQ(west.text(),
            "peer = (i, j - 1) on the sqrt(n) x sqrt(n) grid, row-major; none "
            "outside the grid");
  infer_and_check(ns, 256, [](auto r, auto n) { return stencil(r, n, 0, 1); });
}

TEST(PeerInference, RingIsAPeriodicShift) {
  const PeerRule right =
      infer_and_check({4, 6, 9, 16}, 1000, [](auto r, auto n) { return (r + 1) % n; });
  EXPECT_EQ(right.text(), "peer = (r + 1) mod n");
  const PeerRule left =
      infer_and_check({4, 6, 9, 16}, 1000, [](auto r, auto n) { return (r - 1 + n) % n; });
  EXPECT_EQ(left.text(), "peer = (r - 1) mod n");
}

TEST(PeerInference, DistanceAsAFunctionOfN) {
  // BT's general equations: peer = r + (n - sqrt(n)) for the top row, none elsewhere.
  const PeerRule rule = infer_and_check({16, 36, 64, 81}, 1024, [](auto r, auto n) {
    const std::int64_t peer = r + n - *exact_root(n, 2);
    return peer < n ? peer : kNoPeer;
  });
  // The same peers as r + (n - sqrt(n)), in one term fewer: sqrt(n) - 1 rows down the grid.
  EXPECT_EQ(rule.text(),
            "peer = (i + (sqrt(n) - 1), j) on the sqrt(n) x sqrt(n) grid, row-major; none "
            "outside the grid");
}

TEST(PeerInference, WavefrontOnDimsCreateGrids) {
  // app_wavefront: px x py = MPI_Dims_create(n, 2), row-major, east and south neighbours.
  const auto neighbour = [](std::int64_t r, std::int64_t n, int di, int dj) {
    const std::vector<std::int64_t> dims = balanced_dims(n, 2);
    const std::int64_t i = r / dims[1] + di;
    const std::int64_t j = r % dims[1] + dj;
    return i < 0 || i >= dims[0] || j < 0 || j >= dims[1] ? kNoPeer : i * dims[1] + j;
  };
  const std::vector<std::int64_t> ns = {6, 12, 20, 30};
  const PeerRule south =
      infer_and_check(ns, 120, [&](auto r, auto n) { return neighbour(r, n, 1, 0); });
  EXPECT_EQ(south.text(),
            "peer = (i + 1, j) on the MPI_Dims_create(n, 2) grid, row-major; "
            "none outside the grid");
  infer_and_check(ns, 120, [&](auto r, auto n) { return neighbour(r, n, 0, 1); });
  infer_and_check(ns, 120, [&](auto r, auto n) { return neighbour(r, n, -1, 0); });
  infer_and_check(ns, 120, [&](auto r, auto n) { return neighbour(r, n, 0, -1); });
}

TEST(PeerInference, SweepNeighbourOnPowerOfTwoGrids) {
  // Sweep3D (002 Table 1): the north neighbour is sqrt(n) away when log2(n) is even and
  // sqrt(n/2) when odd, which is just the row length of MPI_Dims_create's grid.
  const auto north = [](std::int64_t r, std::int64_t n) {
    const std::int64_t py = balanced_dims(n, 2)[1];
    return r >= py ? r - py : kNoPeer;
  };
  const PeerRule rule = infer_and_check({4, 8, 16, 32}, 4096, north);
  expect_reproduces(rule, 2048, north);
}

TEST(PeerInference, ColumnMajorPeriodicGrid) {
  // A torus numbered column-major (rank = i + j * px), the neighbour one column left.
  const auto peer_of = [](std::int64_t r, std::int64_t n) {
    const std::vector<std::int64_t> dims = balanced_dims(n, 2);
    const std::int64_t i = r % dims[0];
    const std::int64_t j = floor_mod(r / dims[0] - 1, dims[1]);
    return i + j * dims[0];
  };
  const PeerRule rule = infer_and_check({6, 12, 20, 30}, 120, peer_of);
  EXPECT_EQ(rule.text(),
            "peer = (i, j - 1) on the MPI_Dims_create(n, 2) grid, column-major; "
            "periodic in j, none outside the others");
}

TEST(PeerInference, CubeNeighbour) {
  const auto peer_of = [](std::int64_t r, std::int64_t n) {
    const std::int64_t q = *exact_root(n, 3);
    const std::int64_t k = r % q + 1;
    return k < q ? r + 1 : kNoPeer;
  };
  infer_and_check({8, 27, 64, 125}, 512, peer_of);
}

// A multigrid's coarse level with 2 points per dimension on app_mgrid's grid (x fastest,
// extents 2^floor(k/3), 2^ceil((k-1)/3), 2^ceil(k/3) for n = 2^k): along a dimension of q > 2
// ranks only every (q / 2)-th holds a point; the others are idle. The upper neighbour along z,
// periodic, counts the ranks that hold points.
std::int64_t coarse_upper_z(std::int64_t r, std::int64_t n) {
  const std::int64_t k = *exact_log2(n);
  const std::int64_t q[3] = {std::int64_t{1} << (k / 3), std::int64_t{1} << ((k + 1) / 3),
                             std::int64_t{1} << ((k + 2) / 3)};
  std::int64_t c[3] = {r % q[0], r / q[0] % q[1], r / (q[0] * q[1])};
  std::int64_t stride[3];
  for (int d = 0; d < 3; ++d) {
    stride[d] = q[d] > 2 ? q[d] / 2 : 1;
    if (c[d] % stride[d] != 0) return kNoPeer;
  }
  c[2] = (c[2] + stride[2]) % q[2];
  const std::int64_t peer = c[0] + q[0] * (c[1] + q[1] * c[2]);
  return peer == r ? kNoPeer : peer;  // a dimension of extent 1: no message to itself
}

TEST(PeerInference, IdleRanksOnACoarseMultigridLevel) {
  const PeerRule rule = infer_and_check({1, 2, 4, 8, 16}, 256, coarse_upper_z);
  const auto* grid = std::get_if<GridPeerRule>(&rule.form);
  ASSERT_NE(grid, nullptr) << rule.text();
  EXPECT_EQ(grid->planes, 2) << rule.text();
  expect_reproduces(rule, 4096, coarse_upper_z);
  // Without a run that strides a dimension, nothing says where the ranks go idle.
  const PeerRuleInference unseen = infer_peer_rule(runs({2, 4, 8}, coarse_upper_z));
  ASSERT_TRUE(unseen.modelled()) << unseen.reason;
  EXPECT_FALSE(std::get_if<GridPeerRule>(&unseen.rule->form) &&
               std::get<GridPeerRule>(unseen.rule->form).planes > 0)
      << unseen.rule->text();
}

TEST(PeerInference, FixedRoot) {
  const PeerRule to_zero =
      infer_and_check({4, 8, 9, 16}, 100, [](auto r, auto) { return r == 0 ? kNoPeer : 0; });
  EXPECT_EQ(to_zero.text(), "peer = 0 (none for that rank itself)");
  const PeerRule to_last = infer_and_check(
      {4, 8, 9, 16}, 100, [](auto r, auto n) { return r == n - 1 ? kNoPeer : n - 1; });
  EXPECT_EQ(to_last.text(), "peer = n - 1 (none for that rank itself)");
}

TEST(PeerInference, NoCommunicationAtAll) {
  const PeerRule rule = infer_and_check({4, 8}, 64, [](auto, auto) { return kNoPeer; });
  EXPECT_EQ(rule.text(), "none");
}

TEST(PeerInference, ExchangeOfABitThatMovesWithN) {
  // (r XOR n/2 is also (r + n/2) mod n, which the simpler shift claims first.)
  const PeerRule rule =
      infer_and_check({8, 16, 32, 64}, 1024, [](auto r, auto n) { return r ^ (n / 4); });
  EXPECT_EQ(rule.text(), "peer = r XOR 2^(log2(n) - 2), none if >= n");
}

TEST(PeerInference, FixedPermutations) {
  const PeerRule mirror = infer_and_check({4, 6, 9}, 100, [](auto r, auto n) { return n - 1 - r; });
  EXPECT_EQ(mirror.text(), "peer = n - 1 - r");
  const PeerRule shuffle = infer_and_check({4, 8, 16, 32}, 256, [](auto r, auto n) {
    const std::int64_t bits = *exact_log2(n);
    return ((r << 1) | (r >> (bits - 1))) & (n - 1);
  });
  EXPECT_EQ(shuffle.text(), "peer = r's log2(n) bits rotated left by 1");
}

TEST(PeerInference, RandomPermutationIsNotModelled) {
  std::mt19937 random(12345);
  std::vector<PeerSample> samples;
  for (std::int64_t n : {8, 12, 16, 20}) {
    PeerSample s{n, 0, std::vector<std::int64_t>(static_cast<std::size_t>(n))};
    std::iota(s.peers.begin(), s.peers.end(), 0);
    std::shuffle(s.peers.begin(), s.peers.end(), random);
    samples.push_back(std::move(s));
  }
  const PeerRuleInference inference = infer_peer_rule(samples);
  ASSERT_FALSE(inference.modelled()) << inference.rule->text();
  EXPECT_FALSE(inference.closest.empty());
  EXPECT_FALSE(inference.reason.empty());
  EXPECT_EQ(inference.checked_count, 8U + 12 + 16 + 20);
  EXPECT_GT(inference.mismatch_count, 0U);
  ASSERT_FALSE(inference.mismatches.empty());
  EXPECT_LE(inference.mismatches.size(), 8U);
  // Each failing rank is named with what the run did and what the rule said.
  for (const PeerMismatch& m : inference.mismatches) {
    const PeerSample& run = *std::find_if(samples.begin(), samples.end(),
                                          [&](const PeerSample& s) { return s.n == m.n; });
    EXPECT_EQ(run.peers[static_cast<std::size_t>(m.rank)], m.expected);
    EXPECT_NE(m.expected, m.predicted);
  }
}

TEST(PeerInference, LocalEquationsWithoutAGeneralOne) {
  // A ring whose stride changes with n in no pattern: each run alone is a periodic shift.
  const std::vector<std::int64_t> strides = {1, 3, 2, 5};
  std::vector<PeerSample> samples;
  for (std::size_t i = 0; i < strides.size(); ++i) {
    const std::int64_t n = 11 + 2 * static_cast<std::int64_t>(i);
    PeerSample s{n, 0, {}};
    for (std::int64_t r = 0; r < n; ++r) s.peers.push_back((r + strides[i]) % n);
    samples.push_back(std::move(s));
  }
  const PeerRuleInference inference = infer_peer_rule(samples);
  ASSERT_FALSE(inference.modelled());
  EXPECT_EQ(inference.mismatch_count, 0U);
  EXPECT_NE(inference.reason.find(
                "distance (1 at n = 11; 3 at n = 13; 2 at n = 15; 5 at n = 17) follows no formula"),
            std::string::npos)
      << inference.reason;
}

TEST(PeerInference, RejectsMalformedRuns) {
  EXPECT_THROW(infer_peer_rule(std::vector<PeerSample>{}), std::invalid_argument);
  EXPECT_THROW(infer_peer_rule(std::vector<PeerSample>{{4, 0, {1, 0, 3}}}), std::invalid_argument);
  EXPECT_THROW(infer_peer_rule(std::vector<PeerSample>{{2, 0, {1, 2}}}), std::invalid_argument);
}

std::vector<PhasePeers> butterfly_runs(const std::vector<std::int64_t>& ns) {
  std::vector<PhasePeers> phases;
  for (std::int64_t n : ns) {
    PhasePeers phase{n, {}};
    for (std::int64_t k = 0; (std::int64_t{1} << k) < n; ++k) {
      std::vector<std::int64_t> peers;
      for (std::int64_t r = 0; r < n; ++r) peers.push_back(r ^ (std::int64_t{1} << k));
      phase.slots.push_back(std::move(peers));
    }
    phases.push_back(std::move(phase));
  }
  return phases;
}

const SlotLayout kLog2Block{1, {SlotBlock{0, 1, IntegerFormula{0, {{1, FormulaBasis::Log2}}}, {}}}};

TEST(SlotSequence, ButterflyGrowsWithLog2N) {
  const SlotSequenceInference inference =
      infer_slot_sequence(butterfly_runs({4, 8, 16, 32}), kLog2Block);
  ASSERT_TRUE(inference.modelled()) << inference.reason;
  const SlotSequenceModel& model = *inference.model;
  ASSERT_EQ(model.rules.size(), 1u);
  EXPECT_EQ(model.rules[0].text(), "peer = r XOR 2^s, none if >= n");
  const std::int64_t n = 256;
  ASSERT_EQ(kLog2Block.slots_at(n), 8);
  for (std::int64_t k = 0; k < 8; ++k) {
    const SlotLayout::Place at = kLog2Block.place(k, n);
    EXPECT_EQ(at.template_index, 0);
    EXPECT_EQ(at.s, k);
    const PeerMap map = model.rules[0].at(n, at.s);
    for (std::int64_t r = 0; r < n; ++r) ASSERT_EQ(map(r), r ^ (std::int64_t{1} << k));
  }
}

TEST(SlotSequence, FixedSlotsAroundAGrowingBlock) {
  // An FFT-like phase: a send to the next rank, log2(n) exchanges r XOR 2^s, a send back.
  std::vector<PhasePeers> phases;
  for (std::int64_t n : {4, 8, 16, 32}) {
    PhasePeers phase = butterfly_runs({n}).front();
    std::vector<std::int64_t> next, previous;
    for (std::int64_t r = 0; r < n; ++r) {
      next.push_back((r + 1) % n);
      previous.push_back((r + n - 1) % n);
    }
    phase.slots.insert(phase.slots.begin(), next);
    phase.slots.push_back(previous);
    phases.push_back(std::move(phase));
  }
  const SlotLayout layout{3, {SlotBlock{1, 1, IntegerFormula{0, {{1, FormulaBasis::Log2}}}, {}}}};
  const SlotSequenceInference inference = infer_slot_sequence(phases, layout);
  ASSERT_TRUE(inference.modelled()) << inference.reason;
  const std::int64_t n = 1024;
  ASSERT_EQ(layout.slots_at(n), 12);
  EXPECT_EQ(layout.place(0, n).template_index, 0);
  EXPECT_EQ(layout.place(5, n).template_index, 1);
  EXPECT_EQ(layout.place(5, n).s, 4);
  EXPECT_EQ(layout.place(11, n).template_index, 2);
  EXPECT_EQ(inference.model->rules[0].text(), "peer = (r + 1) mod n");
  EXPECT_EQ(inference.model->rules[1].text(), "peer = r XOR 2^s, none if >= n");
  EXPECT_EQ(inference.model->rules[2].text(), "peer = (r - 1) mod n");
}

TEST(SlotSequence, FixedSlotsGetOneRuleEach) {
  std::vector<PhasePeers> phases;
  for (std::int64_t n : {4, 9, 16, 25}) {
    PhasePeers phase{n, {{}, {}}};
    for (std::int64_t r = 0; r < n; ++r) {
      phase.slots[0].push_back(stencil(r, n, -1, 0));
      phase.slots[1].push_back(stencil(r, n, 0, 1));
    }
    phases.push_back(std::move(phase));
  }
  const SlotSequenceInference inference = infer_slot_sequence(phases, SlotLayout{2, {}});
  ASSERT_TRUE(inference.modelled()) << inference.reason;
  ASSERT_EQ(inference.model->rules.size(), 2U);
  expect_reproduces(inference.model->rules[1], 256,
                    [](auto r, auto n) { return stencil(r, n, 0, 1); });
}

TEST(SlotSequence, NamesTheSlotItCannotModel) {
  std::vector<PhasePeers> phases;
  std::mt19937 random(7);
  for (std::int64_t n : {4, 8, 16}) {
    PhasePeers phase{n, {{}, {}}};
    for (std::int64_t r = 0; r < n; ++r) phase.slots[0].push_back((r + 1) % n);
    phase.slots[1] = phase.slots[0];
    std::shuffle(phase.slots[1].begin(), phase.slots[1].end(), random);
    phases.push_back(std::move(phase));
  }
  const SlotSequenceInference inference = infer_slot_sequence(phases, SlotLayout{2, {}});
  EXPECT_FALSE(inference.modelled());
  EXPECT_EQ(inference.reason.rfind("slot 1 is not modelled", 0), 0U) << inference.reason;
  ASSERT_EQ(inference.slots.size(), 2U);
  EXPECT_TRUE(inference.slots[0].modelled());
}

// A periodic MPI_Dims_create(n, 2) grid, row-major: the rank at (i, j + dj), wrapping.
std::int64_t periodic_2d(std::int64_t r, std::int64_t n, std::int64_t dj) {
  const std::vector<std::int64_t> dims = balanced_dims(n, 2);
  const std::int64_t i = r / dims[1];
  const std::int64_t j = ((r % dims[1]) + dj + dims[1]) % dims[1];
  return i * dims[1] + j;
}

// Training grids 2 x 2, 3 x 2 and 4 x 2: the second dimension has extent 2 in every run, so its
// neighbours on both sides are one rank, r XOR 1, and nothing in the runs tells that reading
// from the grid's. At 3 x 3 they differ: the slots are undecided from n = 9 on at the latest, and
// the grid's two sides, one per slot, are among the readings offered.
TEST(SlotSequence, TwoSlotsToTheOneNeighbourOfAnExtentTwoDimensionAreUndecided) {
  std::vector<PhasePeers> phases;
  for (std::int64_t n : {4, 6, 8}) {
    PhasePeers phase{n, {{}, {}}};
    for (std::int64_t r = 0; r < n; ++r) {
      phase.slots[0].push_back(periodic_2d(r, n, -1));
      phase.slots[1].push_back(periodic_2d(r, n, +1));
    }
    phases.push_back(std::move(phase));
  }
  const SlotSequenceInference inference = infer_slot_sequence(phases, SlotLayout{2, {}});
  ASSERT_TRUE(inference.modelled()) << inference.reason;
  ASSERT_FALSE(inference.undecided.empty());
  for (const UndecidedSlot& u : inference.undecided) EXPECT_LE(u.differs_from, 9);
  const std::int64_t n = 36;  // 6 x 6
  auto reproduces = [&](const PeerRule& a, const PeerRule& b) {
    const PeerMap first = a.at(n, 0), second = b.at(n, 1);
    for (std::int64_t r = 0; r < n; ++r) {
      std::vector<std::int64_t> model = {first(r), second(r)};
      std::vector<std::int64_t> truth = {periodic_2d(r, n, -1), periodic_2d(r, n, +1)};
      std::sort(model.begin(), model.end());
      std::sort(truth.begin(), truth.end());
      if (model != truth) return false;
    }
    return true;
  };
  bool offered = false;
  for (const PeerRule& a : inference.slots[0].alternatives) {
    for (const PeerRule& b : inference.slots[1].alternatives) offered = offered || reproduces(a, b);
  }
  EXPECT_TRUE(offered) << inference.model->rules[0].text() << "; "
                       << inference.model->rules[1].text();
}

TEST(PeerRule, TheInverseGivesEachPeerItsRank) {
  const std::int64_t n = 36;
  const PeerRule right =
      infer_and_check({4, 6, 8, 12}, n, [](auto r, auto m) { return periodic_2d(r, m, +1); });
  const std::optional<PeerRule> left = inverse(right);
  ASSERT_TRUE(left);
  const PeerMap to = right.at(n), from = left->at(n);
  for (std::int64_t r = 0; r < n; ++r) EXPECT_EQ(from(to(r)), r) << left->text();
}

// Two grid rules on one grid are compared along each dimension; held here against every
// rank's peer under both, for random pairs on 2D and 3D grids, periodic or not, coarse levels
// with idle ranks, rules that skip the rank itself, rules of no peers and grids of two shapes
// included: the same answer at every n, and both answers met often.
TEST(PeerRule, GridRulesDifferWhereSomeRankHasAnotherPeer) {
  std::mt19937 random(2026);
  const auto pick = [&](std::int64_t low, std::int64_t high) {
    return std::uniform_int_distribution<std::int64_t>(low, high)(random);
  };
  const auto random_rule = [&](GridShape shape, int dims) {
    GridPeerRule g;
    g.shape = shape;
    g.order = GridOrder::RowMajor;
    for (int d = 0; d < dims; ++d) {
      g.offset.push_back(IntegerFormula{pick(-1, 1), {}});
      g.periodic.push_back(pick(0, 1) == 1);
    }
    g.planes = pick(0, 1) * 2;
    return PeerRule{g, pick(0, 1) == 1};
  };
  int differ = 0, same = 0;
  for (int trial = 0; trial < 400; ++trial) {
    // MPI_Dims_create's grid beside the least-surface one: the same at most n, not at all.
    const bool three = pick(0, 1) == 1;
    const GridShape shape = three ? GridShape::Balanced3D : GridShape::Balanced2D;
    const GridShape compact = three ? GridShape::Compact3D : GridShape::Compact2D;
    const PeerRule a = random_rule(shape, three ? 3 : 2);
    // Now and then no peers at all, which a rule that skips the rank itself can amount to.
    const PeerRule b = pick(0, 7) == 0
                           ? PeerRule{NoPeerRule{}, false}
                           : random_rule(pick(0, 1) == 1 ? shape : compact, three ? 3 : 2);
    for (std::int64_t n = 1; n <= 480; n += n < 72 ? 1 : 17) {
      bool brute = false;
      try {
        const PeerMap pa = a.at(n), pb = b.at(n);
        for (std::int64_t r = 0; r < n && !brute; ++r) brute = pa(r) != pb(r);
      } catch (const std::domain_error&) {
        brute = false;
      }
      ASSERT_EQ(rules_differ_at(a, b, n), brute) << a.text() << " | " << b.text() << " n = " << n;
      ++(brute ? differ : same);
    }
  }
  EXPECT_GT(differ, 1000);
  EXPECT_GT(same, 1000);
}

}  // namespace
}  // namespace p3s::model
