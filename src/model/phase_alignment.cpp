#include "model/phase_alignment.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

#include "core/event.hpp"
#include "model/integer_math.hpp"
#include "model/process_grid.hpp"
#include "model/template_alignment.hpp"

namespace p3s::model {
namespace {

using signature::EventToken;

// What makes two events of one run the same slot, apart from the peer offsets.
struct SlotGroup {
  core::Op op = core::Op::Barrier;
  std::int32_t tag = core::kNone;
  std::int32_t rtag = core::kNone;
  bool sub_communicator = false;  // a collective's communicator is not the world
  std::int64_t occurrence = 0;    // non-point-to-point: the k-th call of this op on the rank
  auto operator<=>(const SlotGroup&) const = default;
};

struct SlotKey {
  SlotGroup group;
  std::int64_t dst = 0;  // offsets, 0 when the event has no such peer
  std::int64_t src = 0;
  std::int64_t repeat = 0;  // the k-th identical point-to-point call on the rank
  auto operator<=>(const SlotKey&) const = default;
};

std::int64_t offset_of(std::int32_t relative, std::int64_t rank, std::int64_t n,
                       AlignmentMethod method) {
  if (relative < 0) return 0;
  if (method == AlignmentMethod::Signed) return (rank + relative) % n - rank;
  return relative > n / 2 ? relative - n : relative;
}

std::vector<SlotKey> rank_keys(const std::vector<EventToken>& events, std::int64_t rank,
                               std::int64_t n, AlignmentMethod method) {
  std::vector<SlotKey> keys;
  std::map<SlotGroup, std::int64_t> op_calls;
  std::map<SlotKey, std::int64_t> repeats;
  for (const EventToken& t : events) {
    SlotKey key;
    // A message's slot does not depend on the communicator it travels on (its peers are world
    // ranks); a collective's, on whether that is the world: each rank numbers the shapes of
    // its communicators for itself, and a row's shape differs from column to column.
    key.group = {t.op, t.tag, t.rtag, !core::is_point_to_point(t.op) && t.comm != 0, 0};
    if (core::is_point_to_point(t.op)) {
      key.dst = offset_of(t.dst, rank, n, method);
      key.src = offset_of(t.src, rank, n, method);
      key.repeat = repeats[key]++;
    } else {
      key.group.occurrence = op_calls[key.group]++;
    }
    keys.push_back(key);
  }
  return keys;
}

// The distinct keys of the ranks, the ranks with the most events first, each in its order.
std::vector<SlotKey> first_seen(const std::vector<std::vector<SlotKey>>& rank_keys_list) {
  std::vector<std::size_t> by_size(rank_keys_list.size());
  for (std::size_t r = 0; r < by_size.size(); ++r) by_size[r] = r;
  std::stable_sort(by_size.begin(), by_size.end(), [&](std::size_t a, std::size_t b) {
    return rank_keys_list[a].size() > rank_keys_list[b].size();
  });
  std::vector<SlotKey> slots;
  for (std::size_t r : by_size) {
    for (const SlotKey& k : rank_keys_list[r]) {
      if (std::find(slots.begin(), slots.end(), k) == slots.end()) slots.push_back(k);
    }
  }
  return slots;
}

// Between the slots, "comes right after on some rank" (after[a][b]: b right after a), and how
// many slots each comes right after.
struct Precedence {
  std::vector<std::vector<bool>> after;
  std::vector<std::size_t> before_count;
};

Precedence precedence(const std::vector<SlotKey>& slots,
                      const std::vector<std::vector<SlotKey>>& rank_keys_list) {
  const std::size_t count = slots.size();
  auto index_of = [&](const SlotKey& k) {
    return static_cast<std::size_t>(std::find(slots.begin(), slots.end(), k) - slots.begin());
  };
  Precedence p{std::vector<std::vector<bool>>(count, std::vector<bool>(count, false)),
               std::vector<std::size_t>(count, 0)};
  for (const std::vector<SlotKey>& keys : rank_keys_list) {
    for (std::size_t e = 1; e < keys.size(); ++e) {
      const std::size_t a = index_of(keys[e - 1]), b = index_of(keys[e]);
      if (a == b || p.after[a][b]) continue;
      p.after[a][b] = true;
      ++p.before_count[b];
    }
  }
  return p;
}

// The next slot to place: the first unplaced one that comes after no unplaced slot, unless a
// later such one is the same call (group and repeat) towards lower ranks. Nothing when every
// unplaced slot comes after another (the ranks disagree).
std::optional<std::size_t> next_slot(const std::vector<SlotKey>& slots,
                                     const std::vector<bool>& placed,
                                     const std::vector<std::size_t>& before_count) {
  const std::size_t count = slots.size();
  std::optional<std::size_t> next;
  for (std::size_t k = 0; k < count && !next; ++k) {
    if (!placed[k] && before_count[k] == 0) next = k;
  }
  if (!next) return std::nullopt;
  for (std::size_t k = *next + 1; k < count; ++k) {
    const SlotKey& a = slots[k];
    const SlotKey& b = slots[*next];
    if (!placed[k] && before_count[k] == 0 && a.group == b.group && a.repeat == b.repeat &&
        std::tie(a.dst, a.src) < std::tie(b.dst, b.src)) {
      next = k;
    }
  }
  return next;
}

// A run's slots: its distinct keys, in an order every rank's own order follows. On a grid
// too small for any rank to have every neighbour (2 x 2 x 2), each rank makes a few of the
// calls, and only together do they say the order: -x before +x from one rank, +x before -y
// from another. Ties go to the ranks with the most events, in their order, except that of two
// calls of one kind that no rank makes both of, the one towards the lower ranks goes first, as
// MPI_Cart_shift lists them (a 2 x 2 grid never shows whether -y or +y comes first). When the ranks
// disagree (a ring's even and odd ranks), the keys come in the order the ranks with the most
// events use them, and the slot order is left to the variants by r mod m.
std::vector<SlotKey> run_slots(const std::vector<std::vector<SlotKey>>& rank_keys_list) {
  std::vector<SlotKey> slots = first_seen(rank_keys_list);
  // Kahn's algorithm over "comes right after on some rank", the first-seen order breaking ties.
  Precedence p = precedence(slots, rank_keys_list);
  std::vector<SlotKey> ordered;
  std::vector<bool> placed(slots.size(), false);
  while (ordered.size() < slots.size()) {
    const std::optional<std::size_t> next = next_slot(slots, placed, p.before_count);
    if (!next) return slots;
    placed[*next] = true;
    ordered.push_back(slots[*next]);
    for (std::size_t b = 0; b < slots.size(); ++b) {
      if (p.after[*next][b]) --p.before_count[b];
    }
  }
  return ordered;
}

double magnitude(std::int64_t offset) {
  return std::log(static_cast<double>(std::abs(offset)) + 1.0);
}

bool same_direction(const SlotKey& a, const SlotKey& b) {
  auto sign = [](std::int64_t v) { return (v > 0) - (v < 0); };
  return sign(a.dst) == sign(b.dst) && sign(a.src) == sign(b.src);
}

using SlotGroupKey = std::pair<SlotGroup, std::int64_t>;  // group and repeat

// The keys' indices by group and repeat, in key order.
std::map<SlotGroupKey, std::vector<std::int32_t>> indices_by_group(
    const std::vector<SlotKey>& keys) {
  std::map<SlotGroupKey, std::vector<std::int32_t>> groups;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    groups[{keys[i].group, keys[i].repeat}].push_back(static_cast<std::int32_t>(i));
  }
  return groups;
}

// Orders indices into `keys` by their offsets.
auto by_offset(const std::vector<SlotKey>& keys) {
  return [&keys](std::int32_t a, std::int32_t b) {
    return std::tie(keys[a].dst, keys[a].src) < std::tie(keys[b].dst, keys[b].src);
  };
}

// Each of a group's run slots (`members`) takes the unused reference slot (of `refs`) of the
// same direction closest in magnitude, into `mapping`; false when one has none left.
bool map_nearest(const std::vector<SlotKey>& run, const std::vector<SlotKey>& reference,
                 const std::vector<std::int32_t>& members, const std::vector<std::int32_t>& refs,
                 std::vector<std::int32_t>& mapping) {
  std::vector<bool> used(refs.size(), false);
  for (std::int32_t m : members) {
    std::optional<std::size_t> best;
    double best_distance = 0;
    for (std::size_t i = 0; i < refs.size(); ++i) {
      if (used[i] || !same_direction(run[m], reference[refs[i]])) continue;
      const double distance = std::abs(magnitude(run[m].dst) - magnitude(reference[refs[i]].dst)) +
                              std::abs(magnitude(run[m].src) - magnitude(reference[refs[i]].src));
      if (!best || distance < best_distance) {
        best = i;
        best_distance = distance;
      }
    }
    if (!best) return false;
    used[*best] = true;
    mapping[m] = refs[*best];
  }
  return true;
}

// Which reference slot each of a smaller run's slots is. Within a group (same operation and
// tags), offsets are matched in sorted order: a border-free run has them all; a run with fewer
// takes, for each, the unused reference slot of the same direction closest in magnitude.
std::optional<std::vector<std::int32_t>> map_to_reference(const std::vector<SlotKey>& run,
                                                          const std::vector<SlotKey>& reference,
                                                          std::string& failure) {
  std::map<SlotGroupKey, std::vector<std::int32_t>> run_g = indices_by_group(run);
  const std::map<SlotGroupKey, std::vector<std::int32_t>> ref_g = indices_by_group(reference);
  std::vector<std::int32_t> mapping(run.size(), -1);
  for (auto& [group, members] : run_g) {
    auto found = ref_g.find(group);
    if (found == ref_g.end() || found->second.size() < members.size()) {
      failure = fmt::format("a run has more '{}' calls than the largest run",
                            core::op_name(group.first.op));
      return std::nullopt;
    }
    std::vector<std::int32_t> refs = found->second;
    std::sort(members.begin(), members.end(), by_offset(run));
    std::sort(refs.begin(), refs.end(), by_offset(reference));
    if (refs.size() == members.size()) {
      for (std::size_t i = 0; i < members.size(); ++i) mapping[members[i]] = refs[i];
      continue;
    }
    if (!map_nearest(run, reference, members, refs, mapping)) {
      failure = fmt::format("a '{}' call has no counterpart in the largest run",
                            core::op_name(group.first.op));
      return std::nullopt;
    }
  }
  return mapping;
}

bool same_call(const EventToken& a, const EventToken& b) {
  return a.op == b.op && a.tag == b.tag && a.rtag == b.rtag;
}

// How unlike a rank's calls are to the fullest rank's that make the same operations: their
// sizes, their destinations and their sources, one each. Peers are compared as steps on a
// periodic process grid when one is given (a border rank's step across the wrap is its
// neighbour's step), else as offsets from the rank.
class Likeness {
 public:
  Likeness(std::int64_t n, std::int64_t rank, std::int64_t fullest, std::optional<ProcessGrid> grid)
      : n_(n), rank_(rank), fullest_(fullest), grid_(std::move(grid)) {}

  std::size_t unlikeness(const EventToken& a, const EventToken& b) const {
    return static_cast<std::size_t>(a.bytes != b.bytes || a.rbytes != b.rbytes) +
           static_cast<std::size_t>(!same_peer(a.dst, b.dst)) +
           static_cast<std::size_t>(!same_peer(a.src, b.src));
  }

 private:
  bool same_peer(std::int32_t a, std::int32_t b) const {
    if (a < 0 || b < 0 || !grid_) return a == b;
    return steps(rank_, a) == steps(fullest_, b);
  }
  // The steps from `rank` to its peer at relative offset `relative`, in each dimension, wrapped.
  GridCoords steps(std::int64_t rank, std::int32_t relative) const {
    const GridCoords from = grid_->coords_of(rank);
    const GridCoords to = grid_->coords_of(absolute_peer(relative, rank, n_));
    GridCoords out{};
    for (std::size_t d = 0; d < grid_->extent().size(); ++d) {
      out[d] = floor_mod(to[d] - from[d], grid_->extent()[d]);
    }
    return out;
  }

  std::int64_t n_, rank_, fullest_;
  std::optional<ProcessGrid> grid_;
};

// Where each of `events` sits among the fullest rank's calls: each at the first place after the
// one before that makes the same call; nothing when some call has no such place (the rank makes
// other calls than the fullest, not only fewer).
std::optional<std::vector<std::int32_t>> first_positions(const std::vector<EventToken>& events,
                                                         const std::vector<EventToken>& fullest) {
  std::vector<std::int32_t> at;
  at.reserve(events.size());
  std::size_t next = 0;
  for (const EventToken& e : events) {
    while (next < fullest.size() && !same_call(e, fullest[next])) ++next;
    if (next == fullest.size()) return std::nullopt;
    at.push_back(static_cast<std::int32_t>(next++));
  }
  return at;
}

// The largest table (events x fullest calls) the alignment by likeness fills.
constexpr std::size_t kLargestLikenessAlignment = std::size_t{1} << 22;

// Per event, whether a request posted before it is completed at it or after: a rank that lacks
// calls lacks them between such spans (a halo exchange it skips whole), not inside one.
std::vector<bool> inside_spans(std::size_t events,
                               const std::vector<std::vector<std::int32_t>>& completes) {
  std::vector<bool> inside(events, false);
  for (std::size_t e = 0; e < completes.size() && e < events; ++e) {
    for (const std::int32_t posted : completes[e]) {
      if (posted < 0) continue;
      for (auto k = static_cast<std::size_t>(posted) + 1; k <= e; ++k) inside[k] = true;
    }
  }
  return inside;
}

// The period of the fullest rank's calls: the smallest p with the call at j + p the call at j
// everywhere but within p of the end (a loop's last calls may differ), or 0 when none is under
// half their number.
std::size_t call_period(const std::vector<EventToken>& fullest) {
  const std::size_t f = fullest.size();
  for (std::size_t p = 1; 2 * p <= f; ++p) {
    std::size_t differ = 0;
    for (std::size_t j = 0; j + p < f && differ <= p; ++j) {
      if (!same_call(fullest[j], fullest[j + p])) ++differ;
    }
    if (differ <= p) return p;
  }
  return 0;
}

// The places of `events` among the fullest rank's calls that make them likest: unlikeness,
// plus one for each run of the fullest's calls skipped inside a request's span or starting
// where the period of its calls does not (a rank idle on a level lacks its halo exchanges
// whole), the earliest places among the likest. A rank idle on a multigrid's coarse levels
// lacks their calls in the middle of its own, which sizes, peers and those boundaries say where
// operations and tags are all alike. Nothing where the table would be too large or no placement
// exists.
class LikestPlacement {
 public:
  LikestPlacement(const std::vector<EventToken>& events, const std::vector<EventToken>& fullest,
                  const std::vector<bool>& inside, std::size_t period, const Likeness& like)
      : events_(events),
        fullest_(fullest),
        like_(like),
        inside_(inside),
        period_(period),
        placed_at_(events.size() * (fullest.size() + 2), kNever) {}

  std::optional<std::vector<std::int32_t>> placement() {
    fill();
    std::size_t j = 0;
    for (std::size_t k = 1; k < fullest_.size(); ++k) {
      if (cost(0, k) < cost(0, j)) j = k;
    }
    if (cost(0, j) >= kNever) return std::nullopt;
    std::vector<std::int32_t> placed = {static_cast<std::int32_t>(j)};
    placed.reserve(events_.size());
    for (std::size_t i = 1; i < events_.size(); ++i) {
      j = next_place(i, j);
      placed.push_back(static_cast<std::int32_t>(j));
    }
    return placed;
  }

 private:
  static constexpr std::size_t kNever = std::numeric_limits<std::size_t>::max() / 4;

  // The least cost of events[i..] with event i at the fullest's call j.
  std::size_t& cost(std::size_t i, std::size_t j) {
    return placed_at_[i * (fullest_.size() + 2) + j];
  }

  // Skipping the fullest's calls from `first` on, before event i.
  std::size_t skip_cost(std::size_t i, std::size_t first) const {
    return static_cast<std::size_t>(inside_[i]) +
           static_cast<std::size_t>(period_ > 1 && first % period_ != 0);
  }

  void fill() {
    const std::size_t m = events_.size();
    const std::size_t f = fullest_.size();
    for (std::size_t i = m; i-- > 0;) {
      std::size_t later = kNever;  // the least cost of event i + 1 at j + 2 or after
      for (std::size_t j = f; j-- > 0;) {
        if (i + 1 < m && j + 2 < f) later = std::min(later, cost(i + 1, j + 2));
        if (!same_call(events_[i], fullest_[j])) continue;
        std::size_t rest = 0;
        if (i + 1 < m) {
          rest = std::min(cost(i + 1, j + 1),
                          later >= kNever ? kNever : later + skip_cost(i + 1, j + 1));
        }
        cost(i, j) = std::min(like_.unlikeness(events_[i], fullest_[j]) + rest, kNever);
      }
    }
  }

  // Where event i goes after event i - 1 at j: right after where that is as good, else the
  // earliest place as good.
  std::size_t next_place(std::size_t i, std::size_t j) {
    const std::size_t rest = cost(i - 1, j) - like_.unlikeness(events_[i - 1], fullest_[j]);
    if (cost(i, j + 1) == rest) return j + 1;
    std::size_t k = j + 2;
    while (cost(i, k) + skip_cost(i, j + 1) != rest) ++k;
    return k;
  }

  const std::vector<EventToken>& events_;
  const std::vector<EventToken>& fullest_;
  const Likeness& like_;
  const std::vector<bool>& inside_;
  std::size_t period_;
  std::vector<std::size_t> placed_at_;
};

// The least unlikeness of a placement.
std::size_t unlikeness_of(const std::vector<EventToken>& events,
                          const std::vector<EventToken>& fullest,
                          const std::vector<std::int32_t>& placed, const Likeness& like) {
  std::size_t sum = 0;
  for (std::size_t e = 0; e < events.size(); ++e) {
    sum += like.unlikeness(events[e], fullest[static_cast<std::size_t>(placed[e])]);
  }
  return sum;
}

// What placing a run's ranks among its fullest rank's calls needs of the run, once: the grids
// peers are compared on (none: as offsets; the 2D and 3D grids MPI_Dims_create makes), and the
// period of the fullest's calls, worked out the first time a rank needs it.
class RunPlacement {
 public:
  RunPlacement(const PhaseRun& run, std::size_t fullest) : run_(run), fullest_(fullest) {
    grids_.emplace_back(std::nullopt);
    for (const int dimensions : {2, 3}) {
      grids_.emplace_back(ProcessGrid(balanced_dims(run.n, dimensions), GridOrder::RowMajor));
    }
  }

  const PhaseRun& run() const { return run_; }
  std::size_t fullest() const { return fullest_; }
  const std::vector<std::optional<ProcessGrid>>& grids() const { return grids_; }
  std::size_t period() const {
    if (!period_) period_ = call_period(run_.ranks[fullest_]);
    return *period_;
  }

 private:
  const PhaseRun& run_;
  std::size_t fullest_;
  std::vector<std::optional<ProcessGrid>> grids_;
  mutable std::optional<std::size_t> period_;
};

// Where each of rank r's events sits among the fullest rank's calls: the first places that
// make the same calls, unless places where the calls are liker exist, peers compared on
// whichever of the run's grids makes them likest.
std::optional<std::vector<std::int32_t>> positions_in(const RunPlacement& placement,
                                                      std::size_t r) {
  static const std::vector<std::vector<std::int32_t>> kNoCompletes;
  const PhaseRun& run = placement.run();
  const std::vector<EventToken>& events = run.ranks[r];
  const std::vector<EventToken>& slots = run.ranks[placement.fullest()];
  std::optional<std::vector<std::int32_t>> first = first_positions(events, slots);
  if (!first || events.size() == slots.size()) return first;
  const auto rank = static_cast<std::int64_t>(r);
  const auto reference = static_cast<std::int64_t>(placement.fullest());
  if (unlikeness_of(events, slots, *first, Likeness(run.n, rank, reference, std::nullopt)) == 0 ||
      (events.size() + 1) * (slots.size() + 2) > kLargestLikenessAlignment) {
    return first;
  }
  const std::vector<bool> inside =
      inside_spans(events.size(), r < run.completes.size() ? run.completes[r] : kNoCompletes);
  std::optional<std::vector<std::int32_t>> best;
  std::size_t least = 0;
  for (const std::optional<ProcessGrid>& grid : placement.grids()) {
    const Likeness like(run.n, rank, reference, grid);
    std::optional<std::vector<std::int32_t>> placed =
        LikestPlacement(events, slots, inside, placement.period(), like).placement();
    if (!placed) continue;
    const std::size_t cost = unlikeness_of(events, slots, *placed, like);
    if (!best || cost < least) {
      best = std::move(placed);
      least = cost;
    }
  }
  return best ? best : first;
}

Alignment align_by_position(std::span<const PhaseRun> runs) {
  Alignment out;
  out.method = AlignmentMethod::Position;
  for (const PhaseRun& run : runs) {
    AlignedRun aligned;
    aligned.n = run.n;
    std::size_t fullest = 0;
    for (std::size_t r = 1; r < run.ranks.size(); ++r) {
      if (run.ranks[r].size() > run.ranks[fullest].size()) fullest = r;
    }
    const std::vector<EventToken>& slots = run.ranks[fullest];
    aligned.slot_events.assign(slots.size(),
                               std::vector<std::optional<EventToken>>(run.ranks.size()));
    aligned.order.assign(run.ranks.size(), {});
    const RunPlacement placement(run, fullest);
    for (std::size_t r = 0; r < run.ranks.size(); ++r) {
      const std::optional<std::vector<std::int32_t>> at = positions_in(placement, r);
      if (!at) {
        const bool same_operations =
            std::equal(run.ranks[r].begin(), run.ranks[r].end(), slots.begin(), slots.end(),
                       [](const EventToken& a, const EventToken& b) { return a.op == b.op; });
        out.failure = fmt::format(
            "at n = {} ranks {} and {} make different calls ({})", run.n, fullest, r,
            same_operations ? "the same operations, with other tags" : "not only fewer");
        return out;
      }
      for (std::size_t e = 0; e < at->size(); ++e) {
        aligned.slot_events[static_cast<std::size_t>((*at)[e])][r] = run.ranks[r][e];
      }
      aligned.order[r] = *at;
    }
    out.runs.push_back(std::move(aligned));
  }
  return out;
}

Alignment align_by_offset(std::span<const PhaseRun> runs, AlignmentMethod method) {
  Alignment out;
  out.method = method;
  std::vector<std::vector<std::vector<SlotKey>>> keys(runs.size());
  std::size_t largest = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    for (std::size_t r = 0; r < runs[i].ranks.size(); ++r) {
      keys[i].push_back(
          rank_keys(runs[i].ranks[r], static_cast<std::int64_t>(r), runs[i].n, method));
    }
    if (runs[i].n > runs[largest].n) largest = i;
  }
  const std::vector<SlotKey> reference = run_slots(keys[largest]);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::vector<SlotKey> slots = run_slots(keys[i]);
    const auto mapping = map_to_reference(slots, reference, out.failure);
    if (!mapping) {
      out.failure = fmt::format("at n = {}: {}", runs[i].n, out.failure);
      return out;
    }
    AlignedRun aligned;
    aligned.n = runs[i].n;
    aligned.slot_events.assign(reference.size(),
                               std::vector<std::optional<EventToken>>(runs[i].ranks.size()));
    aligned.order.assign(runs[i].ranks.size(), {});
    for (std::size_t r = 0; r < runs[i].ranks.size(); ++r) {
      for (std::size_t e = 0; e < keys[i][r].size(); ++e) {
        const auto local = std::find(slots.begin(), slots.end(), keys[i][r][e]) - slots.begin();
        const std::int32_t slot = (*mapping)[static_cast<std::size_t>(local)];
        aligned.slot_events[slot][r] = runs[i].ranks[r][e];
        aligned.order[r].push_back(slot);
      }
    }
    out.runs.push_back(std::move(aligned));
  }
  return out;
}

}  // namespace

std::string_view alignment_method_name(AlignmentMethod method) {
  switch (method) {
    case AlignmentMethod::Position:
      return "position";
    case AlignmentMethod::Grid:
      return "grid template";
    case AlignmentMethod::Centered:
      return "centered offset";
    case AlignmentMethod::Signed:
      return "signed offset";
  }
  return "?";
}

std::int64_t absolute_peer(std::int32_t relative, std::int64_t rank, std::int64_t n) {
  if (relative < 0) return -1;
  return (rank + relative) % n;
}

std::string Alignment::name() const {
  if (method == AlignmentMethod::Grid) {
    return fmt::format("{} ({}D)", alignment_method_name(method), grid_dimensions);
  }
  return std::string(alignment_method_name(method));
}

Alignment align_phase(std::span<const PhaseRun> runs, AlignmentMethod method, int grid_dimensions) {
  if (method == AlignmentMethod::Position) return align_by_position(runs);
  if (method == AlignmentMethod::Grid) return align_to_template(runs, grid_dimensions);
  return align_by_offset(runs, method);
}

}  // namespace p3s::model
