#include "cli/phase_cross_check.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "core/op.hpp"

namespace p3s::cli {
namespace {

// The largest compute time of one repetition of the phase over the ranks, as simulated (s).
double modelled_compute(const model::SltScaledTrace& trace, int phase, double cpu_speedup) {
  double ns = 0;
  for (int r = 0; r < trace.nprocs(); ++r) ns = std::max(ns, trace.compute_ns(phase, r));
  return ns * 1e-9 / cpu_speedup;
}

std::string bytes_text(std::int64_t bytes) {
  if (bytes >= (1 << 20) && bytes % (1 << 20) == 0) return fmt::format("{} MiB", bytes >> 20);
  if (bytes >= 1024 && bytes % 1024 == 0) return fmt::format("{} KiB", bytes >> 10);
  return fmt::format("{} B", bytes);
}

// What rank 0 sends and which collectives it calls in one repetition of the phase.
struct PhaseTraffic {
  std::set<std::int64_t> message_bytes;
  std::set<std::pair<std::string, std::int64_t>> collectives;
};

PhaseTraffic traffic_of(const model::SltScaledTrace& trace, int phase) {
  std::vector<core::Event> events;
  trace.phase_events(phase, 0, events);
  PhaseTraffic t;
  for (const core::Event& e : events) {
    const core::OpKind kind = core::op_kind(e.op);
    if (kind == core::OpKind::PointToPoint && e.dst != core::kNone) t.message_bytes.insert(e.bytes);
    if (kind == core::OpKind::Collective) {
      t.collectives.emplace(std::string(core::op_name(core::blocking_form(e.op))), e.bytes);
    }
  }
  return t;
}

std::string likely_cause(const model::SltScaledTrace& trace, int phase, double simulated_et,
                         double cpu_speedup, const replay::PhaseResult& replayed,
                         const std::string& compute_mode) {
  const double compute = modelled_compute(trace, phase, cpu_speedup);
  if (compute >= 0.5 * simulated_et) {
    return fmt::format(
        "compute: {:.3g} s of its simulated {:.3g} s is modelled compute, which the replay "
        "emulates ({}) on the real machine",
        compute, simulated_et, compute_mode);
  }
  const PhaseTraffic traffic = traffic_of(trace, phase);
  std::vector<std::string> collectives;
  for (const auto& [op, bytes] : traffic.collectives) {
    collectives.push_back(fmt::format("{} of {}", op, bytes_text(bytes)));
  }
  const std::string how = replayed.collectives == "fit"
                              ? "their time at N fitted from fewer members measured"
                              : (replayed.collectives == "live" ? "run with all N members" : "");
  if (traffic.message_bytes.empty() && !collectives.empty()) {
    return fmt::format("a collective: {} ({})", fmt::join(collectives, ", "), how);
  }
  std::vector<std::string> sizes;
  for (const std::int64_t b : traffic.message_bytes) sizes.push_back(bytes_text(b));
  std::string cause = fmt::format(
      "communication: messages of {} ({} between nodes per repetition{}), compute only "
      "{:.3g} s of {:.3g} s",
      sizes.empty() ? "no size" : fmt::format("{}", fmt::join(sizes, ", ")),
      replayed.app_network_messages, replayed.app_network_messages == 0 ? ": all on one node" : "",
      compute, simulated_et);
  if (!collectives.empty()) {
    cause += fmt::format("; collectives {} ({})", fmt::join(collectives, ", "), how);
  }
  return cause;
}

}  // namespace

std::vector<report::PhaseCheck> cross_check_phases(const model::SltScaledTrace& trace,
                                                   const sim::SimResult& simulated,
                                                   const replay::ReplayResult& replayed,
                                                   double tolerance) {
  std::vector<report::PhaseCheck> out;
  const auto& phases = trace.phases();
  for (const sim::PhaseTime& s : simulated.phases) {
    const auto r = std::find_if(replayed.phases.begin(), replayed.phases.end(),
                                [&](const replay::PhaseResult& p) { return p.name == s.name; });
    const auto t = std::find_if(phases.begin(), phases.end(),
                                [&](const core::ScaledPhase& p) { return p.name == s.name; });
    if (r == replayed.phases.end() || t == phases.end()) continue;
    report::PhaseCheck check{s.name, s.weight, s.phase_et, r->phase_et, false, ""};
    check.flagged = std::fabs(check.difference_pct()) > 100 * tolerance;
    if (check.flagged) {
      check.cause = likely_cause(trace, static_cast<int>(t - phases.begin()), s.phase_et,
                                 simulated.cpu_speedup, *r, replayed.compute);
    }
    out.push_back(std::move(check));
  }
  return out;
}

}  // namespace p3s::cli
