// The paper's slot matching (model/template_alignment.hpp) on patterns whose directions the test
// computes from the grid itself: a non-periodic cube whose ranks exchange with up to 26
// neighbours in one fixed order (a corner has 7), waits that follow their sends, and the run at
// n = 1 where every neighbour is missing; a periodic grid 2 wide, where both sides of a
// dimension are one rank and only the order places a call.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <map>
#include <set>

#include "model/template_alignment.hpp"
#include "signature/event_token.hpp"

namespace p3s::model {
namespace {

using signature::EventToken;
using Direction = std::array<int, 3>;

// The 26 directions, dz slowest, dx fastest.
std::vector<Direction> directions() {
  std::vector<Direction> out;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx)
        if (dx != 0 || dy != 0 || dz != 0) out.push_back({dx, dy, dz});
  return out;
}

struct Cube {
  int k = 1;
  Direction coords(int r) const { return {r % k, (r / k) % k, r / (k * k)}; }
  // The neighbour across d, or -1 outside the cube.
  int neighbour(int r, const Direction& d) const {
    const Direction c = coords(r);
    Direction t{};
    for (int i = 0; i < 3; ++i) {
      t[i] = c[i] + d[i];
      if (t[i] < 0 || t[i] >= k) return -1;
    }
    return t[0] + k * (t[1] + k * t[2]);
  }
};

std::int32_t relative(int rank, int peer, int n) {
  return signature::relative_rank(peer, rank, n);
}

// Every rank of a k^3 cube: irecv from each neighbour, isend to each, a waitall on the
// receives, a wait per send, an allreduce; with the events it completes.
PhaseRun cube_run(int k) {
  const Cube cube{k};
  const int n = k * k * k;
  PhaseRun run;
  run.n = n;
  for (int r = 0; r < n; ++r) {
    std::vector<EventToken> events;
    std::vector<std::vector<std::int32_t>> completes;
    std::vector<std::int32_t> receives, sends;
    for (const Direction& d : directions()) {
      const int peer = cube.neighbour(r, d);
      if (peer < 0) continue;
      EventToken t;
      t.op = core::Op::Irecv;
      t.src = relative(r, peer, n);
      t.rtag = 1;
      t.rbytes = 64;
      receives.push_back(static_cast<std::int32_t>(events.size()));
      events.push_back(t);
      completes.emplace_back();
    }
    for (const Direction& d : directions()) {
      const int peer = cube.neighbour(r, d);
      if (peer < 0) continue;
      EventToken t;
      t.op = core::Op::Isend;
      t.dst = relative(r, peer, n);
      t.tag = 1;
      t.bytes = 64;
      sends.push_back(static_cast<std::int32_t>(events.size()));
      events.push_back(t);
      completes.emplace_back();
    }
    EventToken all;
    all.op = core::Op::Waitall;
    events.push_back(all);
    completes.push_back(receives);
    for (std::int32_t s : sends) {
      EventToken w;
      w.op = core::Op::Wait;
      events.push_back(w);
      completes.push_back({s});
    }
    EventToken reduce;
    reduce.op = core::Op::Allreduce;
    events.push_back(reduce);
    completes.emplace_back();
    run.ranks.push_back(events);
    run.completes.push_back(completes);
  }
  return run;
}

// The direction of rank r's event e on the cube, from the peer the event names.
Direction direction_of(const PhaseRun& run, int r, const EventToken& e) {
  const Cube cube{static_cast<int>(std::lround(std::cbrt(run.n)))};
  const std::int32_t rel = e.dst >= 0 ? e.dst : e.src;
  const int peer = static_cast<int>((r + rel) % run.n);
  const Direction a = cube.coords(r), b = cube.coords(peer);
  return {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
}

// Per slot, the (operation, direction) pairs of the calls placed in it.
std::vector<std::set<std::pair<core::Op, Direction>>> directions_by_slot(
    const std::vector<PhaseRun>& runs, const Alignment& a) {
  const std::size_t slots = a.runs.front().slot_events.size();
  std::vector<std::set<std::pair<core::Op, Direction>>> seen(slots);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    for (std::size_t s = 0; s < slots; ++s) {
      for (int r = 0; r < runs[i].n; ++r) {
        const auto& e = a.runs[i].slot_events[s][static_cast<std::size_t>(r)];
        if (!e || !core::is_point_to_point(e->op)) continue;
        seen[s].insert({e->op, direction_of(runs[i], r, *e)});
      }
    }
  }
  return seen;
}

TEST(TemplateAlignment, EverySlotIsOneDirectionOnEveryRankOfEveryRunOfACube) {
  const std::vector<PhaseRun> runs = {cube_run(1), cube_run(2), cube_run(3)};
  const Alignment a = align_to_template(runs, 3);
  ASSERT_TRUE(a.aligned()) << a.failure;
  ASSERT_EQ(a.runs.size(), 3u);
  const std::size_t slots = a.runs.front().slot_events.size();
  // 26 receives, 26 sends, a waitall, 26 waits, an allreduce.
  EXPECT_EQ(slots, 80u);
  const auto seen = directions_by_slot(runs, a);
  for (std::size_t s = 0; s < slots; ++s) {
    EXPECT_LE(seen[s].size(), 1u) << "slot " << s << " holds calls in several directions";
  }
  // Every wait slot completes one send slot, and a rank waits there exactly where it sent: a
  // corner's missing send takes its wait with it.
  std::size_t waits = 0;
  for (std::size_t s = 0; s < slots; ++s) {
    if (a.slot_completes[s].size() != 1) continue;
    ++waits;
    const auto send = static_cast<std::size_t>(a.slot_completes[s].front());
    ASSERT_EQ(seen[send].size(), 1u);
    EXPECT_EQ(seen[send].begin()->first, core::Op::Isend);
    for (const AlignedRun& run : a.runs) {
      for (std::size_t r = 0; r < run.slot_events[s].size(); ++r) {
        EXPECT_EQ(run.slot_events[s][r].has_value(), run.slot_events[send][r].has_value())
            << "n = " << run.n << " rank " << r << " slot " << s;
      }
    }
  }
  EXPECT_EQ(waits, 26u);
  // n = 1: the rank makes only the waitall and the allreduce, both slots every rank has.
  EXPECT_EQ(a.runs.front().order[0].size(), 2u);
}

// On a line of ranks, a 2 x 2 x 2 cube's +y (r + 2) looks like a 3 x 3 x 3 cube's (-1, +1, 0)
// (r - 1 + 3): offsets alone put calls of different directions in one slot, which the peer
// rules then cannot explain; the 3D template does not.
TEST(TemplateAlignment, OffsetsAloneMixDirectionsOnACube) {
  const std::vector<PhaseRun> runs = {cube_run(2), cube_run(3)};
  const Alignment line = align_to_template(runs, 1);
  ASSERT_TRUE(line.aligned()) << line.failure;
  const auto mixed = directions_by_slot(runs, line);
  EXPECT_TRUE(std::any_of(mixed.begin(), mixed.end(), [](const auto& s) { return s.size() > 1; }));
  const Alignment cube = align_to_template(runs, 3);
  ASSERT_TRUE(cube.aligned()) << cube.failure;
  const auto one = directions_by_slot(runs, cube);
  EXPECT_TRUE(std::all_of(one.begin(), one.end(), [](const auto& s) { return s.size() <= 1; }));
}

// A periodic k x k grid: sendrecv to +x then -x then +y then -y, all with the same tag.
PhaseRun torus_run(int k) {
  const int n = k * k;
  PhaseRun run;
  run.n = n;
  for (int r = 0; r < n; ++r) {
    const int x = r % k, y = r / k;
    std::vector<EventToken> events;
    for (const auto& [dx, dy] :
         std::vector<std::pair<int, int>>{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}) {
      const int to = (x + dx + k) % k + k * ((y + dy + k) % k);
      const int from = (x - dx + k) % k + k * ((y - dy + k) % k);
      EventToken t;
      t.op = core::Op::Sendrecv;
      t.dst = relative(r, to, n);
      t.src = relative(r, from, n);
      t.tag = t.rtag = 0;
      events.push_back(t);
    }
    run.ranks.push_back(events);
    run.completes.push_back(std::vector<std::vector<std::int32_t>>(events.size()));
  }
  return run;
}

TEST(TemplateAlignment, OnAGridTwoWideTheOrderPlacesCallsWhoseSidesAreOneRank) {
  const std::vector<PhaseRun> runs = {torus_run(2), torus_run(3), torus_run(4)};
  const Alignment a = align_to_template(runs, 2);
  ASSERT_TRUE(a.aligned()) << a.failure;
  ASSERT_EQ(a.runs.front().slot_events.size(), 4u);
  for (const AlignedRun& run : a.runs) {
    for (const auto& order : run.order) {
      EXPECT_EQ(order, (std::vector<std::int32_t>{0, 1, 2, 3}));
    }
  }
}

// One iteration of a pipelined sweep on a chain of n ranks, forward then backward, `chunks`
// chunks each (tag 1 + sweep * chunks + c), as the signature gives it: receive from upstream,
// wait for the previous sends where the rank sends next, send downstream; an allreduce. The
// first wait of an iteration completes the iteration before's last sends, so it ends that one.
PhaseRun chain_sweep_run(int n, int chunks) {
  PhaseRun run;
  run.n = n;
  for (int r = 0; r < n; ++r) {
    std::vector<EventToken> events;
    std::vector<std::vector<std::int32_t>> completes;
    auto add = [&](EventToken t, std::vector<std::int32_t> done) {
      events.push_back(t);
      completes.push_back(std::move(done));
    };
    std::int32_t pending = -1;  // the event of the last sends, in this iteration
    bool carried = false;
    for (int sweep = 0; sweep < 2; ++sweep) {
      const int step = sweep == 0 ? 1 : -1;
      const int up = r - step, down = r + step;
      for (int c = 0; c < chunks; ++c) {
        const std::int32_t tag = 1 + sweep * chunks + c;
        if (up >= 0 && up < n) {
          EventToken t;
          t.op = core::Op::Recv;
          t.src = relative(r, up, n);
          t.rtag = tag;
          t.rbytes = 64;
          add(t, {});
        }
        if (down < 0 || down >= n) continue;
        EventToken w;
        w.op = core::Op::Waitall;
        if (pending >= 0) {
          add(w, {pending});
        } else {
          carried = true;
        }
        EventToken t;
        t.op = core::Op::Isend;
        t.dst = relative(r, down, n);
        t.tag = tag;
        t.bytes = 64;
        pending = static_cast<std::int32_t>(events.size());
        add(t, {});
      }
    }
    EventToken reduce;
    reduce.op = core::Op::Allreduce;
    add(reduce, {});
    if (carried) {
      EventToken w;
      w.op = core::Op::Waitall;
      add(w, {pending});
    }
    run.ranks.push_back(events);
    run.completes.push_back(completes);
  }
  return run;
}

// The end ranks of the chain skip the waits of the sweep they send nothing in, so the k-th
// waitall is another chunk's on each: each waitall is the slot of the sends after it.
TEST(TemplateAlignment, APipelinesWaitsSkippedByTheEndRanksAreTheSlotsOfTheSendsAfterThem) {
  const std::vector<PhaseRun> runs = {chain_sweep_run(3, 2), chain_sweep_run(4, 2),
                                      chain_sweep_run(6, 2)};
  const Alignment a = align_to_template(runs, 1);
  ASSERT_TRUE(a.aligned()) << a.failure;
  // Per chunk a receive, a waitall and a send from each sweep, but the first chunk's waitall,
  // which ends the iteration before on every rank; the allreduce and that waitall.
  ASSERT_EQ(a.runs.back().slot_events.size(), 2u * 2u * 3u - 1u + 2u);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    for (int r = 0; r < runs[i].n; ++r) {
      const std::vector<std::int32_t>& order = a.runs[i].order[static_cast<std::size_t>(r)];
      for (std::size_t e = 0; e < order.size(); ++e) {
        // A waitall before a send is in the slot right before that send's slot, whose calls
        // on every rank of every run have the send's tag.
        const std::vector<EventToken>& events = runs[i].ranks[static_cast<std::size_t>(r)];
        if (events[e].op != core::Op::Waitall || e + 1 == order.size()) continue;
        EXPECT_EQ(order[e + 1], order[e] + 1) << "n = " << runs[i].n << ", rank " << r;
        for (const AlignedRun& other : a.runs) {
          for (const auto& call : other.slot_events[static_cast<std::size_t>(order[e + 1])]) {
            if (call) {
              EXPECT_EQ(call->tag, events[e + 1].tag);
            }
          }
        }
      }
    }
  }
}

// On a ring every rank sends to the next twice; the last rank in the other order of tags.
TEST(TemplateAlignment, CallsNoOneOrderHoldsAreNamedWithTheirRanks) {
  PhaseRun run;
  run.n = 3;
  for (int r = 0; r < 3; ++r) {
    std::vector<EventToken> events;
    for (std::int32_t tag : r == 2 ? std::vector<std::int32_t>{2, 1} : std::vector{1, 2}) {
      EventToken t;
      t.op = core::Op::Send;
      t.dst = 1;
      t.tag = tag;
      events.push_back(t);
    }
    run.ranks.push_back(events);
    run.completes.push_back(std::vector<std::vector<std::int32_t>>(events.size()));
  }
  const Alignment a = align_to_template(std::vector<PhaseRun>{run}, 1);
  ASSERT_FALSE(a.aligned());
  EXPECT_NE(a.failure.find("rank 2 makes its call 0, send (tag 2), right before its call 1, send "
                           "(tag 1); rank 0 makes them the other way round"),
            std::string::npos)
      << a.failure;
}

}  // namespace
}  // namespace p3s::model
