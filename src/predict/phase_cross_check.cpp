#include "predict/phase_cross_check.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "core/op.hpp"
#include "predict/platform_probe.hpp"

namespace p3s::predict {
namespace {

std::string bytes_text(std::int64_t bytes) {
  if (bytes >= (1 << 20) && bytes % (1 << 20) == 0) return fmt::format("{} MiB", bytes >> 20);
  if (bytes >= 1024 && bytes % 1024 == 0) return fmt::format("{} KiB", bytes >> 10);
  return fmt::format("{} B", bytes);
}

// How far a message's fastest measured time may lie from the platform's and still agree.
constexpr double kMessageAgreement = 0.5;

std::string us(double seconds) {
  return fmt::format("{:.3g} us", seconds * 1e6);
}

// The model's compute of one repetition, its slowest rank's, as the simulation ran it (s).
CauseEvidence compute_evidence(const model::SltScaledTrace& trace, int phase, double cpu_speedup,
                               const replay::PhaseResult& replayed) {
  double ns = 0;
  for (int r = 0; r < trace.nprocs(); ++r) ns = std::max(ns, trace.compute_ns(phase, r));
  const double modelled = ns * 1e-9 / cpu_speedup;
  return {"compute", replayed.compute_seconds - modelled,
          fmt::format("compute: the replay emulated {} per repetition (its slowest rank), the "
                      "simulation {}{}",
                      us(replayed.compute_seconds), us(modelled),
                      cpu_speedup != 1 ? fmt::format(" (--cpu-speedup {:g})", cpu_speedup) : "")};
}

// The received messages of the phase by size and link: the fastest measured, how many, and by
// how many ranks.
struct MessageClass {
  double fastest = 0;
  std::int64_t count = 0;
  std::set<std::int32_t> ranks;
};

CauseEvidence point_to_point_evidence(const replay::ReplayResult& replayed, int phase,
                                      const sim::SimOptions& options) {
  std::map<std::pair<std::int64_t, bool>, MessageClass> classes;
  for (const replay::MessageResult& m : replayed.messages) {
    if (m.phase != phase || m.send) continue;
    MessageClass& c = classes[{m.bytes, m.same_node}];
    c.fastest = c.count == 0 ? m.seconds : std::min(c.fastest, m.seconds);
    ++c.count;
    c.ranks.insert(m.rank);
  }
  CauseEvidence e{"point-to-point", 0, ""};
  std::vector<std::string> parts;
  for (const auto& [key, c] : classes) {
    const auto [bytes, same_node] = key;
    const double platform = platform_message_seconds(options, bytes, same_node);
    // Per rank and repetition: each message is recorded in every measured repetition of the
    // step that measured its unit.
    const double per_rank =
        static_cast<double>(c.count) /
        static_cast<double>(std::max<std::size_t>(1, c.ranks.size()) *
                            static_cast<std::size_t>(std::max(1, replayed.repetitions)));
    // A received message's time includes waiting for its sender, which the fastest instance
    // does not always shed: within half of the platform's time, they agree.
    if (std::fabs(c.fastest - platform) > kMessageAgreement * platform) {
      e.seconds += (c.fastest - platform) * per_rank;
    }
    parts.push_back(
        fmt::format("{} {} took {} at the fastest in the replay, {} on the platform "
                    "({:.3g} per rank and repetition)",
                    bytes_text(bytes), same_node ? "on one node" : "between nodes", us(c.fastest),
                    us(platform), per_rank));
  }
  e.text = parts.empty() ? "point-to-point: no message measured"
                         : fmt::format("point-to-point: messages of {}", fmt::join(parts, "; "));
  return e;
}

// What compute and messages leave of the difference `unexplained`, the collectives' when the
// phase has any; beside it, each collective the replay fitted against the platform's time for
// it alone (a collective's cost inside a phase also holds the skew it leaves, which a lone call
// does not show, so that comparison supports the finding rather than makes it).
CauseEvidence collective_evidence(const model::SltScaledTrace& trace, int phase,
                                  const replay::ReplayResult& replayed,
                                  const sim::SimOptions& options, double unexplained) {
  std::vector<core::Event> events;
  trace.phase_events(phase, 0, events);
  std::set<std::tuple<core::Op, std::int64_t, std::int64_t>> shapes;
  for (const core::Event& e : events) {
    if (core::op_kind(e.op) == core::OpKind::Collective && e.comm == 0)
      shapes.emplace(core::blocking_form(e.op), e.bytes, e.rbytes);
  }
  CauseEvidence evidence{"collective", shapes.empty() ? 0.0 : unexplained, ""};
  std::vector<std::string> parts;
  for (const auto& [op, bytes, rbytes] : shapes) {
    const std::string name(core::op_name(op));
    const std::int64_t per_member = bytes;  // a lambda may not capture a structured binding
    const auto fitted = std::find_if(
        replayed.collectives.begin(), replayed.collectives.end(),
        [&](const replay::CollectiveResult& c) { return c.op == name && c.bytes == per_member; });
    if (fitted == replayed.collectives.end()) {
      parts.push_back(fmt::format("{} of {}: timed live with the phase, no time of its own", name,
                                  bytes_text(bytes)));
      continue;
    }
    const double platform = platform_collective_seconds(options, op, bytes, rbytes, trace.nprocs());
    parts.push_back(
        fmt::format("{} of {} at N = {}: {} fitted from {} to {} members in the "
                    "replay, {} on the platform",
                    name, bytes_text(bytes), trace.nprocs(), us(fitted->at_n_seconds),
                    fitted->sizes.empty() ? 0 : fitted->sizes.front(),
                    fitted->sizes.empty() ? 0 : fitted->sizes.back(), us(platform)));
  }
  evidence.text = parts.empty()
                      ? "collective: none in the phase"
                      : fmt::format(
                            "collective: {} per repetition that compute and messages do not "
                            "explain; {}",
                            us(unexplained), fmt::join(parts, "; "));
  return evidence;
}

}  // namespace

std::optional<ReplayVerdict> replay_verdict(const replay::PhaseResult& phase) {
  if (!phase.not_held.empty())
    return ReplayVerdict{"replay-not-held",
                         "the replay does not hold this phase at this R: " + phase.not_held, true};
  if (!phase.collective_fit_misses.empty())
    return ReplayVerdict{
        "replay-collective-unfitted",
        "the replay's time for its collectives at N is a guess: " + phase.collective_fit_misses,
        false};
  return std::nullopt;
}

bool phase_times_differ(double simulated, double replayed, double tolerance) {
  if (simulated <= 0) return replayed > 0;
  return std::fabs(replayed - simulated) > tolerance * simulated;
}

std::vector<CauseEvidence> causes_of(std::vector<CauseEvidence> evidence, double simulated_et,
                                     double tolerance) {
  std::erase_if(evidence, [&](const CauseEvidence& e) {
    return std::fabs(e.seconds) < 0.5 * tolerance * simulated_et;
  });
  std::sort(evidence.begin(), evidence.end(), [](const CauseEvidence& a, const CauseEvidence& b) {
    return std::fabs(a.seconds) > std::fabs(b.seconds);
  });
  return evidence;
}

std::vector<report::PhaseCheck> cross_check_phases(const model::SltScaledTrace& trace,
                                                   const sim::SimResult& simulated,
                                                   const replay::ReplayResult& replayed,
                                                   double tolerance,
                                                   const sim::SimOptions& options) {
  std::vector<report::PhaseCheck> out;
  const auto& phases = trace.phases();
  for (const sim::PhaseTime& s : simulated.phases) {
    const auto r = std::find_if(replayed.phases.begin(), replayed.phases.end(),
                                [&](const replay::PhaseResult& p) { return p.name == s.name; });
    const auto t = std::find_if(phases.begin(), phases.end(),
                                [&](const core::ScaledPhase& p) { return p.name == s.name; });
    if (r == replayed.phases.end() || t == phases.end()) continue;
    report::PhaseCheck check{s.name, s.weight, s.phase_et, r->phase_et, false, {}, ""};
    check.flagged = phase_times_differ(s.phase_et, r->phase_et, tolerance);
    const std::optional<ReplayVerdict> verdict = replay_verdict(*r);
    if (check.flagged && verdict) {
      check.causes.push_back(verdict->cause);
      check.cause = verdict->text;
    } else if (check.flagged) {
      const int p = static_cast<int>(t - phases.begin());
      CauseEvidence compute = compute_evidence(trace, p, simulated.cpu_speedup, *r);
      CauseEvidence messages = point_to_point_evidence(replayed, p, options);
      const double rest = r->phase_et - s.phase_et - compute.seconds - messages.seconds;
      const std::vector<CauseEvidence> evidence = {
          std::move(compute), std::move(messages),
          collective_evidence(trace, p, replayed, options, rest)};
      const std::vector<CauseEvidence> causes = causes_of(evidence, s.phase_et, tolerance);
      std::vector<std::string> texts;
      for (const CauseEvidence& c : causes) {
        check.causes.push_back(c.branch);
        texts.push_back(c.text);
      }
      if (causes.empty()) {
        for (const CauseEvidence& e : evidence) texts.push_back(e.text);
        check.cause = fmt::format(
            "no single cause: each part is within {:g} % of the simulated "
            "PhaseET ({})",
            50 * tolerance, fmt::join(texts, "; "));
      } else {
        check.cause = fmt::format("{}", fmt::join(texts, "; "));
      }
    }
    out.push_back(std::move(check));
  }
  return out;
}

}  // namespace p3s::predict
