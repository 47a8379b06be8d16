#include "model/template_alignment.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "core/event.hpp"

namespace p3s::model {
namespace {

using signature::EventToken;
using Vec = std::array<std::int64_t, 3>;

// A factorisation of n: extent[0] varies fastest.
struct Grid {
  Vec extent{1, 1, 1};

  Vec coords(std::int64_t rank) const {
    return {rank % extent[0], (rank / extent[0]) % extent[1], rank / (extent[0] * extent[1])};
  }
  std::int64_t rank_of(const Vec& c) const { return c[0] + extent[0] * (c[1] + extent[1] * c[2]); }

  // From `rank` to `peer`, each component the short way round when it is longer than half its
  // extent (a periodic dimension's wrap).
  Vec vector(std::int64_t rank, std::int64_t peer) const {
    const Vec a = coords(rank), b = coords(peer);
    Vec v{};
    for (std::size_t d = 0; d < 3; ++d) {
      v[d] = b[d] - a[d];
      if (2 * std::abs(v[d]) > extent[d]) v[d] -= v[d] > 0 ? extent[d] : -extent[d];
    }
    return v;
  }

  // Where `v` leads from `rank`, wrapping in every dimension.
  std::int64_t follow(std::int64_t rank, const Vec& v) const {
    Vec c = coords(rank);
    for (std::size_t d = 0; d < 3; ++d) c[d] = ((c[d] + v[d]) % extent[d] + extent[d]) % extent[d];
    return rank_of(c);
  }
};

// Every ordered factorisation of n into `dimensions` extents.
std::vector<Grid> grids_of(std::int64_t n, int dimensions) {
  std::vector<Grid> grids;
  if (dimensions == 1) return {Grid{{n, 1, 1}}};
  for (std::int64_t a = 1; a <= n; ++a) {
    if (n % a != 0) continue;
    if (dimensions == 2) {
      grids.push_back(Grid{{a, n / a, 1}});
      continue;
    }
    for (std::int64_t b = 1; b <= n / a; ++b) {
      if ((n / a) % b == 0) grids.push_back(Grid{{a, b, n / a / b}});
    }
  }
  return grids;
}

enum class KeyKind : std::uint8_t { Message, Call, Completion, MultiCompletion };

// What makes a call a slot: for a message its operation, tags and distance vectors; for a
// completion of one request, the slot of the call it completes; for anything else its
// operation and how many of them came before.
struct SlotKey {
  KeyKind kind = KeyKind::Call;
  core::Op op = core::Op::Barrier;
  core::Op completion = core::Op::Barrier;  // a Completion's own operation (op is its post's)
  std::int32_t tag = core::kNone;
  std::int32_t rtag = core::kNone;
  bool sub = false;  // a collective on a sub-communicator
  bool has_dst = false;
  bool has_src = false;
  bool any_src = false;
  Vec dst{};
  Vec src{};
  std::int64_t index = 0;  // the k-th such call on the rank
  auto operator<=>(const SlotKey&) const = default;
};

bool is_multi_completion(const EventToken& t, const std::vector<std::int32_t>& completes) {
  return core::op_kind(t.op) == core::OpKind::Completion &&
         !(core::completes_one(t.op) && completes.size() == 1);
}

bool is_single_completion(const EventToken& t, const std::vector<std::int32_t>& completes) {
  return core::op_kind(t.op) == core::OpKind::Completion && core::completes_one(t.op) &&
         completes.size() == 1;
}

const std::vector<std::int32_t>& completes_of(const PhaseRun& run, std::size_t r, std::size_t e) {
  static const std::vector<std::int32_t> kNothing;
  if (r >= run.completes.size() || e >= run.completes[r].size()) return kNothing;
  return run.completes[r][e];
}

// A message's key without its index.
SlotKey message_key(const EventToken& t, std::int64_t rank, std::int64_t n, const Grid& grid) {
  SlotKey k;
  k.kind = KeyKind::Message;
  k.op = t.op;
  k.tag = t.tag;
  k.rtag = t.rtag;
  if (t.dst >= 0) {
    k.has_dst = true;
    k.dst = grid.vector(rank, absolute_peer(t.dst, rank, n));
  }
  if (t.src >= 0) {
    k.has_src = true;
    k.src = grid.vector(rank, absolute_peer(t.src, rank, n));
  }
  k.any_src = t.src == core::kAnySource;
  return k;
}

// Per event, the posts a waitall is made for: the non-blocking messages after it up to the next
// completion (a pipeline's wait for the last step's sends before it sends again, skipped where
// the rank sends nothing next: `if (down >= 0)`). Empty for other events and where none follow.
std::vector<std::vector<std::size_t>> guarded_posts(const PhaseRun& run, std::size_t r) {
  const std::vector<EventToken>& events = run.ranks[r];
  std::vector<std::vector<std::size_t>> guarded(events.size());
  for (std::size_t e = 0; e < events.size(); ++e) {
    if (events[e].op != core::Op::Waitall) continue;
    for (std::size_t f = e + 1; f < events.size(); ++f) {
      if (core::op_kind(events[f].op) == core::OpKind::Completion) break;
      if (core::is_point_to_point(events[f].op) && core::is_nonblocking(events[f].op)) {
        guarded[e].push_back(f);
      }
    }
  }
  return guarded;
}

// A waitall made for posts is the slot of those posts' group (`guard_groups`): keyed by the
// requests it guards, not by how many waitalls came before, which border ranks that skip some
// make fewer of.
SlotKey guard_key(SlotKey post, core::Op completion) {
  post.kind = KeyKind::MultiCompletion;
  post.completion = completion;
  return post;
}

// The keys of one rank's events under `grid`; with `groups` (post key -> its group's key), a
// waitall made for posts is keyed by their group instead of by how many came before.
std::vector<SlotKey> rank_keys(const PhaseRun& run, std::size_t r, const Grid& grid,
                               const std::map<SlotKey, SlotKey>* groups = nullptr) {
  const std::vector<EventToken>& events = run.ranks[r];
  const std::vector<std::vector<std::size_t>> guarded =
      groups ? guarded_posts(run, r) : std::vector<std::vector<std::size_t>>(events.size());
  std::vector<SlotKey> keys;
  std::map<SlotKey, std::int64_t> seen;
  for (std::size_t e = 0; e < events.size(); ++e) {
    const EventToken& t = events[e];
    const std::vector<std::int32_t>& completes = completes_of(run, r, e);
    SlotKey k;
    if (core::is_point_to_point(t.op)) {
      k = message_key(t, static_cast<std::int64_t>(r), run.n, grid);
    } else if (is_single_completion(t, completes) &&
               static_cast<std::size_t>(completes.front()) < keys.size()) {
      k = keys[static_cast<std::size_t>(completes.front())];
      k.kind = KeyKind::Completion;
      k.completion = t.op;
    } else {
      k.kind = is_multi_completion(t, completes) ? KeyKind::MultiCompletion : KeyKind::Call;
      k.op = t.op;
      k.sub = core::op_kind(t.op) == core::OpKind::Collective && t.comm != 0;
    }
    if (k.kind != KeyKind::Completion && guarded[e].empty()) k.index = seen[k]++;
    keys.push_back(k);
  }
  for (std::size_t e = 0; e < events.size(); ++e) {
    if (guarded[e].empty()) continue;
    const SlotKey& post = keys[guarded[e].front()];
    const auto group = groups->find(post);
    keys[e] = guard_key(group != groups->end() ? group->second : post, events[e].op);
  }
  return keys;
}

// The posts the reference's waitalls are made for, grouped: two posts one waitall is made for
// on some rank are in one group (an inner rank's wait for both its sends, a border rank's for
// the one it has). Each post key maps to its group's least.
std::map<SlotKey, SlotKey> guard_groups(const PhaseRun& run, const Grid& grid) {
  std::map<SlotKey, SlotKey> parent;
  auto find = [&](SlotKey k) {
    while (parent.at(k) != k) k = parent.at(k);
    return k;
  };
  for (std::size_t r = 0; r < run.ranks.size(); ++r) {
    const std::vector<SlotKey> keys = rank_keys(run, r, grid);
    for (const std::vector<std::size_t>& posts : guarded_posts(run, r)) {
      for (std::size_t f : posts) parent.try_emplace(keys[f], keys[f]);
      for (std::size_t i = 1; i < posts.size(); ++i) {
        const SlotKey a = find(keys[posts[0]]), b = find(keys[posts[i]]);
        if (a != b) parent[std::max(a, b)] = std::min(a, b);
      }
    }
  }
  std::map<SlotKey, SlotKey> groups;
  for (const auto& [k, p] : parent) groups.emplace(k, find(k));
  return groups;
}

// Whether two keys are the same call but for their vectors.
bool same_call(const SlotKey& a, const SlotKey& b) {
  return std::tie(a.kind, a.op, a.completion, a.tag, a.rtag, a.sub, a.has_dst, a.has_src, a.any_src,
                  a.index) == std::tie(b.kind, b.op, b.completion, b.tag, b.rtag, b.sub, b.has_dst,
                                       b.has_src, b.any_src, b.index);
}

// How far a key's peers are from the rank along the ranks' numbering.
std::pair<std::int64_t, std::int64_t> linear_offsets(const SlotKey& k, const Grid& grid) {
  auto linear = [&](const Vec& v) {
    return v[0] + grid.extent[0] * (v[1] + grid.extent[1] * v[2]);
  };
  return {linear(k.dst), linear(k.src)};
}

// Every distinct key of the ranks, those of the ranks with the most calls first, in their order.
std::vector<SlotKey> distinct_keys_fullest_first(
    const std::vector<std::vector<SlotKey>>& rank_keys_list) {
  std::vector<std::size_t> fullest_first(rank_keys_list.size());
  for (std::size_t r = 0; r < fullest_first.size(); ++r) fullest_first[r] = r;
  std::stable_sort(fullest_first.begin(), fullest_first.end(), [&](std::size_t a, std::size_t b) {
    return rank_keys_list[a].size() > rank_keys_list[b].size();
  });
  std::vector<SlotKey> seen;
  std::set<SlotKey> known;
  for (std::size_t r : fullest_first) {
    for (const SlotKey& k : rank_keys_list[r]) {
      if (known.insert(k).second) seen.push_back(k);
    }
  }
  return seen;
}

// Kahn's next key: the first one nothing left must precede, or of the same call one towards
// lower ranks.
std::optional<std::size_t> next_key(const std::vector<SlotKey>& seen,
                                    const std::vector<bool>& placed,
                                    const std::vector<std::size_t>& before_count,
                                    const Grid& grid) {
  auto ready = [&](std::size_t k) { return !placed[k] && before_count[k] == 0; };
  std::optional<std::size_t> next;
  for (std::size_t k = 0; k < seen.size() && !next; ++k) {
    if (ready(k)) next = k;
  }
  if (!next) return std::nullopt;
  for (std::size_t k = *next + 1; k < seen.size(); ++k) {
    if (ready(k) && same_call(seen[k], seen[*next]) &&
        linear_offsets(seen[k], grid) < linear_offsets(seen[*next], grid)) {
      next = k;
    }
  }
  return next;
}

// The reference's slots: its ranks' distinct keys in an order every rank's own order follows
// (Kahn's algorithm over "comes right after on some rank", ties to the ranks with the most
// calls, in their order, except that of two calls of one kind that no rank makes both of, the
// one towards the lower ranks goes first, as MPI_Cart_shift lists them: a grid 2 wide never
// shows whether -y or +y comes first). Nothing when the ranks order them in ways no one order
// holds.
std::optional<std::vector<SlotKey>> template_slots(
    const std::vector<std::vector<SlotKey>>& rank_keys_list, const Grid& grid) {
  const std::vector<SlotKey> seen = distinct_keys_fullest_first(rank_keys_list);
  std::map<SlotKey, std::size_t> index;
  for (std::size_t k = 0; k < seen.size(); ++k) index.emplace(seen[k], k);
  std::vector<std::set<std::size_t>> after(seen.size());
  std::vector<std::size_t> before_count(seen.size(), 0);
  for (const std::vector<SlotKey>& keys : rank_keys_list) {
    for (std::size_t e = 1; e < keys.size(); ++e) {
      const std::size_t a = index.at(keys[e - 1]), b = index.at(keys[e]);
      if (a != b && after[a].insert(b).second) ++before_count[b];
    }
  }
  std::vector<SlotKey> ordered;
  std::vector<bool> placed(seen.size(), false);
  while (ordered.size() < seen.size()) {
    const std::optional<std::size_t> next = next_key(seen, placed, before_count, grid);
    if (!next) return std::nullopt;
    placed[*next] = true;
    ordered.push_back(seen[*next]);
    for (std::size_t b : after[*next]) --before_count[b];
  }
  return ordered;
}

// A rank's call in words: its operation, with its tag where it has one.
std::string call_text(const EventToken& t) {
  const std::int32_t tag = t.tag >= 0 ? t.tag : t.rtag;
  return tag >= 0 ? fmt::format("{} (tag {})", core::op_name(t.op), tag)
                  : std::string(core::op_name(t.op));
}

// Why no template holds the reference's ranks, in words: two calls a rank makes one after the
// other that the rank with the most calls makes the other way round. Empty when no rank's
// consecutive calls contradict it (the orders then conflict only through several ranks).
std::string order_conflict(const PhaseRun& run, const std::vector<std::vector<SlotKey>>& keys) {
  std::size_t fullest = 0;
  for (std::size_t r = 0; r < keys.size(); ++r) {
    if (keys[r].size() > keys[fullest].size()) fullest = r;
  }
  std::map<SlotKey, std::size_t> at;
  for (std::size_t e = 0; e < keys[fullest].size(); ++e) at.try_emplace(keys[fullest][e], e);
  for (std::size_t r = 0; r < keys.size(); ++r) {
    for (std::size_t e = 1; e < keys[r].size(); ++e) {
      const auto a = at.find(keys[r][e - 1]), b = at.find(keys[r][e]);
      if (a == at.end() || b == at.end() || a->second <= b->second) continue;
      return fmt::format(
          ": rank {} makes its call {}, {}, right before its call {}, {}; rank {} makes them "
          "the other way round (its calls {} and {})",
          r, e - 1, call_text(run.ranks[r][e - 1]), e, call_text(run.ranks[r][e]), fullest,
          a->second, b->second);
    }
  }
  return "";
}

// How well `grid` reads the reference: fewer distinct keys first, then extents above 1 in
// every dimension, then the most balanced.
std::tuple<std::size_t, int, std::int64_t> reference_cost(const PhaseRun& run, const Grid& grid) {
  std::set<SlotKey> distinct;
  for (std::size_t r = 0; r < run.ranks.size(); ++r) {
    for (const SlotKey& k : rank_keys(run, r, grid)) distinct.insert(k);
  }
  int flat = 0;
  std::int64_t widest = 1, narrowest = run.n;
  for (std::int64_t e : grid.extent) {
    if (e == 1) ++flat;
    widest = std::max(widest, e);
    if (e > 1) narrowest = std::min(narrowest, e);
  }
  return {distinct.size(), flat, widest / std::max<std::int64_t>(1, narrowest)};
}

struct RankMatch {
  std::vector<std::int32_t> slots;  // per event
  std::int64_t exact = 0;           // events whose vectors are the slot's own
};

class TemplateMatcher {
 public:
  TemplateMatcher(const std::vector<SlotKey>& slots, const std::map<SlotKey, SlotKey>* groups)
      : slots_(slots), groups_(groups) {
    for (std::size_t s = 0; s < slots.size(); ++s) index_.emplace(slots[s], s);
  }

  // Rank r's events matched to slots in the template's order, all of them, the most with their
  // own vectors; nothing when they cannot be.
  std::optional<RankMatch> match(const PhaseRun& run, std::size_t r, const Grid& grid) const {
    const std::vector<EventToken>& events = run.ranks[r];
    std::vector<std::size_t> placed_events;  // the events the order search places
    for (std::size_t e = 0; e < events.size(); ++e) {
      if (core::op_kind(events[e].op) != core::OpKind::Completion) placed_events.push_back(e);
    }
    const auto best = exact_matches(run, r, placed_events, grid);
    const std::size_t m = placed_events.size(), t = slots_.size();
    if (best[m][t] == kImpossible) return std::nullopt;
    RankMatch out;
    out.exact = best[m][t];
    out.slots.assign(events.size(), -1);
    for (std::size_t i = m, j = t; i > 0;) {
      if (step_matches(run, r, placed_events[i - 1], grid, best, i, j)) {
        out.slots[placed_events[i - 1]] = static_cast<std::int32_t>(j - 1);
        --i;
      }
      --j;
    }
    if (!place_completions(run, r, out.slots)) return std::nullopt;
    // The rank's calls come in the template's order.
    for (std::size_t e = 1; e < out.slots.size(); ++e) {
      if (out.slots[e] <= out.slots[e - 1]) return std::nullopt;
    }
    return out;
  }

 private:
  static constexpr std::int64_t kImpossible = -1;
  using Table = std::vector<std::vector<std::int64_t>>;

  // best[i][j]: the most exact matches placing the first i events in the first j slots.
  Table exact_matches(const PhaseRun& run, std::size_t r,
                      const std::vector<std::size_t>& placed_events, const Grid& grid) const {
    const std::size_t m = placed_events.size(), t = slots_.size();
    Table best(m + 1, std::vector<std::int64_t>(t + 1, 0));
    for (std::size_t i = 1; i <= m; ++i) best[i][0] = kImpossible;
    for (std::size_t i = 1; i <= m; ++i) {
      for (std::size_t j = 1; j <= t; ++j) {
        best[i][j] = best[i][j - 1];
        const auto fit = fits(run, r, placed_events[i - 1], j - 1, grid);
        if (fit && best[i - 1][j - 1] != kImpossible) {
          best[i][j] = std::max(best[i][j], best[i - 1][j - 1] + (*fit ? 1 : 0));
        }
      }
    }
    return best;
  }

  // Whether the best placement puts event e (the i-th placed) in slot j - 1.
  bool step_matches(const PhaseRun& run, std::size_t r, std::size_t e, const Grid& grid,
                    const Table& best, std::size_t i, std::size_t j) const {
    const auto fit = fits(run, r, e, j - 1, grid);
    return fit && best[i - 1][j - 1] != kImpossible &&
           best[i][j] == best[i - 1][j - 1] + (*fit ? 1 : 0);
  }

  // Whether event e of rank r can be slot s: nothing when not, else whether its vectors are
  // the slot's own (not only leading to the same peers at this n).
  std::optional<bool> fits(const PhaseRun& run, std::size_t r, std::size_t e, std::size_t s,
                           const Grid& grid) const {
    const EventToken& t = run.ranks[r][e];
    const SlotKey& slot = slots_[s];
    if (!core::is_point_to_point(t.op)) {
      if (slot.kind != KeyKind::Call) return std::nullopt;
      const bool sub = core::op_kind(t.op) == core::OpKind::Collective && t.comm != 0;
      if (slot.op != t.op || slot.sub != sub) return std::nullopt;
      return true;
    }
    const SlotKey k = message_key(t, static_cast<std::int64_t>(r), run.n, grid);
    if (slot.kind != KeyKind::Message || slot.op != k.op || slot.tag != k.tag ||
        slot.rtag != k.rtag || slot.has_dst != k.has_dst || slot.has_src != k.has_src ||
        slot.any_src != k.any_src) {
      return std::nullopt;
    }
    const auto rank = static_cast<std::int64_t>(r);
    if (k.has_dst && grid.follow(rank, slot.dst) != absolute_peer(t.dst, rank, run.n)) {
      return std::nullopt;
    }
    if (k.has_src && grid.follow(rank, slot.src) != absolute_peer(t.src, rank, run.n)) {
      return std::nullopt;
    }
    return k.dst == slot.dst && k.src == slot.src;
  }

  // Completions into the slots of the calls they complete (a wait) or of the k-th such
  // completion (a waitall). False when the template has no such slot.
  bool place_completions(const PhaseRun& run, std::size_t r,
                         std::vector<std::int32_t>& placed) const {
    const std::vector<EventToken>& events = run.ranks[r];
    const std::vector<std::vector<std::size_t>> guarded =
        groups_ ? guarded_posts(run, r) : std::vector<std::vector<std::size_t>>(events.size());
    std::map<core::Op, std::int64_t> multi_seen;
    for (std::size_t e = 0; e < events.size(); ++e) {
      const EventToken& t = events[e];
      if (core::op_kind(t.op) != core::OpKind::Completion) continue;
      const std::vector<std::int32_t>& completes = completes_of(run, r, e);
      SlotKey k;
      if (is_single_completion(t, completes) && static_cast<std::size_t>(completes.front()) < e) {
        const std::int32_t post = placed[static_cast<std::size_t>(completes.front())];
        if (post < 0) return false;
        k = slots_[static_cast<std::size_t>(post)];
        k.kind = KeyKind::Completion;
        k.completion = t.op;
      } else if (!guarded[e].empty()) {
        const std::int32_t post = placed[guarded[e].front()];
        if (post < 0) return false;
        const auto group = groups_->find(slots_[static_cast<std::size_t>(post)]);
        if (group == groups_->end()) return false;
        k = guard_key(group->second, t.op);
      } else {
        k.kind = KeyKind::MultiCompletion;
        k.op = t.op;
        k.index = multi_seen[t.op]++;
      }
      const auto it = index_.find(k);
      if (it == index_.end()) return false;
      placed[e] = static_cast<std::int32_t>(it->second);
    }
    return true;
  }

  const std::vector<SlotKey>& slots_;
  const std::map<SlotKey, SlotKey>* groups_;  // the reference's guard_groups, when keyed so
  std::map<SlotKey, std::size_t> index_;
};

struct RunMatch {
  Grid grid;
  std::vector<RankMatch> ranks;
  std::int64_t exact = 0;
};

// How many pairs of dimensions are ordered by size as the reference's are.
int shape_agreement(const Grid& a, const Grid& reference, int dimensions) {
  int agree = 0;
  auto sign = [](std::int64_t v) { return (v > 0) - (v < 0); };
  for (int x = 0; x < dimensions; ++x) {
    for (int y = x + 1; y < dimensions; ++y) {
      const auto ux = static_cast<std::size_t>(x), uy = static_cast<std::size_t>(y);
      if (sign(a.extent[ux] - a.extent[uy]) == sign(reference.extent[ux] - reference.extent[uy])) {
        ++agree;
      }
    }
  }
  return agree;
}

// The run matched to the template under `grid`, every rank; nothing when one does not match.
std::optional<RunMatch> match_on(const PhaseRun& run, const TemplateMatcher& matcher,
                                 const Grid& grid) {
  RunMatch m{grid, {}, 0};
  for (std::size_t r = 0; r < run.ranks.size(); ++r) {
    std::optional<RankMatch> rank = matcher.match(run, r, grid);
    if (!rank) return std::nullopt;
    m.exact += rank->exact;
    m.ranks.push_back(std::move(*rank));
  }
  return m;
}

// The run matched to the template under the grid that reads it best: every rank matched, the
// most exact vectors, the reference's shape.
std::optional<RunMatch> match_run(const PhaseRun& run, const TemplateMatcher& matcher,
                                  const Grid& reference, int dimensions) {
  std::optional<RunMatch> best;
  int best_shape = -1;
  for (const Grid& grid : grids_of(run.n, dimensions)) {
    std::optional<RunMatch> m = match_on(run, matcher, grid);
    if (!m) continue;
    const int shape = shape_agreement(grid, reference, dimensions);
    if (!best || m->exact > best->exact || (m->exact == best->exact && shape > best_shape)) {
      best = std::move(m);
      best_shape = shape;
    }
  }
  return best;
}

// Per slot, the slots it completes: a wait's call's slot, a waitall's calls' slots over every
// rank of every run.
std::vector<std::vector<std::int32_t>> slot_completions(std::span<const PhaseRun> runs,
                                                        const std::vector<RunMatch>& matches,
                                                        std::size_t slot_count) {
  std::vector<std::set<std::int32_t>> completes(slot_count);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    for (std::size_t r = 0; r < runs[i].ranks.size(); ++r) {
      const std::vector<std::int32_t>& slots = matches[i].ranks[r].slots;
      for (std::size_t e = 0; e < slots.size(); ++e) {
        for (std::int32_t posted : completes_of(runs[i], r, e)) {
          if (static_cast<std::size_t>(posted) < slots.size()) {
            completes[static_cast<std::size_t>(slots[e])].insert(
                slots[static_cast<std::size_t>(posted)]);
          }
        }
      }
    }
  }
  std::vector<std::vector<std::int32_t>> out;
  out.reserve(slot_count);
  for (const std::set<std::int32_t>& s : completes) out.emplace_back(s.begin(), s.end());
  return out;
}

std::string grid_text(const Grid& g, int dimensions) {
  std::string text = std::to_string(g.extent[0]);
  for (int d = 1; d < dimensions; ++d)
    text += " x " + std::to_string(g.extent[static_cast<std::size_t>(d)]);
  return text;
}

// The alignment with waitalls keyed by how many came before, or, `by_guards`, by the posts they
// are made for (guard_groups).
Alignment align_keyed(std::span<const PhaseRun> runs, int dimensions, bool by_guards) {
  Alignment out;
  out.method = AlignmentMethod::Grid;
  out.grid_dimensions = dimensions;
  std::size_t largest = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (runs[i].n > runs[largest].n) largest = i;
  }
  const PhaseRun& reference = runs[largest];
  const std::vector<Grid> candidates = grids_of(reference.n, dimensions);
  const Grid grid =
      *std::min_element(candidates.begin(), candidates.end(), [&](const Grid& a, const Grid& b) {
        return reference_cost(reference, a) < reference_cost(reference, b);
      });
  const std::map<SlotKey, SlotKey> groups =
      by_guards ? guard_groups(reference, grid) : std::map<SlotKey, SlotKey>{};
  const std::map<SlotKey, SlotKey>* keyed_by = by_guards ? &groups : nullptr;
  std::vector<std::vector<SlotKey>> keys;
  for (std::size_t r = 0; r < reference.ranks.size(); ++r)
    keys.push_back(rank_keys(reference, r, grid, keyed_by));
  const std::optional<std::vector<SlotKey>> slots = template_slots(keys, grid);
  if (!slots) {
    out.failure =
        fmt::format("at n = {} the ranks make their calls in orders no one template holds{}",
                    reference.n, order_conflict(reference, keys));
    return out;
  }
  const TemplateMatcher matcher(*slots, keyed_by);
  std::vector<RunMatch> matches;
  for (const PhaseRun& run : runs) {
    std::optional<RunMatch> m = &run == &reference ? match_on(run, matcher, grid)
                                                   : match_run(run, matcher, grid, dimensions);
    if (!m) {
      out.failure = fmt::format(
          "at n = {} the calls fit the template of n = {} (grid {}) on no {}-dimensional grid",
          run.n, reference.n, grid_text(grid, dimensions), dimensions);
      return out;
    }
    matches.push_back(std::move(*m));
  }
  for (std::size_t i = 0; i < runs.size(); ++i) {
    AlignedRun aligned;
    aligned.n = runs[i].n;
    aligned.slot_events.assign(slots->size(),
                               std::vector<std::optional<EventToken>>(runs[i].ranks.size()));
    aligned.order.resize(runs[i].ranks.size());
    for (std::size_t r = 0; r < runs[i].ranks.size(); ++r) {
      const std::vector<std::int32_t>& placed = matches[i].ranks[r].slots;
      for (std::size_t e = 0; e < placed.size(); ++e) {
        aligned.slot_events[static_cast<std::size_t>(placed[e])][r] = runs[i].ranks[r][e];
        aligned.order[r].push_back(placed[e]);
      }
    }
    out.runs.push_back(std::move(aligned));
  }
  out.slot_completes = slot_completions(runs, matches, slots->size());
  return out;
}

}  // namespace

// Waitalls are first keyed by how many came before; where border ranks skip some (a pipeline's
// wait made only before sending, `if (down >= 0)`), so that no one order holds them, by the
// posts each is made for.
Alignment align_to_template(std::span<const PhaseRun> runs, int dimensions) {
  Alignment by_count = align_keyed(runs, dimensions, false);
  if (by_count.aligned()) return by_count;
  Alignment by_guards = align_keyed(runs, dimensions, true);
  return by_guards.aligned() ? by_guards : by_count;
}

}  // namespace p3s::model
