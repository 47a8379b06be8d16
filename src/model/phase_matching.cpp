#include "model/phase_matching.hpp"

#include <algorithm>
#include <numeric>

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

class FamilyMatcher {
 public:
  FamilyMatcher(std::size_t runs, std::size_t extra) : runs_(runs), extra_(extra) {}

  // Pairs the phases of run `index` (its views) with the families, the most relevant families
  // first, each with the likest phase the logical order still allows. Unpaired phases start
  // families when `may_start`.
  void add(const LogicalRun& run, const std::vector<PhaseView>& views, std::size_t index,
           bool extra, bool may_start) {
    const std::size_t count = views.size();
    std::vector<bool> taken(count, false);
    std::vector<std::optional<std::size_t>> paired(order_.size());
    std::vector<std::size_t> by_relevance(order_.size());
    std::iota(by_relevance.begin(), by_relevance.end(), 0);
    std::stable_sort(by_relevance.begin(), by_relevance.end(), [&](std::size_t a, std::size_t b) {
      return families_[order_[a]].relevance > families_[order_[b]].relevance;
    });
    for (std::size_t position : by_relevance) {
      std::size_t low = 0, high = count;
      for (std::size_t q = position; q-- > 0;) {
        if (paired[q]) {
          low = *paired[q] + 1;
          break;
        }
      }
      for (std::size_t q = position + 1; q < order_.size(); ++q) {
        if (paired[q]) {
          high = *paired[q];
          break;
        }
      }
      const std::size_t f = order_[position];
      std::optional<std::size_t> best;
      signature::Likeness best_likeness;
      for (std::size_t j = low; j < high; ++j) {
        if (taken[j]) continue;
        const signature::Likeness l = signature::likeness(representative_[f], views[j], false);
        if (l.outline < kMinOutline || l.score() <= 0) continue;
        if (!best || l.score() > best_likeness.score()) {
          best = j;
          best_likeness = l;
        }
      }
      if (!best) continue;
      taken[*best] = true;
      paired[position] = best;
      PhaseFamily& family = families_[f];
      (extra ? family.extra : family.members)[index] =
          PhaseMember{*best, best_likeness.score(), best_likeness.reason()};
      if (!extra) family.relevance = std::max(family.relevance, run.phases[*best].relevance());
    }
    if (!may_start) return;
    std::vector<std::size_t> position_of(count, 0);
    for (std::size_t q = 0; q < order_.size(); ++q) {
      if (paired[q]) position_of[*paired[q]] = q;
    }
    std::size_t at = 0;
    for (std::size_t j = 0; j < count; ++j) {
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

  std::vector<PhaseFamily> take() {
    std::vector<PhaseFamily> ordered;
    for (std::size_t f : order_) ordered.push_back(std::move(families_[f]));
    return ordered;
  }

 private:
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
  for (const LogicalRun* run : runs) views.push_back(views_of(*run));
  FamilyMatcher matcher(runs.size(), extra.size());
  for (std::size_t i = runs.size(); i-- > 0;) matcher.add(*runs[i], views[i], i, false, true);
  for (std::size_t e = 0; e < extra.size(); ++e) {
    const std::vector<PhaseView> extra_views = views_of(*extra[e]);
    matcher.add(*extra[e], extra_views, e, true, false);
  }
  return matcher.take();
}

}  // namespace p3s::model
