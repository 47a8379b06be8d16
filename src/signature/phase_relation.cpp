#include "signature/phase_relation.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>
#include <numeric>

#include "core/rank_list.hpp"
#include "signature/phase_likeness.hpp"

namespace p3s::signature {
namespace {

// Alignments of more cells than this are not searched (a threshold near 0 on an irregular
// run, where every one-off stretch is a phase): each phase then takes its best-scoring match
// in order.
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

// A phase of the run as found so far: the rank phase that introduced it stands for it.
struct RunEntry {
  PhaseView view;
  std::int64_t events = 0;
};

double pair_likeness(const RunEntry& entry, const PhaseView& phase) {
  return likeness(entry.view, phase, true).score();
}

// Too large an alignment to search: each phase takes its best-scoring entry after the one the
// phase before it took.
std::vector<std::int32_t> align_greedily(const std::vector<RunEntry>& entries,
                                         const std::vector<PhaseView>& phases) {
  std::vector<std::int32_t> match(phases.size(), -1);
  std::size_t from = 0;
  for (std::size_t j = 0; j < phases.size(); ++j) {
    double best = 0;
    for (std::size_t i = from; i < entries.size(); ++i) {
      const double s = pair_likeness(entries[i], phases[j]);
      if (s > best) {
        best = s;
        match[j] = static_cast<std::int32_t>(i);
      }
    }
    if (match[j] >= 0) from = static_cast<std::size_t>(match[j]) + 1;
  }
  return match;
}

// The order-keeping pairing with the highest total likeness (a weighted longest common
// subsequence).
std::vector<std::int32_t> align_optimally(const std::vector<RunEntry>& entries,
                                          const std::vector<PhaseView>& phases) {
  const std::size_t n = entries.size(), m = phases.size();
  std::vector<std::int32_t> match(m, -1);
  std::vector<std::vector<double>> pair(n, std::vector<double>(m));
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < m; ++j) pair[i][j] = pair_likeness(entries[i], phases[j]);
  }
  // best[i][j]: most likeness aligning entries[i..) with phases[j..).
  std::vector<std::vector<double>> best(n + 1, std::vector<double>(m + 1, 0));
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t j = m; j-- > 0;) {
      const double take = pair[i][j] > 0 ? pair[i][j] + best[i + 1][j + 1] : 0;
      best[i][j] = std::max({best[i + 1][j], best[i][j + 1], take});
    }
  }
  for (std::size_t i = 0, j = 0; i < n && j < m;) {
    if (pair[i][j] > 0 && best[i][j] == pair[i][j] + best[i + 1][j + 1]) {
      match[j++] = static_cast<std::int32_t>(i++);
    } else if (best[i][j] == best[i + 1][j]) {
      ++i;
    } else {
      ++j;
    }
  }
  return match;
}

// For each of `phases`, the index of the entry it is, or -1.
std::vector<std::int32_t> align(const std::vector<RunEntry>& entries,
                                const std::vector<PhaseView>& phases) {
  if (entries.size() * phases.size() > kMaxAlignmentCells) return align_greedily(entries, phases);
  return align_optimally(entries, phases);
}

std::string rank_list(const std::vector<std::int32_t>& ranks) {
  std::string out;
  core::append_rank_list(out, ranks);
  return out;
}

void describe_disagreements(Signature& sig) {
  std::vector<std::string> notes;
  const auto nprocs = static_cast<std::int32_t>(sig.ranks.size());
  std::vector<std::map<std::int64_t, std::vector<std::int32_t>>> by_weight(sig.phases.size());
  for (const RankPhases& rank : sig.ranks) {
    for (const RankPhase& phase : rank.phases) {
      by_weight[static_cast<std::size_t>(phase.id)][phase.weight].push_back(rank.rank);
    }
  }
  for (const RunPhase& run_phase : sig.phases) {
    if (run_phase.ranks == 0) continue;  // a reference's phase this run does not have
    const auto& ranks_by_weight = by_weight[static_cast<std::size_t>(run_phase.id)];
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

void adopt_reference_phases(Signature& sig, std::size_t phase_count) {
  sig.aet_ns = 0;
  for (const RankPhases& rank : sig.ranks) sig.aet_ns = std::max(sig.aet_ns, rank.run_ns);
  sig.phases.clear();
  if (sig.ranks.empty()) return;
  sig.representative = pick_representative(sig);
  std::vector<std::map<std::int64_t, std::int32_t>> weights(phase_count);
  std::vector<std::int64_t> events(phase_count, 0);
  for (const RankPhases& rank : sig.ranks) {
    for (const RankPhase& phase : rank.phases) {
      const auto id = static_cast<std::size_t>(phase.id);
      ++weights.at(id)[phase.weight];
      events[id] = std::max(events[id], static_cast<std::int64_t>(phase.events.size()));
    }
  }
  for (std::size_t id = 0; id < phase_count; ++id) {
    RunPhase p{static_cast<std::int32_t>(id), 0, events[id], 0, weights[id].size() <= 1};
    std::int32_t most = 0;
    for (const auto& [weight, ranks] : weights[id]) {
      p.ranks += ranks;
      if (ranks > most) {
        most = ranks;
        p.weight = weight;
      }
    }
    sig.phases.push_back(p);
  }
  describe_disagreements(sig);
}

void relate_phases(Signature& sig) {
  sig.aet_ns = 0;
  for (const RankPhases& rank : sig.ranks) sig.aet_ns = std::max(sig.aet_ns, rank.run_ns);
  sig.phases.clear();
  if (sig.ranks.empty()) return;
  sig.representative = pick_representative(sig);

  std::vector<std::size_t> richest_first(sig.ranks.size());
  std::iota(richest_first.begin(), richest_first.end(), 0);
  std::stable_sort(richest_first.begin(), richest_first.end(), [&](std::size_t a, std::size_t b) {
    return sig.ranks[a].events > sig.ranks[b].events;
  });

  // Entries in logical order; `entry_of` maps each rank phase to its entry by the entry's
  // creation number, which the final numbering replaces.
  std::vector<RunEntry> entries;
  std::vector<std::size_t> created;  // creation number of entries[i]
  std::vector<std::vector<std::size_t>> entry_of(sig.ranks.size());
  for (const std::size_t r : richest_first) {
    std::vector<RankPhase>& phases = sig.ranks[r].phases;
    std::vector<PhaseView> views;
    views.reserve(phases.size());
    for (const RankPhase& p : phases) views.push_back(view_of(p.events, p.weight));
    std::vector<std::int32_t> match = align(entries, views);
    std::size_t insert_at = 0;
    for (std::size_t j = 0; j < phases.size(); ++j) {
      if (match[j] >= 0) {
        entry_of[r].push_back(created[static_cast<std::size_t>(match[j])]);
        insert_at = static_cast<std::size_t>(match[j]) + 1;
        continue;
      }
      const std::size_t number = created.size();
      entries.insert(entries.begin() + static_cast<std::ptrdiff_t>(insert_at),
                     {std::move(views[j]), static_cast<std::int64_t>(phases[j].events.size())});
      created.insert(created.begin() + static_cast<std::ptrdiff_t>(insert_at), number);
      entry_of[r].push_back(number);
      // The rank's later matches are to entries at or after the insertion, which moved up.
      for (std::size_t k = j + 1; k < phases.size(); ++k) {
        if (match[k] >= static_cast<std::int32_t>(insert_at)) ++match[k];
      }
      ++insert_at;
    }
  }

  // Run phases are numbered in logical order.
  std::vector<std::int32_t> id_of_number(created.size());
  for (std::size_t i = 0; i < created.size(); ++i) {
    id_of_number[created[i]] = static_cast<std::int32_t>(i);
    sig.phases.push_back(
        {static_cast<std::int32_t>(i), entries[i].view.weight, entries[i].events, 0, true});
  }
  for (const std::size_t r : richest_first) {
    std::vector<RankPhase>& phases = sig.ranks[r].phases;
    for (std::size_t j = 0; j < phases.size(); ++j) {
      RankPhase& phase = phases[j];
      phase.id = id_of_number[entry_of[r][j]];
      RunPhase& run_phase = sig.phases[static_cast<std::size_t>(phase.id)];
      ++run_phase.ranks;
      if (run_phase.weight != phase.weight) run_phase.same_weight = false;
    }
  }
  describe_disagreements(sig);
}

}  // namespace p3s::signature
