#include "signature/phase_extraction.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <span>

#include "signature/reference_cut.hpp"
#include "signature/repetition_units.hpp"

namespace p3s::signature {
namespace {

// A smaller body is preferred when it covers at least this share of what the best covers.
constexpr double kNearlyAsMuch = 0.9;
// The largest compute of a body must exceed the next by this factor to decide where the body
// starts when its entry cannot: below it, timer noise could decide differently on another rank.
constexpr double kStandsOut = 1.5;
// Bodies are cut out while they cover this share of the rank's units or of its time.
constexpr double kWorthAPhase = 0.01;
// After the first, a body must also repeat back to back this many times on average where it
// occurs: a body seen twice in a row inside one-off stretches (two swaps with the same peer on
// a degenerate grid) is part of those stretches, not a loop of its own.
constexpr double kLoopLike = 3.0;
// Candidates searched for in each round, by the search's own estimate of what they cover.
constexpr std::size_t kCandidates = 8;
// Longer bodies (outer loops of everything) are not candidates: their inner loops are.
constexpr std::size_t kLongestBody = 4096;

struct Candidate {
  std::vector<std::uint32_t> key;  // the body's least rotation
  double estimate = 0;             // units the search's loops of this body cover
  bool exhausted = false;          // no longer occurs where nothing is cut out yet
};

// Where a body occurs, rotated to start at key slot `start`.
struct Found {
  std::size_t candidate = 0;
  std::size_t start = 0;
  std::vector<std::size_t> at;  // non-overlapping occurrences, in order
  std::size_t units = 0;
  double time = 0;
  std::size_t blocks = 0;  // runs of back-to-back occurrences
};

class Extractor {
 public:
  Extractor(const TokenSequence& seq, const core::RankTrace& trace, const CommShapes& comms,
            const RepeatOptions& options, const BodyDecisions& decisions, ExtractionRecord* record)
      : seq_(seq),
        trace_(trace),
        comms_(comms),
        options_(options),
        decisions_(decisions),
        record_(record),
        covered_(seq.ids.size(), false) {
    time_prefix_.push_back(0);
    for (const TokenUnit& u : seq.units) {
      const double begin =
          u.first == 0 ? 0.0 : static_cast<double>(trace.events[u.first - 1].t_end);
      time_prefix_.push_back(time_prefix_.back() + static_cast<double>(trace.events[u.key].t_end) -
                             begin);
    }
  }

  std::vector<Segment> run() {
    collect(find_loop_structure(seq_.ids, options_));
    while (const std::optional<Found> found = next()) cut(*found);
    for (std::size_t i = 0; i < covered_.size();) {
      if (covered_[i]) {
        ++i;
        continue;
      }
      std::size_t j = i;
      while (j < covered_.size() && !covered_[j]) ++j;
      segments_.push_back({i, j - i, 1, false});
      i = j;
    }
    std::sort(segments_.begin(), segments_.end(),
              [](const Segment& a, const Segment& b) { return a.first < b.first; });
    return std::move(segments_);
  }

 private:
  // The input symbols of one copy of `symbol`'s body (the symbol itself when it is one).
  void flatten(const LoopStructure& s, std::uint32_t symbol, std::vector<std::uint32_t>& out) {
    if (!s.is_loop(symbol)) {
      out.push_back(symbol);
      return;
    }
    const LoopStructure::Loop& loop = s.loop(symbol);
    for (std::size_t k = 0; k < loop.repeats; ++k) {
      for (std::uint32_t b : loop.body) flatten(s, b, out);
    }
  }

  void collect(const LoopStructure& s) {
    // How often each symbol occurs in the whole sequence: loops only hold earlier symbols, so
    // one pass from the last loop down gives every count.
    std::vector<double> count(s.input_symbols + s.loops.size(), 0.0);
    for (std::uint32_t t : s.top) count[t] += 1;
    for (std::size_t k = s.loops.size(); k-- > 0;) {
      const LoopStructure::Loop& loop = s.loops[k];
      for (std::uint32_t b : loop.body) {
        count[b] += count[s.input_symbols + k] * static_cast<double>(loop.repeats);
      }
    }
    std::map<std::vector<std::uint32_t>, std::size_t> index;
    for (std::size_t k = 0; k < s.loops.size(); ++k) {
      const LoopStructure::Loop& loop = s.loops[k];
      if (loop.flat_length > kLongestBody) continue;
      std::vector<std::uint32_t> body;
      for (std::uint32_t b : loop.body) flatten(s, b, body);
      std::rotate(body.begin(), body.begin() + static_cast<std::ptrdiff_t>(least_rotation(body)),
                  body.end());
      auto [it, inserted] = index.try_emplace(body, candidates_.size());
      if (inserted) candidates_.push_back({std::move(body), 0.0, false});
      candidates_[it->second].estimate += count[s.input_symbols + k] *
                                          static_cast<double>(loop.repeats) *
                                          static_cast<double>(loop.flat_length);
    }
  }

  // Non-overlapping occurrences of `pattern` where nothing is cut out yet (Knuth-Morris-Pratt).
  std::vector<std::size_t> search(const std::vector<std::uint32_t>& pattern) const {
    const std::size_t m = pattern.size();
    std::vector<std::size_t> border(m + 1, 0);
    for (std::size_t i = 1, k = 0; i < m; ++i) {
      while (k > 0 && pattern[i] != pattern[k]) k = border[k];
      if (pattern[i] == pattern[k]) ++k;
      border[i + 1] = k;
    }
    std::vector<std::size_t> at;
    std::size_t k = 0;
    for (std::size_t i = 0; i < seq_.ids.size(); ++i) {
      if (covered_[i]) {
        k = 0;
        continue;
      }
      while (k > 0 && seq_.ids[i] != pattern[k]) k = border[k];
      if (seq_.ids[i] == pattern[k]) ++k;
      if (k == m) {
        at.push_back(i + 1 - m);
        k = 0;  // non-overlapping: start afresh after the match
      }
    }
    return at;
  }

  double unit_cpu(std::size_t u) const {
    double cpu = 0;
    for (std::size_t i = seq_.units[u].first; i <= seq_.units[u].key; ++i) {
      cpu += static_cast<double>(trace_.events[i].burst_cpu);
    }
    return cpu;
  }

  // Key slots at which the body may start with no request in flight, from the units of
  // `walk` (two consecutive copies when there are, else one copy twice).
  std::vector<bool> closed_slots(const std::vector<std::size_t>& at, std::size_t length) const {
    std::size_t first = at.front();
    bool consecutive = false;
    for (std::size_t i = 0; i + 1 < at.size(); ++i) {
      if (at[i + 1] == at[i] + length) {
        first = at[i];
        consecutive = true;
        break;
      }
    }
    std::vector<bool> closed(length, true);
    std::set<std::int64_t> open;
    for (std::size_t p = 0; p < 2 * length; ++p) {
      if (p >= length) closed[p - length] = open.empty();
      const TokenUnit& unit = seq_.units[first + (consecutive ? p : p % length)];
      for (std::size_t i = unit.first; i <= unit.key; ++i) {
        const core::Event& e = trace_.events[i];
        if (core::op_kind(e.op) == core::OpKind::Completion) {
          for (const core::RequestRecord& r : e.requests) open.erase(r.req);
        }
        for (std::int64_t id : posted_requests(e)) open.insert(id);
      }
    }
    return closed;
  }

  // The key slot the program first entered the body at: the earliest window, up to a body
  // before the key's first occurrence, that is a rotation of it.
  std::size_t entry_slot(const std::vector<std::uint32_t>& key, std::size_t first) const {
    const std::size_t length = key.size();
    for (std::size_t back = std::min(first, length - 1); back > 0; --back) {
      const std::size_t p = first - back;
      bool rotation = true;
      for (std::size_t t = 0; t < length && rotation; ++t) {
        rotation = !covered_[p + t] && seq_.ids[p + t] == key[(length - back + t) % length];
      }
      if (rotation) return length - back;
    }
    return 0;
  }

  // The key slot right after the collective that closes the body, when it has collectives: the
  // last one before the program's entry into the body (cyclically), so that a rank whose first
  // repetition differs from the others' (a wait with nothing yet to complete) is still cut where
  // every rank is.
  std::optional<std::size_t> after_collective(const std::vector<std::uint32_t>& key,
                                              std::size_t entry) const {
    const std::size_t length = key.size();
    std::optional<std::size_t> best;
    std::size_t best_distance = length;
    for (std::size_t t = 0; t < length; ++t) {
      if (!is_skeleton(seq_.tokens[key[t]].op)) continue;
      const std::size_t after = (t + 1) % length;
      const std::size_t distance = (entry + length - after) % length;
      if (distance < best_distance) {
        best = after;
        best_distance = distance;
      }
    }
    return best;
  }

  // Where the body is cut, in key slots (see the header).
  std::size_t start_slot(const std::vector<std::uint32_t>& key,
                         const std::vector<std::size_t>& at) const {
    const std::size_t length = key.size();
    const std::size_t entry = entry_slot(key, at.front());
    if (const std::optional<std::size_t> anchored = after_collective(key, entry)) return *anchored;
    std::vector<double> cpu(length, 0.0);
    for (std::size_t a : at) {
      for (std::size_t t = 0; t < length; ++t) cpu[t] += unit_cpu(a + t);
    }
    const std::vector<bool> closed = closed_slots(at, length);
    std::vector<std::size_t> candidates;
    for (std::size_t t = 0; t < length; ++t) {
      if (closed[t]) candidates.push_back(t);
    }
    if (candidates.empty()) {
      for (std::size_t t = 0; t < length; ++t) candidates.push_back(t);
    }
    if (std::find(candidates.begin(), candidates.end(), entry) != candidates.end()) return entry;
    std::vector<std::size_t> by_cpu = candidates;
    std::stable_sort(by_cpu.begin(), by_cpu.end(),
                     [&](std::size_t a, std::size_t b) { return cpu[a] > cpu[b]; });
    if (by_cpu.size() == 1 || cpu[by_cpu[0]] > kStandsOut * cpu[by_cpu[1]]) return by_cpu[0];
    for (std::size_t step = 0; step < length; ++step) {
      const std::size_t t = (entry + step) % length;
      if (std::find(candidates.begin(), candidates.end(), t) != candidates.end()) return t;
    }
    return candidates.front();
  }

  BodyShape shape_of(const std::vector<std::uint32_t>& key) const {
    BodyShape shape;
    shape.reserve(key.size());
    for (std::uint32_t id : key) {
      const EventToken& t = seq_.tokens[id];
      const std::size_t members = comms_.shapes()[static_cast<std::size_t>(t.comm)].members.size();
      shape.push_back(static_cast<std::uint64_t>(t.op) << 32U | members);
    }
    std::rotate(shape.begin(), shape.begin() + static_cast<std::ptrdiff_t>(least_rotation(shape)),
                shape.end());
    return shape;
  }

  // Whether the body found is cut out as a phase: it repeats like a loop and covers a share
  // of the rank's units or of its time, or the run decided so for every rank. The time share
  // alone is this rank's own measurement, so it is recorded for the run to settle.
  bool worth_a_phase(const Found& f, double units, double time) const {
    const bool loop_like = segments_.empty() || static_cast<double>(f.at.size()) >=
                                                    kLoopLike * static_cast<double>(f.blocks);
    if (!loop_like) return false;
    if (static_cast<double>(f.units) >= kWorthAPhase * units) return true;
    const BodyShape shape = shape_of(candidates_[f.candidate].key);
    const bool by_time = f.time >= kWorthAPhase * time;
    if (record_) (by_time ? record_->cut_for_time : record_->left_for_share).insert(shape);
    return by_time || decisions_.cut_anyway.contains(shape);
  }

  std::optional<Found> find(std::size_t c) const {
    const std::vector<std::uint32_t>& key = candidates_[c].key;
    const std::vector<std::size_t> at_key = search(key);
    if (at_key.size() < 2) return std::nullopt;
    Found f;
    f.candidate = c;
    f.start = start_slot(key, at_key);
    if (f.start == 0) {
      f.at = at_key;
    } else {
      std::vector<std::uint32_t> pattern = key;
      std::rotate(pattern.begin(), pattern.begin() + static_cast<std::ptrdiff_t>(f.start),
                  pattern.end());
      f.at = search(pattern);
    }
    if (f.at.size() < 2) return std::nullopt;
    f.units = f.at.size() * key.size();
    for (std::size_t a : f.at) f.time += time_prefix_[a + key.size()] - time_prefix_[a];
    for (std::size_t i = 0; i < f.at.size(); ++i) {
      if (i == 0 || f.at[i] != f.at[i - 1] + key.size()) ++f.blocks;
    }
    return f;
  }

  std::optional<Found> next() {
    std::vector<std::size_t> order;
    for (std::size_t c = 0; c < candidates_.size(); ++c) {
      if (!candidates_[c].exhausted) order.push_back(c);
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return candidates_[a].estimate > candidates_[b].estimate;
    });
    const double units = static_cast<double>(seq_.ids.size());
    const double time = time_prefix_.back();
    std::vector<Found> found;
    for (std::size_t c : order) {
      if (found.size() == kCandidates) break;
      std::optional<Found> f = find(c);
      if (!f || !worth_a_phase(*f, units, time)) {
        candidates_[c].exhausted = true;
        continue;
      }
      found.push_back(std::move(*f));
    }
    if (found.empty()) return std::nullopt;
    std::size_t most = 0;
    for (const Found& f : found) most = std::max(most, f.units);
    const Found* chosen = nullptr;
    for (const Found& f : found) {
      if (static_cast<double>(f.units) < kNearlyAsMuch * static_cast<double>(most)) continue;
      const std::size_t length = candidates_[f.candidate].key.size();
      if (!chosen || length < candidates_[chosen->candidate].key.size() ||
          (length == candidates_[chosen->candidate].key.size() && f.units > chosen->units)) {
        chosen = &f;
      }
    }
    return *chosen;
  }

  void cut(const Found& f) {
    const std::size_t length = candidates_[f.candidate].key.size();
    candidates_[f.candidate].exhausted = true;
    for (std::size_t i = 0; i < f.at.size();) {
      std::size_t j = i + 1;
      while (j < f.at.size() && f.at[j] == f.at[j - 1] + length) ++j;
      segments_.push_back({f.at[i], length, j - i, true});
      std::fill(covered_.begin() + static_cast<std::ptrdiff_t>(f.at[i]),
                covered_.begin() + static_cast<std::ptrdiff_t>(f.at[j - 1] + length), true);
      i = j;
    }
  }

  const TokenSequence& seq_;
  const core::RankTrace& trace_;
  const CommShapes& comms_;
  const RepeatOptions& options_;
  const BodyDecisions& decisions_;
  ExtractionRecord* record_;
  std::vector<bool> covered_;
  std::vector<double> time_prefix_;  // time of units [0, i)
  std::vector<Candidate> candidates_;
  std::vector<Segment> segments_;
};

}  // namespace

template <class Symbol>
std::size_t least_rotation(const std::vector<Symbol>& s) {
  // Booth's algorithm: a failure function over the doubled sequence.
  const std::size_t n = s.size();
  if (n == 0) return 0;
  std::vector<std::ptrdiff_t> failure(2 * n, -1);
  std::size_t k = 0;
  for (std::size_t j = 1; j < 2 * n; ++j) {
    const Symbol c = s[j % n];
    std::ptrdiff_t i = failure[j - k - 1];
    while (i != -1 && c != s[(k + static_cast<std::size_t>(i) + 1) % n]) {
      if (c < s[(k + static_cast<std::size_t>(i) + 1) % n]) k = j - static_cast<std::size_t>(i) - 1;
      i = failure[static_cast<std::size_t>(i)];
    }
    if (i == -1 && c != s[k % n]) {
      if (c < s[k % n]) k = j;
      failure[j - k] = -1;
    } else {
      failure[j - k] = i + 1;
    }
  }
  return k % n;
}

template std::size_t least_rotation(const std::vector<std::uint32_t>& s);
template std::size_t least_rotation(const std::vector<std::uint64_t>& s);

std::vector<Segment> extract_segments(const TokenSequence& seq, const core::RankTrace& trace,
                                      const CommShapes& comms, const RepeatOptions& options,
                                      const BodyDecisions& decisions, ExtractionRecord* record) {
  return Extractor(seq, trace, comms, options, decisions, record).run();
}

}  // namespace p3s::signature
