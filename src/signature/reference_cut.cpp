#include "signature/reference_cut.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <set>
#include <utility>

namespace p3s::signature {
namespace {

// The parse of a rank's collectives against the program tries at most this many states: a
// program and a rank that disagree everywhere are not read like each other.
constexpr std::size_t kMaxParseSteps = 2'000'000;

bool contains(const std::vector<CallKind>& kinds, const CallKind& k) {
  return std::find(kinds.begin(), kinds.end(), k) != kinds.end();
}

// Whether some kind of `kinds` makes the operation `k` makes, whatever its tags: a phase whose
// tags name the steps of a reduction or the stages of a pipeline makes new tags as it grows.
bool same_operation(const std::vector<CallKind>& kinds, const CallKind& k) {
  return std::any_of(kinds.begin(), kinds.end(), [&](const CallKind& c) {
    return c.op == k.op && c.rooted == k.rooted && c.world == k.world;
  });
}

void add_kind(std::vector<CallKind>& kinds, const CallKind& k) {
  if (!contains(kinds, k)) kinds.push_back(k);
}

std::string kind_text(const CallKind& k) {
  return std::string(core::op_name(k.op));
}

// Each phase's edges, from every rank's body of it.
std::vector<PhaseEdges> edges_of(const Signature& sig) {
  std::vector<PhaseEdges> edges(sig.phases.size());
  for (const RankPhases& rank : sig.ranks) {
    for (const RankPhase& phase : rank.phases) {
      PhaseEdges& e = edges.at(static_cast<std::size_t>(phase.id));
      bool seen_skeleton = false;
      std::vector<CallKind> since_skeleton;
      for (const EventToken& t : phase.events) {
        const CallKind k = call_kind(t);
        if (is_skeleton(t.op)) {
          seen_skeleton = true;
          e.anchored = true;
          since_skeleton.clear();
          continue;
        }
        add_kind(e.all, k);
        if (!seen_skeleton) add_kind(e.leading, k);
        since_skeleton.push_back(k);
      }
      if (seen_skeleton) {
        for (const CallKind& k : since_skeleton) add_kind(e.trailing, k);
      }
    }
  }
  return edges;
}

// One repetition placed in the rank's sequence: its units [begin, end), of stretch `item`.
struct Placed {
  std::size_t item = 0;
  std::size_t begin = 0;
  std::size_t end = 0;
};

class RankReader {
 public:
  RankReader(const TokenSequence& seq, const std::vector<ReferenceStretch>& program,
             const ReferenceCut& reference, std::int32_t rank)
      : seq_(seq), program_(program), reference_(reference), rank_(rank) {
    for (std::size_t u = 0; u < seq.units.size(); ++u) {
      const EventToken& t = token(u);
      if (is_skeleton(t.op)) {
        skeleton_units_.push_back(u);
        skeleton_.push_back(call_kind(t));
      }
    }
    repeats_.assign(program.size(), 0);
  }

  std::vector<IdentifiedSegment> read() {
    if (!parse(0, 0)) {
      throw ReferenceCutMismatch(fmt::format(
          "rank {}: its {} collective calls do not follow the {} stretches of the run at n = {}",
          rank_, skeleton_.size(), program_.size(), reference_.n));
    }
    place();
    return segments();
  }

 private:
  const EventToken& token(std::size_t unit) const { return seq_.tokens[seq_.ids[unit]]; }
  CallKind kind(std::size_t unit) const { return call_kind(token(unit)); }
  const PhaseEdges& edges(std::size_t item) const {
    return reference_.phases.at(static_cast<std::size_t>(program_[item].phase));
  }

  // How many repetitions of stretch `item` can start at skeleton position `p`: its collectives
  // repeat there, and the calls inside and between the repetitions are the phase's calls.
  std::size_t fitting_repeats(std::size_t item, std::size_t p) const {
    const std::vector<CallKind>& sk = program_[item].skeleton;
    const PhaseEdges& e = edges(item);
    std::size_t w = 0;
    for (std::size_t at = p; at + sk.size() <= skeleton_.size(); at += sk.size(), ++w) {
      if (!std::equal(sk.begin(), sk.end(), skeleton_.begin() + static_cast<std::ptrdiff_t>(at)))
        break;
      for (std::size_t u = skeleton_units_[at] + 1; u < skeleton_units_[at + sk.size() - 1]; ++u) {
        if (!is_skeleton(token(u).op) && !contains(e.all, kind(u))) return w;
      }
      if (w > 0) {
        // Between this repetition and the one before: the end of one, the start of the other.
        for (std::size_t u = skeleton_units_[at - 1] + 1; u < skeleton_units_[at]; ++u) {
          if (!contains(e.trailing, kind(u)) && !contains(e.leading, kind(u))) return w;
        }
      }
    }
    return w;
  }

  // Whether stretches item.. read the skeleton from position p, repeats_ set along the way.
  // The reference's repeat count first, then as many as fit, then fewer; a one-off once or not.
  bool parse(std::size_t item, std::size_t p) {
    if (item == program_.size()) return p == skeleton_.size();
    if (failed_.contains({item, p})) return false;
    if (++steps_ > kMaxParseSteps) {
      throw ReferenceCutMismatch(fmt::format(
          "rank {}: too irregular to read like the run at n = {}", rank_, reference_.n));
    }
    const std::size_t length = program_[item].skeleton.size();
    if (length == 0) {
      if (parse(item + 1, p)) return true;
      failed_.insert({item, p});
      return false;
    }
    const std::size_t most = fitting_repeats(item, p);
    const auto reference_repeats = static_cast<std::size_t>(program_[item].repeats);
    std::vector<std::size_t> choices;
    if (reference_repeats <= most) choices.push_back(reference_repeats);
    if (reference_repeats > 1) {
      for (std::size_t w = most + 1; w-- > 0;) {
        if (w != reference_repeats) choices.push_back(w);
      }
    } else if (reference_repeats != 0) {
      choices.push_back(0);
    }
    for (std::size_t w : choices) {
      if (parse(item + 1, p + w * length)) {
        repeats_[item] = w;
        return true;
      }
    }
    failed_.insert({item, p});
    return false;
  }

  // The longest run of units from `from` (towards `to`, either way) whose kinds are in `kinds`
  // and not in `except`.
  std::size_t prefix_in(std::size_t from, std::size_t to, const std::vector<CallKind>& kinds,
                        const std::vector<CallKind>& except) const {
    std::size_t u = from;
    while (u < to && contains(kinds, kind(u)) && !contains(except, kind(u))) ++u;
    return u - from;
  }
  std::size_t suffix_in(std::size_t from, std::size_t to, const std::vector<CallKind>& kinds,
                        const std::vector<CallKind>& except) const {
    std::size_t u = to;
    while (u > from && contains(kinds, kind(u - 1)) && !contains(except, kind(u - 1))) --u;
    return to - u;
  }

  // The repetitions of a stretch without collectives that fill units [begin, end): one body
  // repeated, as many times as the reference repeated it where that divides, else the
  // shortest body.
  void place_middle(std::size_t item, std::size_t begin, std::size_t end) {
    const std::size_t length = end - begin;
    if (length == 0) return;
    auto periodic = [&](std::size_t period) {
      if (length % period != 0) return false;
      for (std::size_t u = begin + period; u < end; ++u) {
        if (seq_.ids[u] != seq_.ids[u - period]) return false;
      }
      return true;
    };
    std::size_t period = length;
    for (std::size_t p = 1; p <= length; ++p) {
      if (periodic(p)) {
        period = p;
        break;
      }
    }
    const auto reference_repeats = static_cast<std::size_t>(program_[item].repeats);
    if (reference_repeats > 0 && length % reference_repeats == 0 &&
        periodic(length / reference_repeats)) {
      period = length / reference_repeats;
    }
    for (std::size_t u = begin; u < end; u += period) placed_.push_back({item, u, u + period});
  }

  // Units [begin, end) between the repetition of stretch `before` (or the start) and that of
  // stretch `after` (or the end), with the stretches without collectives between them
  // (`middles`): the end of the one before, their repetitions, the start of the one after.
  // Returns where the repetition after begins.
  std::size_t split_gap(std::size_t begin, std::size_t end, std::optional<std::size_t> before,
                        std::optional<std::size_t> after, const std::vector<std::size_t>& middles) {
    static const std::vector<CallKind> kNone;
    const std::vector<CallKind>& trailing = before ? edges(*before).trailing : kNone;
    const std::vector<CallKind>& leading = after ? edges(*after).leading : kNone;
    if (middles.empty()) {
      // Nothing between them: the repetition after starts as early as its edge allows.
      const std::size_t tail = prefix_in(begin, end, trailing, kNone);
      const std::size_t head = suffix_in(begin, end, leading, kNone);
      if (tail + head < end - begin) throw mismatch(begin + tail, end - head);
      extend_last(end - head);
      return end - head;
    }
    std::vector<CallKind> middle_kinds;
    for (std::size_t m : middles) {
      for (const CallKind& k : edges(m).all) {
        // Two such stretches that make the same kind of call cannot be told apart here.
        if (contains(middle_kinds, k)) {
          throw ReferenceCutMismatch(fmt::format(
              "rank {}: two phases without collectives of the run at n = {} both make {} "
              "calls between the same collectives",
              rank_, reference_.n, kind_text(k)));
        }
      }
      for (const CallKind& k : edges(m).all) add_kind(middle_kinds, k);
    }
    const std::size_t tail = prefix_in(begin, end, trailing, middle_kinds);
    const std::size_t head = suffix_in(begin + tail, end, leading, middle_kinds);
    extend_last(begin + tail);
    std::size_t at = begin + tail;
    const std::size_t stop = end - head;
    for (std::size_t i = 0; i < middles.size(); ++i) {
      const std::vector<CallKind>& kinds = edges(middles[i]).all;
      const bool last = i + 1 == middles.size();
      const std::size_t take = last ? stop - at : prefix_in(at, stop, kinds, kNone);
      // The last takes the calls left between its neighbours when it makes their operations.
      for (std::size_t u = at; u < at + take; ++u) {
        if (!contains(kinds, kind(u)) && !(last && same_operation(kinds, kind(u)))) {
          throw mismatch(u, u + 1);
        }
      }
      place_middle(middles[i], at, at + take);
      at += take;
    }
    return stop;
  }

  // The last repetition placed ends at `end`.
  void extend_last(std::size_t end) {
    if (!placed_.empty()) placed_.back().end = end;
  }

  ReferenceCutMismatch mismatch(std::size_t from, std::size_t to) const {
    std::string calls;
    for (std::size_t u = from; u < to && u < from + 4; ++u) {
      calls += (calls.empty() ? "" : ", ") + kind_text(kind(u));
    }
    if (to - from > 4) calls += fmt::format(", ... ({} calls)", to - from);
    return ReferenceCutMismatch(fmt::format(
        "rank {}: calls {} (from its event {}) belong to no phase of the run at n = {} there",
        rank_, calls, seq_.units[from].key, reference_.n));
  }

  // The stretches without collectives in [from, to).
  std::vector<std::size_t> middles_in(std::size_t from, std::size_t to) const {
    std::vector<std::size_t> middles;
    for (std::size_t item = from; item < to; ++item) {
      if (program_[item].skeleton.empty()) middles.push_back(item);
    }
    return middles;
  }

  // Every unit into a repetition, in order.
  void place() {
    std::optional<std::size_t> last_item;
    std::size_t cursor = 0;
    std::size_t p = 0;
    std::size_t middles_from = 0;
    for (std::size_t item = 0; item < program_.size(); ++item) {
      const std::size_t length = program_[item].skeleton.size();
      if (length == 0 || repeats_[item] == 0) continue;
      for (std::size_t j = 0; j < repeats_[item]; ++j, p += length) {
        const std::size_t first = skeleton_units_[p];
        const std::size_t last = skeleton_units_[p + length - 1];
        const std::vector<std::size_t> middles =
            j == 0 ? middles_in(middles_from, item) : std::vector<std::size_t>{};
        const std::size_t begin = split_gap(cursor, first, last_item, item, middles);
        placed_.push_back({item, begin, last + 1});
        cursor = last + 1;
        last_item = item;
      }
      middles_from = item + 1;
    }
    split_gap(cursor, seq_.units.size(), last_item, std::nullopt,
              middles_in(middles_from, program_.size()));
  }

  std::vector<IdentifiedSegment> segments() const {
    std::vector<IdentifiedSegment> out;
    for (const Placed& r : placed_) {
      const std::size_t length = r.end - r.begin;
      if (length == 0) continue;
      const std::int32_t phase = program_[r.item].phase;
      if (!out.empty()) {
        Segment& s = out.back().segment;
        if (out.back().phase == phase && s.length == length &&
            s.first + s.length * s.repeats == r.begin) {
          ++s.repeats;
          s.loop = true;
          continue;
        }
      }
      out.push_back({{r.begin, length, 1, false}, phase});
    }
    return out;
  }

  const TokenSequence& seq_;
  const std::vector<ReferenceStretch>& program_;
  const ReferenceCut& reference_;
  std::int32_t rank_ = 0;
  std::vector<std::size_t> skeleton_units_;
  std::vector<CallKind> skeleton_;
  std::vector<std::size_t> repeats_;
  std::set<std::pair<std::size_t, std::size_t>> failed_;
  std::size_t steps_ = 0;
  std::vector<Placed> placed_;
};

}  // namespace

bool is_skeleton(core::Op op) {
  const core::OpKind kind = core::op_kind(op);
  return kind == core::OpKind::Collective || kind == core::OpKind::CommCreate ||
         kind == core::OpKind::Finalize;
}

const std::vector<ReferenceStretch>& ReferenceCut::program_for(std::int64_t rank) const {
  if (program_rank) return ranks.at(*program_rank);
  if (rank >= 0 && rank < static_cast<std::int64_t>(ranks.size())) {
    return ranks[static_cast<std::size_t>(rank)];
  }
  return ranks.at(fullest_rank);
}

ReferenceCut reference_cut_of(const Signature& reference) {
  ReferenceCut cut;
  cut.n = reference.run.nprocs;
  cut.run = reference.run_dir;
  cut.phases = edges_of(reference);
  for (const RunPhase& p : reference.phases) cut.phase_weights.push_back(p.weight);
  for (const RankPhases& rank : reference.ranks) {
    std::vector<ReferenceStretch> program;
    for (const PhaseStretch& s : rank.stretches) {
      if (s.phase < 0) {
        throw std::invalid_argument(
            "a reference signature must keep every phase (threshold 0) to be cut like");
      }
      const RankPhase& phase = rank.phases.at(static_cast<std::size_t>(s.phase));
      ReferenceStretch stretch{phase.id, s.repeats, {}};
      for (const EventToken& t : phase.events) {
        if (is_skeleton(t.op)) stretch.skeleton.push_back(call_kind(t));
      }
      program.push_back(std::move(stretch));
    }
    cut.ranks.push_back(std::move(program));
    if (rank.events > reference.ranks[cut.fullest_rank].events) {
      cut.fullest_rank = cut.ranks.size() - 1;
    }
  }
  return cut;
}

std::vector<IdentifiedSegment> cut_like(const TokenSequence& seq,
                                        const std::vector<ReferenceStretch>& program,
                                        const ReferenceCut& reference, std::int32_t rank) {
  return RankReader(seq, program, reference, rank).read();
}

}  // namespace p3s::signature
