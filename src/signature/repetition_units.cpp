#include "signature/repetition_units.hpp"

#include <algorithm>
#include <optional>
#include <unordered_map>

namespace p3s::signature {

std::vector<std::int64_t> posted_requests(const core::Event& e) {
  if (e.op == core::Op::Startall) {
    std::vector<std::int64_t> ids;
    for (const core::RequestRecord& r : e.requests) ids.push_back(r.req);
    return ids;
  }
  if ((core::is_nonblocking(e.op) || e.op == core::Op::Start) && e.req >= 0) return {e.req};
  return {};
}

namespace {

struct Repetition {
  std::size_t segment = 0;
  std::vector<std::size_t> own;  // its units in trace order
};

// A non-blocking send: its message leaves when it is posted, only its buffer waits for the
// completion.
bool posts_send(const core::Event& e) {
  return core::is_point_to_point(e.op) && core::is_nonblocking(e.op) && e.dst != core::kNone &&
         e.src == core::kNone;
}

// The repetition each unit should move to (its own when it stays). A completion of nothing but
// sends an earlier repetition posted (a pipeline's wait for the last step's sends, made in the
// next iteration) moves back to the end of the latest of them: the sends' messages belong where
// they were posted, with the receives that take them. Any other post completed in a later
// repetition moves forward to it (a receive posted for the next iteration).
std::vector<std::size_t> targets(const std::vector<std::size_t>& home, const TokenSequence& seq,
                                 const core::RankTrace& trace) {
  struct Post {
    std::size_t repetition = 0;
    bool send = false;
  };
  std::unordered_map<std::int64_t, Post> posted;
  std::unordered_map<std::int64_t, std::size_t> completed_in;
  std::vector<std::size_t> target(home);
  for (std::size_t u = 0; u < seq.units.size(); ++u) {
    const core::Event& e = trace.events[seq.units[u].key];
    for (std::int64_t id : posted_requests(e)) posted[id] = {home[u], posts_send(e)};
    if (core::op_kind(e.op) != core::OpKind::Completion) continue;
    std::optional<std::size_t> back;
    for (const core::RequestRecord& r : e.requests) {
      const auto it = posted.find(r.req);
      const bool earlier_send =
          it != posted.end() && it->second.send && it->second.repetition < home[u];
      if (!earlier_send) {
        back.reset();
        break;
      }
      back = std::max(back.value_or(0), it->second.repetition);
    }
    if (back) target[u] = *back;
    for (const core::RequestRecord& r : e.requests) completed_in.try_emplace(r.req, target[u]);
  }
  for (std::size_t u = 0; u < seq.units.size(); ++u) {
    for (std::int64_t id : posted_requests(trace.events[seq.units[u].key])) {
      const auto it = completed_in.find(id);
      if (it != completed_in.end() && it->second > target[u]) target[u] = it->second;
    }
  }
  return target;
}

// Each repetition's units: posts moved in from earlier ones first, then its own, then the
// completions moved back from later ones.
std::vector<std::vector<std::size_t>> assemble(const std::vector<Repetition>& reps,
                                               const std::vector<std::size_t>& home,
                                               const std::vector<std::size_t>& target) {
  std::vector<std::vector<std::size_t>> moved_forward(reps.size()), moved_back(reps.size());
  std::vector<std::vector<std::size_t>> units(reps.size());
  for (std::size_t u = 0; u < home.size(); ++u) {
    if (target[u] > home[u]) moved_forward[target[u]].push_back(u);
    if (target[u] < home[u]) moved_back[target[u]].push_back(u);
  }
  for (std::size_t t = 0; t < reps.size(); ++t) {
    units[t] = moved_forward[t];
    for (std::size_t u : reps[t].own) {
      if (target[u] == home[u]) units[t].push_back(u);
    }
    units[t].insert(units[t].end(), moved_back[t].begin(), moved_back[t].end());
  }
  return units;
}

bool same_calls(const std::vector<std::size_t>& a, const std::vector<std::size_t>& b,
                const TokenSequence& seq) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [&](std::size_t x, std::size_t y) { return seq.ids[x] == seq.ids[y]; });
}

// Every repetition of every segment, in trace order; `home` gets each unit's repetition.
std::vector<Repetition> segment_repetitions(const std::vector<Segment>& segments,
                                            std::vector<std::size_t>& home) {
  std::vector<Repetition> reps;
  for (std::size_t s = 0; s < segments.size(); ++s) {
    const Segment& segment = segments[s];
    for (std::size_t k = 0; k < segment.repeats; ++k) {
      Repetition rep{s, {}};
      for (std::size_t i = 0; i < segment.length; ++i) {
        const std::size_t u = segment.first + k * segment.length + i;
        home[u] = reps.size();
        rep.own.push_back(u);
      }
      reps.push_back(std::move(rep));
    }
  }
  return reps;
}

// Whether the repetitions of segment s make the same calls with the units as they now stand.
bool repetitions_agree(std::size_t s, const std::vector<Segment>& segments,
                       const std::vector<Repetition>& reps,
                       const std::vector<std::vector<std::size_t>>& units,
                       const TokenSequence& seq) {
  const auto first = static_cast<std::size_t>(
      std::find_if(reps.begin(), reps.end(), [&](const Repetition& r) { return r.segment == s; }) -
      reps.begin());
  for (std::size_t t = first + 1; t < first + segments[s].repeats; ++t) {
    if (!same_calls(units[first], units[t], seq)) return false;
  }
  return true;
}

// Segment s's units, and the units that would have moved into it, stay where they were.
void keep_home(std::size_t s, const std::vector<Repetition>& reps,
               const std::vector<std::size_t>& home, std::vector<std::size_t>& target) {
  for (std::size_t u = 0; u < home.size(); ++u) {
    if (reps[home[u]].segment == s || reps[target[u]].segment == s) target[u] = home[u];
  }
}

}  // namespace

std::vector<std::vector<std::vector<std::size_t>>> repetition_units(
    const std::vector<Segment>& segments, const TokenSequence& seq, const core::RankTrace& trace) {
  std::vector<std::size_t> home(seq.units.size(), 0);
  const std::vector<Repetition> reps = segment_repetitions(segments, home);
  std::vector<std::size_t> target = targets(home, seq, trace);
  // A loop whose repetitions no longer agree keeps its units where they were, and so do the
  // units that would have moved into it; undoing one loop's moves can upset no other.
  std::vector<std::vector<std::size_t>> units = assemble(reps, home, target);
  std::vector<bool> undone(segments.size(), false);
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t s = 0; s < segments.size(); ++s) {
      if (undone[s] || segments[s].repeats < 2 ||
          repetitions_agree(s, segments, reps, units, seq)) {
        continue;
      }
      undone[s] = true;
      changed = true;
      keep_home(s, reps, home, target);
      units = assemble(reps, home, target);
    }
  }
  std::vector<std::vector<std::vector<std::size_t>>> out(segments.size());
  for (std::size_t t = 0; t < reps.size(); ++t) {
    if (!units[t].empty()) out[reps[t].segment].push_back(std::move(units[t]));
  }
  return out;
}

}  // namespace p3s::signature
