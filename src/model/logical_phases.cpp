#include "model/logical_phases.hpp"

#include <algorithm>
#include <map>

namespace p3s::model {

double LogicalPhase::relevance() const {
  double most = 0;
  for (const LogicalRankPhase& r : ranks) most = std::max(most, r.share);
  return most;
}

std::int64_t LogicalPhase::common_weight() const {
  std::map<std::int64_t, int> counts;
  for (const LogicalRankPhase& r : ranks) {
    if (r.present()) ++counts[r.weight];
  }
  if (counts.empty()) return 0;
  return std::max_element(counts.begin(), counts.end(),
                          [](const auto& a, const auto& b) { return a.second < b.second; })
      ->first;
}

std::size_t LogicalPhase::fullest_rank() const {
  std::size_t best = 0;
  for (std::size_t r = 1; r < ranks.size(); ++r) {
    if (ranks[r].events.size() > ranks[best].events.size()) best = r;
  }
  return best;
}

double LogicalRun::share_of(const std::vector<std::size_t>& phase_indexes) const {
  double run = 0;
  for (std::int64_t ns : rank_run_ns) run += static_cast<double>(ns);
  double covered = 0;
  for (std::size_t k : phase_indexes) {
    for (const LogicalRankPhase& r : phases[k].ranks) covered += static_cast<double>(r.total_ns);
  }
  return run > 0 ? covered / run : 0.0;
}

namespace {

// An untimed run measured in calls: each rank's run is its calls, each phase's part of it the
// calls of its repetitions, so that relevance and coverage still say how much of the run a
// phase is.
void measure_in_calls(const signature::Signature& sig, LogicalRun& run) {
  for (std::size_t r = 0; r < sig.ranks.size(); ++r) {
    const signature::RankPhases& rank = sig.ranks[r];
    run.rank_run_ns[r] = rank.events;
    for (const signature::RankPhase& phase : rank.phases) {
      LogicalRankPhase& mine = run.phases[static_cast<std::size_t>(phase.id)].ranks[r];
      mine.total_ns = phase.weight * static_cast<std::int64_t>(phase.events.size());
      mine.share = rank.events > 0
                       ? static_cast<double>(mine.total_ns) / static_cast<double>(rank.events)
                       : 0.0;
    }
  }
}

}  // namespace

LogicalRun logical_phases(const signature::Signature& sig) {
  LogicalRun out;
  out.n = sig.run.nprocs;
  out.dir = sig.run_dir;
  out.workload = sig.run.workload;
  out.instructions = sig.compute == signature::ComputeMetric::Instructions;
  out.host = sig.run.host;
  out.cut_like = sig.cut_like_run;
  if (!sig.ranks.empty()) out.dims_created = sig.ranks.front().dims_created;
  out.cut_like_n = sig.cut_like_n;
  out.phases.resize(sig.phases.size());
  for (std::size_t k = 0; k < sig.phases.size(); ++k) {
    out.phases[k].id = static_cast<std::int32_t>(k);
    out.phases[k].ranks.resize(sig.ranks.size());
  }
  for (std::size_t r = 0; r < sig.ranks.size(); ++r) {
    const signature::RankPhases& rank = sig.ranks[r];
    out.rank_run_ns.push_back(rank.run_ns);
    out.rank_comms.push_back(rank.comms);
    for (const signature::RankPhase& phase : rank.phases) {
      LogicalRankPhase& mine = out.phases[static_cast<std::size_t>(phase.id)].ranks[r];
      mine.events = phase.events;
      mine.weight = phase.weight;
      mine.cpu_ns = phase.cpu_ns.mean();
      mine.instructions = phase.instructions.mean();
      for (const signature::SlotStats& slot : phase.slots) {
        mine.slot_cpu_ns.push_back(slot.cpu_ns.mean());
        mine.bytes_range.emplace_back(slot.bytes.min(), slot.bytes.max());
        mine.rbytes_range.emplace_back(slot.rbytes.min(), slot.rbytes.max());
      }
      mine.completes = phase.completes;
      mine.first_event = phase.first_event;
      mine.total_ns = phase.total_ns;
      mine.share = phase.share_of(rank.run_ns);
    }
  }
  out.untimed = !sig.ranks.empty() &&
                std::all_of(sig.ranks.begin(), sig.ranks.end(),
                            [](const signature::RankPhases& r) { return r.run_ns == 0; });
  if (out.untimed) measure_in_calls(sig, out);
  return out;
}

}  // namespace p3s::model
