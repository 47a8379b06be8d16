#include "signature/summary_table.hpp"

#include <fmt/core.h>

#include <cmath>
#include <set>

namespace p3s::signature {
namespace {

std::string duration(double ns) {
  const double a = std::abs(ns);
  if (a >= 1e9) return fmt::format("{:.3f} s", ns / 1e9);
  if (a >= 1e6) return fmt::format("{:.3f} ms", ns / 1e6);
  return fmt::format("{:.1f} us", ns / 1e3);
}

std::string percent(double share) {
  return fmt::format("{:.1f} %", 100.0 * share);
}

}  // namespace

std::string summary_table(const Signature& sig) {
  std::string out;
  if (sig.ranks.empty()) return out;
  const RankPhases& rep = sig.representative_rank();
  std::set<std::int64_t> counts;
  for (const RankPhases& r : sig.ranks) counts.insert(r.phase_count);
  out += fmt::format("signature of {} ({} ranks, compute from {})\n", sig.run_dir, sig.run.nprocs,
                     sig.compute == ComputeMetric::Instructions ? "instructions" : "CPU time");
  out +=
      fmt::format("representative rank {}: {} events, {} phases, {} relevant (threshold {})\n",
                  rep.rank, rep.events, rep.phase_count, rep.phases.size(), percent(sig.threshold));
  if (counts.size() > 1) {
    out += fmt::format("phases found per rank: {} to {}\n", *counts.begin(), *counts.rbegin());
  }
  out += fmt::format("\n{:>6} {:>7} {:>9} {:>12} {:>11} {:>9} {:>6}\n", "phase", "events", "weight",
                     "PhaseET", "time share", "coverage", "ranks");
  double coverage = 0;
  for (const RankPhase& p : rep.phases) {
    const double share = p.share_of(rep.run_ns);
    coverage += share;
    out += fmt::format("{:>6} {:>7} {:>9} {:>12} {:>11} {:>9} {:>6}\n", p.id, p.events.size(),
                       p.weight, duration(p.time_ns.mean()), percent(share), percent(coverage),
                       sig.phases.at(p.id).ranks);
  }
  if (rep.phase_count > static_cast<std::int64_t>(rep.phases.size())) {
    out += fmt::format(
        "{:>6} {:>7} {:>9} {:>12} {:>11}   ({} phases below the threshold)\n", "other",
        rep.other_events, "", "",
        percent(rep.run_ns > 0 ? static_cast<double>(rep.other_ns) / static_cast<double>(rep.run_ns)
                               : 0.0),
        rep.phase_count - static_cast<std::int64_t>(rep.phases.size()));
  }
  const double pet = static_cast<double>(sig.pet_ns());
  const double aet = static_cast<double>(sig.aet_ns);
  out += fmt::format(
      "\ncoverage {}   PET {}   AET {}   PET error {}   (traced command: {:.3f} s)\n",
      percent(sig.coverage()), duration(pet), duration(aet),
      aet > 0 ? fmt::format("{:+.1f} %", 100.0 * (pet - aet) / aet) : "n/a", sig.run.wall_seconds);
  for (const std::string& note : sig.notes) out += "note: " + note + "\n";
  return out;
}

}  // namespace p3s::signature
