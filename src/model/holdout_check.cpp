#include "model/holdout_check.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

#include "model/fit_band.hpp"
#include "model/phase_alignment.hpp"
#include "model/slt_bounds.hpp"
#include "model/slt_scaled_trace.hpp"
#include "model/undecided_rules.hpp"

namespace p3s::model {
namespace {

double error_pct(double predicted, double actual) {
  if (actual == 0) return predicted == 0 ? 0.0 : 100.0;
  return 100.0 * (predicted - actual) / actual;
}

// The one phase of `trace`: its mean CPU time per rank and repetition, and its weight.
std::pair<double, double> mean_compute_and_weight(const SltScaledTrace& trace, std::int64_t n) {
  double cpu = 0;
  for (std::int64_t r = 0; r < n; ++r) cpu += trace.compute_ns(0, static_cast<int>(r));
  return {cpu / static_cast<double>(n), trace.phases().front().weight};
}

// Why `fit` has no band at n, in words; empty when it has one.
std::string why_no_band(const ScalingFit& fit, double n) {
  if (fit_band(fit, n, kHoldoutBandLevel)) return "";
  if (fit.training.empty()) return "the SLT was written without its fits' runs";
  if (!fit.trusted_at(n)) {
    return fmt::format("{} changes direction beyond n = {:.0f}", fit.equation(),
                       *fit.quality.trusted_up_to);
  }
  return fmt::format("{}: its runs do not bound it at n = {:.0f}", fit.equation(), n);
}

// Why the compute of phase 0 of `one` has no band at n; empty when every group's fit has one.
std::string why_no_compute_band(const Slt& one, double n) {
  const std::vector<InstructionGroup>& groups = one.compute.phases.at(0).groups;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const std::string why = why_no_band(groups[g].per_rank_ns, n);
    if (!why.empty()) return fmt::format("the compute of group {}, {}", g, why);
  }
  return "";
}

// The one phase of `one` with every fit at both ends of its band at n, as errors against the
// run's mean compute and weight. A band is left out, and `no_band` says why, where its own fits
// have none (the others, left nominal, do not move it) or a bound cannot be instantiated (the
// nominal model could: a bound's weight or bytes may be out of reach).
void band_against_run(const Slt& one, const LogicalPhase& actual, std::int64_t n,
                      HoldoutPhase& out) {
  const auto at_n = static_cast<double>(n);
  double actual_cpu = 0;
  for (const LogicalRankPhase& rank : actual.ranks) actual_cpu += rank.cpu_ns;
  actual_cpu /= at_n;
  const auto actual_weight = static_cast<double>(actual.common_weight());
  std::pair<double, double> ends[2];
  for (const FitBound bound : {FitBound::Low, FitBound::High}) {
    std::vector<std::string> unbounded;
    const Slt at = slt_at_bound(one, bound, at_n, kHoldoutBandLevel, unbounded);
    try {
      const SltScaledTrace trace(at, static_cast<int>(n),
                                 InstantiateOptions{.accept_undecided = true});
      ends[bound == FitBound::High ? 1 : 0] = mean_compute_and_weight(trace, n);
    } catch (const std::domain_error& e) {
      out.no_band = fmt::format("its {} bound cannot be instantiated: {}",
                                bound == FitBound::High ? "high" : "low", e.what());
      return;
    }
  }
  const std::string compute_gap = why_no_compute_band(one, at_n);
  const std::string weight_gap = why_no_band(one.phases.at(0).weight, at_n);
  if (compute_gap.empty()) {
    out.compute_band =
        ErrorBand{error_pct(ends[0].first, actual_cpu), error_pct(ends[1].first, actual_cpu)};
  } else {
    out.no_band = "no compute band: " + compute_gap;
  }
  if (weight_gap.empty()) {
    out.weight_band = ErrorBand{error_pct(ends[0].second, actual_weight),
                                error_pct(ends[1].second, actual_weight)};
  } else {
    out.no_band +=
        (out.no_band.empty() ? "" : "; ") + ("no weight band: the weight, " + weight_gap);
  }
}

// The SLT reduced to phase k, so it can be instantiated without the others.
Slt only_phase(const Slt& slt, std::size_t k) {
  Slt one;
  one.runs = slt.runs;
  one.phases = {slt.phases[k]};
  one.compute = slt.compute;
  one.compute.phases = {slt.compute.phases.at(k)};
  return one;
}

using Call = std::tuple<core::Op, std::int64_t, std::int64_t>;  // operation, to, from

// Where the model's calls of one rank first differ from the run's, in words; empty when they
// are the same.
std::string first_difference(const std::vector<Call>& run, const std::vector<Call>& model) {
  if (run.size() != model.size()) {
    return fmt::format("{} calls, the model {}", run.size(), model.size());
  }
  for (std::size_t i = 0; i < run.size(); ++i) {
    if (run[i] == model[i]) continue;
    const auto& [op, dst, src] = run[i];
    const auto& [model_op, model_dst, model_src] = model[i];
    return fmt::format("call {}: {} to {} from {}, the model {} to {} from {}", i,
                       core::op_name(op), dst, src, core::op_name(model_op), model_dst, model_src);
  }
  return "";
}

// Bytes rank r sends to each peer, summed.
using SentBytes = std::map<std::int64_t, double>;

// The bytes of `model` that go to a peer `run` sent less to.
double misrouted(const SentBytes& run, const SentBytes& model) {
  double wrong = 0;
  for (const auto& [peer, bytes] : model) {
    const auto it = run.find(peer);
    wrong += std::max(0.0, bytes - (it == run.end() ? 0.0 : it->second));
  }
  return wrong;
}

bool same_calls_in_any_order(std::vector<Call> run, std::vector<Call> model) {
  std::sort(run.begin(), run.end());
  std::sort(model.begin(), model.end());
  return run == model;
}

double sent(const SentBytes& to) {
  double total = 0;
  for (const auto& [peer, bytes] : to) total += bytes;
  return total;
}

// The model's calls of one rank, and the bytes it sends to each peer; returns the bytes it moves.
double model_rank_calls(const std::vector<core::Event>& events, std::vector<Call>& calls,
                        SentBytes& to) {
  calls.clear();
  to.clear();
  double moved = 0;
  for (const core::Event& e : events) {
    moved += static_cast<double>(e.bytes + e.rbytes);
    calls.emplace_back(e.op, e.dst, e.src);
    if (e.dst >= 0 && core::is_point_to_point(e.op)) to[e.dst] += static_cast<double>(e.bytes);
  }
  return moved;
}

// The same for rank r of the run at n.
double run_rank_calls(const LogicalRankPhase& rank, std::int64_t r, std::int64_t n,
                      std::vector<Call>& calls, SentBytes& to) {
  calls.clear();
  to.clear();
  double moved = 0;
  for (const auto& t : rank.events) {
    moved += static_cast<double>(t.bytes + t.rbytes);
    calls.emplace_back(t.op, absolute_peer(t.dst, r, n), absolute_peer(t.src, r, n));
    if (t.dst >= 0 && core::is_point_to_point(t.op)) {
      to[absolute_peer(t.dst, r, n)] += static_cast<double>(t.bytes);
    }
  }
  return moved;
}

void compare(const SltScaledTrace& trace, const LogicalPhase& actual, std::int64_t n,
             HoldoutPhase& out) {
  double predicted_bytes = 0, actual_bytes = 0;
  double predicted_cpu = 0, actual_cpu = 0;
  double predicted_slowest = 0, actual_slowest = 0;
  // The first rank whose calls differ as a set, and the first whose calls differ only in
  // order: a wrong peer anywhere makes the pattern wrong, whatever came before it. Where
  // bytes go to wrong ranks, the rank that misroutes the most is named instead.
  std::optional<std::pair<std::int64_t, std::string>> wrong, reordered, worst_rank;
  double misrouted_bytes = 0, model_sent = 0, worst = 0;
  SentBytes model_to, run_to;
  std::vector<core::Event> events;
  std::vector<Call> model_calls, run_calls;
  for (std::int64_t r = 0; r < n; ++r) {
    const LogicalRankPhase& rank = actual.ranks[static_cast<std::size_t>(r)];
    events.clear();
    trace.phase_events(0, static_cast<int>(r), events);
    const double cpu = trace.compute_ns(0, static_cast<int>(r));
    predicted_cpu += cpu;
    actual_cpu += rank.cpu_ns;
    predicted_slowest = std::max(predicted_slowest, cpu);
    actual_slowest = std::max(actual_slowest, rank.cpu_ns);
    predicted_bytes += model_rank_calls(events, model_calls, model_to);
    model_sent += sent(model_to);
    actual_bytes += run_rank_calls(rank, r, n, run_calls, run_to);
    const double rank_misrouted = misrouted(run_to, model_to);
    misrouted_bytes += rank_misrouted;
    if (rank_misrouted > worst) {
      worst = rank_misrouted;
      worst_rank = {r, fmt::format("{} (it sends {:.0f} B to ranks the run did not send them to)",
                                   first_difference(run_calls, model_calls), rank_misrouted)};
    }
    if (wrong || run_calls == model_calls) continue;
    auto& first = same_calls_in_any_order(run_calls, model_calls) ? reordered : wrong;
    if (!first) first = {r, first_difference(run_calls, model_calls)};
  }
  if (wrong && worst_rank) wrong = worst_rank;
  out.exact = !wrong && !reordered;
  out.reordered = !wrong && reordered;
  if (wrong) {
    out.pattern = fmt::format("wrong (rank {})", wrong->first);
    out.difference = wrong->second;
  } else if (reordered) {
    out.pattern = fmt::format("reordered (rank {})", reordered->first);
    out.difference = reordered->second +
                     "; every rank makes the run's calls with the run's peers, in another order";
  } else {
    out.pattern = "exact";
  }
  out.volume_pct = error_pct(predicted_bytes, actual_bytes);
  out.misrouted_pct = model_sent > 0 ? 100 * misrouted_bytes / model_sent : 0.0;
  out.weight_pct =
      error_pct(trace.phases().front().weight, static_cast<double>(actual.common_weight()));
  out.compute_pct = error_pct(predicted_cpu, actual_cpu);
  out.slowest_compute_pct = error_pct(predicted_slowest, actual_slowest);
}

std::string percent_or_dash(const std::optional<double>& v) {
  return v ? fmt::format("{:.2f}", *v) : std::string("-");
}

// Phase k with every undecided slot given its alternative rule.
std::optional<SlotSequenceModel>& rules_of(PhaseModel& phase, const std::string& side) {
  return side == "destination" ? phase.dst_rules
         : side == "source"    ? phase.src_rules
                               : phase.root_rules;
}

// The phase with each undecided slot's first alternative that gives other peers at n.
PhaseModel with_alternatives(const PhaseModel& phase, std::int64_t n) {
  PhaseModel other = phase;
  std::set<std::pair<std::string, std::int64_t>> taken;
  for (const UndecidedRule& u : phase.undecided) {
    const std::int64_t slot = u.undecided.slot;
    if (!rules_differ_at(chosen_rule(phase, u), u.undecided.alternative, n, slot) ||
        !taken.insert({u.side, slot}).second) {
      continue;
    }
    rules_of(other, u.side)->rules.at(static_cast<std::size_t>(slot)) = u.undecided.alternative;
  }
  return other;
}

// The readings a run at n that the phase's rules give exactly leaves open: those that give
// every rank the same peers there, and others at some n beyond the training runs (up to 16
// times the largest), from where they differ.
void keep_open_readings(PhaseModel& phase, std::int64_t n) {
  const std::int64_t largest = *std::max_element(phase.runs_n.begin(), phase.runs_n.end());
  std::vector<UndecidedRule> open;
  for (UndecidedRule u : phase.undecided) {
    const PeerRule& rule = chosen_rule(phase, u);
    const std::int64_t slot = u.undecided.slot;
    if (rule == u.undecided.alternative ||
        rules_differ_at(rule, u.undecided.alternative, n, slot)) {
      continue;
    }
    const std::optional<std::int64_t> from =
        first_difference(rule, u.undecided.alternative, largest, slot);
    if (!from) continue;
    u.undecided.differs_from = *from;
    open.push_back(std::move(u));
  }
  phase.undecided = std::move(open);
  phase.settled_by = settling_run(phase, largest);
}

// The smallest n from which some reading left open differs.
std::int64_t undecided_from(const PhaseModel& phase) {
  std::int64_t from = phase.undecided.front().undecided.differs_from;
  for (const UndecidedRule& u : phase.undecided) from = std::min(from, u.undecided.differs_from);
  return from;
}

std::string row(const HoldoutPhase& p) {
  return fmt::format("  {:<10} {:>6.1f}% {:<18} {:>9} {:>9}% {:>9} {:>9} {:>9}\n", p.name,
                     100 * p.share, p.pattern, percent_or_dash(p.volume_pct),
                     percent_or_dash(p.misrouted_pct), percent_or_dash(p.weight_pct),
                     percent_or_dash(p.compute_pct), percent_or_dash(p.slowest_compute_pct));
}

std::string band_cell(const std::optional<ErrorBand>& band) {
  if (!band) return "-";
  return fmt::format("{:+.1f} .. {:+.1f} {}", band->low, band->high, band->holds() ? "in" : "OUT");
}

// The bands' table and how many phases' compute and weight they hold: the compared phases
// with a band, each counted once, with their share of the run's time; then why the others
// have none.
std::string bands_text(const HoldoutCheck& check) {
  std::string rows;
  std::string gaps;
  int compute_banded = 0, compute_in = 0, weight_banded = 0, weight_in = 0;
  double banded_share = 0, compute_in_share = 0;
  for (const HoldoutPhase& p : check.phases) {
    if (!p.no_band.empty()) gaps += fmt::format("  {}: {}\n", p.name, p.no_band);
    if (!p.compute_band && !p.weight_band) continue;
    if (p.compute_band) {
      ++compute_banded;
      banded_share += p.share;
      if (p.compute_band->holds()) {
        ++compute_in;
        compute_in_share += p.share;
      }
    }
    if (p.weight_band) {
      ++weight_banded;
      if (p.weight_band->holds()) ++weight_in;
    }
    rows += fmt::format("  {:<10} {:>6.1f}% {:>24} {:>24}\n", p.name, 100 * p.share,
                        band_cell(p.compute_band), band_cell(p.weight_band));
  }
  if (rows.empty()) {
    return gaps.empty() ? "  no phase has predictive bands (an SLT without its fits' runs)\n"
                        : "  no phase has predictive bands:\n" + gaps;
  }
  return fmt::format("  the fits' {:.0f} % bands at n = {}, in % of the run's value:\n",
                     100 * kHoldoutBandLevel, check.n) +
         fmt::format("  {:<10} {:>7} {:>24} {:>24}\n", "phase", "share", "compute band",
                     "weight band") +
         rows + gaps +
         fmt::format(
             "  compute inside its band in {} of {} phases ({:.1f} % of {:.1f} % of the "
             "run's time), weight in {} of {}\n",
             compute_in, compute_banded, 100 * compute_in_share, 100 * banded_share, weight_in,
             weight_banded);
}

}  // namespace

HoldoutCheck check_holdout(const Slt& slt, const LogicalRun& holdout,
                           const std::vector<std::optional<std::size_t>>& counterparts) {
  HoldoutCheck check;
  check.n = holdout.n;
  for (std::size_t k = 0; k < slt.phases.size(); ++k) {
    const PhaseModel& model = slt.phases[k];
    HoldoutPhase phase;
    phase.name = model.name;
    phase.actual = k < counterparts.size() ? counterparts[k] : std::nullopt;
    if (!phase.actual) {
      phase.pattern = fmt::format("no counterpart at n = {}", holdout.n);
      check.phases.push_back(std::move(phase));
      continue;
    }
    const LogicalPhase& actual = holdout.phases.at(*phase.actual);
    phase.share = holdout.share_of({*phase.actual});
    if (!model.pattern_modelled) {
      phase.pattern = "not modelled";
      check.phases.push_back(std::move(phase));
      continue;
    }
    try {
      const Slt one = only_phase(slt, k);  // the trace refers to it
      // The rules the model chose, undecided or not: the run says whether they hold.
      const SltScaledTrace trace(one, static_cast<int>(holdout.n),
                                 InstantiateOptions{.accept_undecided = true});
      compare(trace, actual, holdout.n, phase);
      band_against_run(one, actual, holdout.n, phase);
    } catch (const std::domain_error& e) {
      phase.pattern = fmt::format("cannot instantiate: {}", e.what());
    }
    check.phases.push_back(std::move(phase));
  }
  return check;
}

// Phases whose undecided rules the hold-out run settles: at an n where the readings differ,
// the chosen rules give the run's calls exactly, or the alternatives do (then they are taken).
// Their undecided slots are cleared, with a note.
void settle_by_holdout(BuiltSlt& built, HoldoutCheck& check) {
  Slt& slt = built.slt;
  for (std::size_t k = 0; k < slt.phases.size() && k < check.phases.size(); ++k) {
    PhaseModel& phase = slt.phases[k];
    if (phase.undecided.empty() || undecided_at(phase, check.n) == nullptr) continue;
    if (!check.phases[k].exact) {
      Slt other = slt;
      other.phases[k] = with_alternatives(phase, check.n);
      const HoldoutCheck again = check_holdout(other, *built.holdout, built.holdout_phase);
      if (!again.phases[k].exact) continue;
      phase = other.phases[k];
      check.phases[k] = again.phases[k];
    }
    keep_open_readings(phase, check.n);
    phase.notes.clear();
    if (phase.undecided.empty()) {
      slt.notes.push_back(fmt::format(
          "{}: the hold-out run at n = {} settles the peers the training runs left undecided",
          phase.name, check.n));
      continue;
    }
    const std::string note = fmt::format(
        "the hold-out run at n = {} settles the readings of the peers that differ there; {} "
        "other(s) give the same peers at n = {} and differ from n = {} on",
        check.n, phase.undecided.size(), check.n, undecided_from(phase));
    slt.notes.push_back(fmt::format("{}: {}", phase.name, note));
    phase.notes.push_back(note);
  }
}

bool ErrorBand::holds() const {
  // Exact data give a band of zero width around an error of zero, up to rounding.
  constexpr double kRounding = 1e-9;
  return low <= kRounding && high >= -kRounding;
}

std::string HoldoutCheck::text() const {
  std::string out = fmt::format("hold-out check at n = {}\n", n);
  out += fmt::format("  {:<10} {:>7} {:<18} {:>9} {:>10} {:>9} {:>9} {:>9}\n", "phase", "share",
                     "pattern", "volume %", "misrouted", "weight %", "compute %", "slowest %");
  for (const HoldoutPhase& p : phases) {
    if (!p.difference.empty()) {
      out += row(p);
      out += fmt::format("  {:<10}         first difference: {}\n", "", p.difference);
      continue;
    }
    if (p.pattern.size() > 18) {
      out += fmt::format("  {:<10} {:>6.1f}% {}\n", p.name, 100 * p.share, p.pattern);
      continue;
    }
    out += row(p);
  }
  return out + bands_text(*this);
}

}  // namespace p3s::model
