#include "signature/phase_likeness.hpp"

#include <fmt/core.h>

#include <algorithm>

#include "signature/token_sequence.hpp"

namespace p3s::signature {
namespace {

// Outlines of similarity below this share little more than an allreduce.
constexpr double kMinOutline = 0.5;
constexpr double kSizeFactor = 1.5;

}  // namespace

CallKind call_kind(const EventToken& t) {
  return {t.op, t.tag, t.rtag, t.root != core::kNone, t.comm == 0};
}

std::vector<CallKind> call_outline(const std::vector<EventToken>& events) {
  std::vector<CallKind> outline;
  for (const EventToken& e : events) {
    const CallKind k = call_kind(e);
    if (outline.empty() || !(outline.back() == k)) outline.push_back(k);
  }
  return outline;
}

double outline_similarity(const std::vector<CallKind>& a, const std::vector<CallKind>& b) {
  if (a.empty() && b.empty()) return 1.0;
  // Longest common subsequence, one row at a time.
  std::vector<std::size_t> previous(b.size() + 1, 0), current(b.size() + 1, 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      current[j] =
          a[i - 1] == b[j - 1] ? previous[j - 1] + 1 : std::max(previous[j], current[j - 1]);
    }
    std::swap(previous, current);
  }
  return 2.0 * static_cast<double>(previous[b.size()]) / static_cast<double>(a.size() + b.size());
}

double Likeness::score() const {
  if (outline < kMinOutline && !same_weight) return 0;
  if (outline == 0 && !repeated) return 0;
  double s = 10 * outline;
  if (same_calls) s += 20;
  if (same_weight) s += 5;
  if (close_sizes) s += 2;
  if (same_length) s += 1;
  return s;
}

std::string Likeness::reason() const {
  std::string out = same_calls ? std::string("same calls")
                               : fmt::format("outlines {:.0f} % alike", 100 * outline);
  if (same_weight) out += ", same weight";
  if (close_sizes) out += ", close sizes";
  return out;
}

PhaseView view_of(const std::vector<EventToken>& events, std::int64_t weight) {
  PhaseView v;
  v.events = &events;
  v.outline = call_outline(events);
  v.weight = weight;
  for (const EventToken& e : events) v.bytes += static_cast<double>(e.bytes + e.rbytes);
  return v;
}

Likeness likeness(const PhaseView& a, const PhaseView& b, bool compare_peers) {
  Likeness l;
  l.outline = outline_similarity(a.outline, b.outline);
  l.same_weight = a.weight == b.weight;
  l.repeated = l.same_weight && a.weight > 1;
  l.same_length = a.events->size() == b.events->size();
  const double low = std::min(a.bytes, b.bytes) + 4096;
  const double high = std::max(a.bytes, b.bytes) + 4096;
  l.close_sizes = high <= kSizeFactor * low;
  if (compare_peers && l.same_length) {
    l.same_calls = std::equal(
        a.events->begin(), a.events->end(), b.events->begin(),
        [](const EventToken& x, const EventToken& y) { return structure(x) == structure(y); });
  }
  return l;
}

}  // namespace p3s::signature
