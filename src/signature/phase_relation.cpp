#include "signature/phase_relation.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>

#include "core/rank_list.hpp"

namespace p3s::signature {
namespace {

// Alignments of more cells than this are not searched: only with a threshold near 0, where
// every phase is relevant; phases are then matched position by position.
constexpr std::size_t kMaxAlignmentCells = std::size_t{1} << 22;
// Notes beyond this many are counted, not listed: an irregular run disagrees everywhere.
constexpr std::size_t kMaxNotes = 20;

std::int32_t pick_representative(const Signature& sig) {
  std::int32_t best = 0;
  std::int64_t best_error = std::numeric_limits<std::int64_t>::max();
  for (const RankPhases& rank : sig.ranks) {
    const std::int64_t error = std::llabs(rank.pet_ns() - sig.aet_ns);
    if (error < best_error) {
      best_error = error;
      best = rank.rank;
    }
  }
  return best;
}

// The operations of a phase with runs of the same operation counted once: border ranks of a
// stencil post fewer receives per iteration than inner ranks, but in the same order.
std::vector<core::Op> operation_outline(const RankPhase& phase) {
  std::vector<core::Op> outline;
  for (const EventToken& e : phase.events) {
    if (outline.empty() || outline.back() != e.op) outline.push_back(e.op);
  }
  return outline;
}

// How much alike two phases at the same logical place are, 0 when they cannot be the same
// phase: the same operations count most, then the same weight (the same loop), then the same
// number of events. The same weight alone still matches: the corner ranks of a wavefront only
// send or only receive in the loop that inner ranks both receive and send in.
int likeness(const RankPhase& a, const RankPhase& b) {
  const bool operations = operation_outline(a) == operation_outline(b);
  const bool weight = a.weight == b.weight;
  const bool events = a.events.size() == b.events.size();
  if (!operations && !weight) return 0;
  return (operations ? 4 : 0) + (weight ? 2 : 0) + (events ? 1 : 0);
}

// For each of `rank`'s phases, the index of the reference phase it matches or -1: the
// order-keeping alignment with the most likeness (a weighted longest common subsequence).
std::vector<std::int32_t> align(const std::vector<RankPhase>& reference,
                                const std::vector<RankPhase>& rank) {
  const std::size_t n = reference.size(), m = rank.size();
  std::vector<std::int32_t> match(m, -1);
  if (n * m > kMaxAlignmentCells) {
    for (std::size_t j = 0; j < std::min(n, m); ++j) {
      if (likeness(reference[j], rank[j]) > 0) match[j] = static_cast<std::int32_t>(j);
    }
    return match;
  }
  // best[i][j]: most likeness aligning reference[i..) with rank[j..).
  std::vector<std::vector<int>> best(n + 1, std::vector<int>(m + 1, 0));
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t j = m; j-- > 0;) {
      const int pair = likeness(reference[i], rank[j]);
      best[i][j] =
          std::max({best[i + 1][j], best[i][j + 1], pair > 0 ? pair + best[i + 1][j + 1] : 0});
    }
  }
  for (std::size_t i = 0, j = 0; i < n && j < m;) {
    const int pair = likeness(reference[i], rank[j]);
    if (pair > 0 && best[i][j] == pair + best[i + 1][j + 1]) {
      match[j++] = static_cast<std::int32_t>(i++);
    } else if (best[i][j] == best[i + 1][j]) {
      ++i;
    } else {
      ++j;
    }
  }
  return match;
}

std::string rank_list(const std::vector<std::int32_t>& ranks) {
  std::string out;
  core::append_rank_list(out, ranks);
  return out;
}

void describe_disagreements(Signature& sig) {
  std::vector<std::string> notes;
  const auto nprocs = static_cast<std::int32_t>(sig.ranks.size());
  for (const RunPhase& run_phase : sig.phases) {
    std::map<std::int64_t, std::vector<std::int32_t>> ranks_by_weight;
    for (const RankPhases& rank : sig.ranks) {
      for (const RankPhase& phase : rank.phases) {
        if (phase.id == run_phase.id) ranks_by_weight[phase.weight].push_back(rank.rank);
      }
    }
    if (run_phase.ranks < nprocs) {
      std::vector<std::int32_t> having;
      for (const auto& [weight, ranks] : ranks_by_weight)
        having.insert(having.end(), ranks.begin(), ranks.end());
      std::sort(having.begin(), having.end());
      notes.push_back(
          fmt::format("phase {} is relevant on ranks {} only", run_phase.id, rank_list(having)));
    }
    if (ranks_by_weight.size() > 1) {
      std::string text = fmt::format("phase {} has different weights:", run_phase.id);
      for (const auto& [weight, ranks] : ranks_by_weight) {
        text += fmt::format(" {} on ranks {};", weight, rank_list(ranks));
      }
      text.pop_back();
      notes.push_back(std::move(text));
    }
  }
  if (notes.size() > kMaxNotes) {
    const std::size_t more = notes.size() - kMaxNotes;
    notes.resize(kMaxNotes);
    notes.push_back(fmt::format("... and {} more disagreements between ranks", more));
  }
  sig.notes = std::move(notes);
}

}  // namespace

void relate_phases(Signature& sig) {
  sig.aet_ns = 0;
  for (const RankPhases& rank : sig.ranks) sig.aet_ns = std::max(sig.aet_ns, rank.run_ns);
  sig.phases.clear();
  if (sig.ranks.empty()) return;
  sig.representative = pick_representative(sig);

  RankPhases& reference = sig.ranks[sig.representative];
  for (RankPhase& phase : reference.phases) {
    phase.id = static_cast<std::int32_t>(sig.phases.size());
    sig.phases.push_back(
        {phase.id, phase.weight, static_cast<std::int64_t>(phase.events.size()), 1, true});
  }
  const std::size_t reference_count = sig.phases.size();

  for (RankPhases& rank : sig.ranks) {
    if (rank.rank == sig.representative) continue;
    const std::vector<std::int32_t> matched = align(reference.phases, rank.phases);
    std::vector<bool> used(sig.phases.size(), false);
    for (std::size_t j = 0; j < rank.phases.size(); ++j) {
      RankPhase& phase = rank.phases[j];
      std::int32_t id = matched[j];
      // A phase the representative does not have may be one another rank added already.
      for (std::size_t a = reference_count; id < 0 && a < sig.phases.size(); ++a) {
        if (!used[a] && sig.phases[a].weight == phase.weight &&
            sig.phases[a].events == static_cast<std::int64_t>(phase.events.size())) {
          id = static_cast<std::int32_t>(a);
        }
      }
      if (id < 0) {
        id = static_cast<std::int32_t>(sig.phases.size());
        sig.phases.push_back(
            {id, phase.weight, static_cast<std::int64_t>(phase.events.size()), 0, true});
        used.push_back(false);
      }
      used[id] = true;
      phase.id = id;
      RunPhase& run_phase = sig.phases[id];
      ++run_phase.ranks;
      if (run_phase.weight != phase.weight) run_phase.same_weight = false;
    }
  }
  describe_disagreements(sig);
}

}  // namespace p3s::signature
