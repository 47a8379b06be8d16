#include "model/logical_phases.hpp"

#include <fmt/core.h>

#include <algorithm>

namespace p3s::model {
namespace {

// One rank's relevant phases with the same events merged, in order of first appearance.
std::vector<LogicalRankPhase> merge_rank(const signature::RankPhases& rank) {
  std::vector<LogicalRankPhase> merged;
  for (const signature::RankPhase& phase : rank.phases) {
    auto same = std::find_if(merged.begin(), merged.end(),
                             [&](const LogicalRankPhase& m) { return m.events == phase.events; });
    if (same == merged.end()) {
      merged.push_back({phase.events, 0, 0.0, 0.0, std::vector<double>(phase.events.size(), 0.0),
                        phase.first_event, 0.0});
      same = merged.end() - 1;
    }
    const double old_weight = static_cast<double>(same->weight);
    const double weight = static_cast<double>(phase.weight);
    const double total = old_weight + weight;
    for (std::size_t e = 0; e < phase.slots.size() && e < phase.events.size(); ++e) {
      same->slot_cpu_ns[e] =
          (same->slot_cpu_ns[e] * old_weight + phase.slots[e].cpu_ns.mean() * weight) / total;
    }
    same->cpu_ns = (same->cpu_ns * old_weight + phase.cpu_ns.mean() * weight) / total;
    same->instructions =
        (same->instructions * old_weight + phase.instructions.mean() * weight) / total;
    same->weight += phase.weight;
    same->first_event = std::min(same->first_event, phase.first_event);
    same->share += phase.share_of(rank.run_ns);
  }
  std::sort(merged.begin(), merged.end(),
            [](const auto& a, const auto& b) { return a.first_event < b.first_event; });
  return merged;
}

}  // namespace

double LogicalPhase::relevance() const {
  double most = 0;
  for (const LogicalRankPhase& r : ranks) most = std::max(most, r.share);
  return most;
}

LogicalRun logical_phases(const signature::Signature& sig) {
  LogicalRun out;
  out.n = sig.run.nprocs;
  out.workload = sig.run.workload;
  out.instructions = sig.compute == signature::ComputeMetric::Instructions;
  out.host = sig.run.host;
  std::vector<std::vector<LogicalRankPhase>> ranks;
  std::size_t most = 0;
  std::size_t fewest = SIZE_MAX;
  for (const signature::RankPhases& rank : sig.ranks) {
    ranks.push_back(merge_rank(rank));
    most = std::max(most, ranks.back().size());
    fewest = std::min(fewest, ranks.back().size());
  }
  for (std::size_t k = 0; k < most; ++k) {
    if (k >= fewest) {
      std::vector<std::int64_t> with;
      for (std::size_t r = 0; r < ranks.size(); ++r) {
        if (ranks[r].size() > k) with.push_back(static_cast<std::int64_t>(r));
      }
      out.notes.push_back(
          fmt::format("n = {}: logical phase {} is relevant on {} of {} ranks "
                      "only (first: rank {}); not modelled",
                      out.n, k, with.size(), ranks.size(), with.front()));
      continue;
    }
    LogicalPhase phase;
    phase.position = static_cast<std::int32_t>(k);
    for (auto& rank : ranks) phase.ranks.push_back(std::move(rank[k]));
    out.phases.push_back(std::move(phase));
  }
  return out;
}

}  // namespace p3s::model
