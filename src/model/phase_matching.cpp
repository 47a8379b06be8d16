#include "model/phase_matching.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <numeric>
#include <optional>
#include <utility>

#include "signature/phase_likeness.hpp"

namespace p3s::model {
namespace {

using signature::PhaseView;

// Across runs the outline must carry the match: a weight of 1 is shared by every one-off phase.
constexpr double kMinOutline = 0.5;

std::vector<PhaseView> views_of(const LogicalRun& run) {
  std::vector<PhaseView> views;
  for (const LogicalPhase& p : run.phases) {
    views.push_back(signature::view_of(p.ranks[p.fullest_rank()].events, p.common_weight()));
  }
  return views;
}

// The phases of a run that the family at `position` (in logical order) may pair with: those
// between the phases the nearest paired families before and after it took.
std::pair<std::size_t, std::size_t> allowed_range(
    const std::vector<std::optional<std::size_t>>& paired, std::size_t position,
    std::size_t count) {
  std::size_t low = 0, high = count;
  for (std::size_t q = position; q-- > 0;) {
    if (paired[q]) {
      low = *paired[q] + 1;
      break;
    }
  }
  for (std::size_t q = position + 1; q < paired.size(); ++q) {
    if (paired[q]) {
      high = *paired[q];
      break;
    }
  }
  return {low, high};
}

struct Likest {
  std::size_t phase = 0;
  signature::Likeness likeness;
};

// Of the phases in [low, high) not yet taken, the likest to a family's representative; none
// when no phase there is like it enough.
std::optional<Likest> likest(const PhaseView& representative, const std::vector<PhaseView>& views,
                             const std::vector<bool>& taken, std::size_t low, std::size_t high) {
  std::optional<Likest> best;
  for (std::size_t j = low; j < high; ++j) {
    if (taken[j]) continue;
    const signature::Likeness l = signature::likeness(representative, views[j], false);
    if (l.outline < kMinOutline || l.score() <= 0) continue;
    if (!best || l.score() > best->likeness.score()) best = Likest{j, l};
  }
  return best;
}

class FamilyMatcher {
 public:
  FamilyMatcher(std::size_t runs, std::size_t extra) : runs_(runs), extra_(extra) {}

  // Pairs the phases of run `index` (its views) with the families, the most relevant families
  // first, each with the likest phase the logical order still allows. Unpaired phases start
  // families when `may_start`.
  void add(const LogicalRun& run, const std::vector<PhaseView>& views, std::size_t index,
           bool extra, bool may_start) {
    std::vector<bool> taken(views.size(), false);
    std::vector<std::optional<std::size_t>> paired(order_.size());
    for (std::size_t position : by_relevance()) {
      const auto [low, high] = allowed_range(paired, position, views.size());
      const std::size_t f = order_[position];
      const std::optional<Likest> best = likest(representative_[f], views, taken, low, high);
      if (!best) continue;
      taken[best->phase] = true;
      paired[position] = best->phase;
      PhaseFamily& family = families_[f];
      (extra ? family.extra : family.members)[index] =
          PhaseMember{best->phase, best->likeness.score(), best->likeness.reason()};
      if (!extra) {
        family.relevance = std::max(family.relevance, run.phases[best->phase].relevance());
      }
    }
    if (may_start) start_unpaired(run, views, index, taken, paired);
  }

  // Pairs the phases of run `index`, cut like the reference run (families' members at run
  // `reference`), with the families by the reference's phase each is.
  void add_cut_like(const LogicalRun& run, std::size_t index, std::size_t reference, bool extra) {
    for (PhaseFamily& family : families_) {
      const std::optional<PhaseMember>& ref = family.members[reference];
      if (!ref || ref->phase >= run.phases.size()) continue;
      const LogicalPhase& phase = run.phases[ref->phase];
      if (phase.common_weight() == 0) continue;
      (extra ? family.extra : family.members)[index] =
          PhaseMember{ref->phase, 0.0, fmt::format("cut like the run at n = {}", run.cut_like_n)};
      if (!extra) family.relevance = std::max(family.relevance, phase.relevance());
    }
  }

  std::vector<PhaseFamily> take() {
    std::vector<PhaseFamily> ordered;
    for (std::size_t f : order_) ordered.push_back(std::move(families_[f]));
    return ordered;
  }

 private:
  // Positions in the logical order, the most relevant families first.
  std::vector<std::size_t> by_relevance() const {
    std::vector<std::size_t> positions(order_.size());
    std::iota(positions.begin(), positions.end(), 0);
    std::stable_sort(positions.begin(), positions.end(), [&](std::size_t a, std::size_t b) {
      return families_[order_[a]].relevance > families_[order_[b]].relevance;
    });
    return positions;
  }

  // Each phase of the run that `taken` leaves out starts a family, placed in the logical order
  // right after the family of the paired phase before it (`paired`: per position).
  void start_unpaired(const LogicalRun& run, const std::vector<PhaseView>& views, std::size_t index,
                      const std::vector<bool>& taken,
                      const std::vector<std::optional<std::size_t>>& paired) {
    std::vector<std::size_t> position_of(views.size(), 0);
    for (std::size_t q = 0; q < paired.size(); ++q) {
      if (paired[q]) position_of[*paired[q]] = q;
    }
    std::size_t at = 0;
    for (std::size_t j = 0; j < views.size(); ++j) {
      if (taken[j]) {
        at = position_of[j] + 1;
        continue;
      }
      start(run, views[j], index, j, at);
      // Families at or after the insertion moved up by one.
      for (std::size_t& q : position_of) {
        if (q >= at) ++q;
      }
      ++at;
    }
  }

  void start(const LogicalRun& run, const PhaseView& view, std::size_t index, std::size_t phase,
             std::size_t at) {
    PhaseFamily f;
    f.members.resize(runs_);
    f.extra.resize(extra_);
    f.members[index] = PhaseMember{phase, 0.0, "reference"};
    f.reference_run = index;
    f.relevance = run.phases[phase].relevance();
    families_.push_back(std::move(f));
    representative_.push_back(view);
    order_.insert(order_.begin() + static_cast<std::ptrdiff_t>(at), families_.size() - 1);
  }

  std::size_t runs_ = 0;
  std::size_t extra_ = 0;
  std::vector<PhaseFamily> families_;
  std::vector<PhaseView> representative_;  // per family: its member in the largest run
  std::vector<std::size_t> order_;         // families in logical order
};

}  // namespace

std::size_t PhaseFamily::runs_present() const {
  return static_cast<std::size_t>(
      std::count_if(members.begin(), members.end(), [](const auto& m) { return m.has_value(); }));
}

std::vector<PhaseFamily> match_phases(const std::vector<const LogicalRun*>& runs,
                                      const std::vector<const LogicalRun*>& extra) {
  if (runs.empty()) return {};
  std::vector<std::vector<PhaseView>> views;
  views.reserve(runs.size());
  for (const LogicalRun* run : runs) views.push_back(views_of(*run));
  FamilyMatcher matcher(runs.size(), extra.size());
  const std::size_t reference = runs.size() - 1;
  auto cut_like_reference = [&](const LogicalRun& run) {
    return !run.cut_like.empty() && run.cut_like == runs[reference]->dir;
  };
  for (std::size_t i = runs.size(); i-- > 0;) {
    if (i != reference && cut_like_reference(*runs[i])) {
      matcher.add_cut_like(*runs[i], i, reference, false);
    } else {
      matcher.add(*runs[i], views[i], i, false, true);
    }
  }
  for (std::size_t e = 0; e < extra.size(); ++e) {
    if (cut_like_reference(*extra[e])) {
      matcher.add_cut_like(*extra[e], e, reference, true);
      continue;
    }
    const std::vector<PhaseView> extra_views = views_of(*extra[e]);
    matcher.add(*extra[e], extra_views, e, true, false);
  }
  return matcher.take();
}

}  // namespace p3s::model
