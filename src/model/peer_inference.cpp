#include "model/peer_inference.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdlib>
#include <map>
#include <stdexcept>

#include "model/integer_formula_fit.hpp"
#include "model/integer_math.hpp"

namespace p3s::model {
namespace {

enum class TemplateKind : std::uint8_t { None, Fixed, Shift, Xor, Permutation, Grid };

// A candidate rule's structure; its integer parameters come from the runs.
struct Template {
  TemplateKind kind = TemplateKind::None;
  bool flag = false;  // Fixed: the root skips itself; Shift: periodic
  Permutation permutation = Permutation::Mirror;
  GridShape shape = GridShape::Square;
  GridOrder order = GridOrder::RowMajor;
  std::vector<bool> periodic;  // Grid: per dimension
};

std::size_t parameter_count(const Template& t) {
  switch (t.kind) {
    case TemplateKind::Fixed:
    case TemplateKind::Shift:
    case TemplateKind::Xor:
      return 1;
    case TemplateKind::Grid:
      return t.periodic.size();
    case TemplateKind::None:
    case TemplateKind::Permutation:
      break;
  }
  return 0;
}

std::string parameter_name(const Template& t, std::size_t k) {
  switch (t.kind) {
    case TemplateKind::Fixed:
      return "peer";
    case TemplateKind::Shift:
      return "distance";
    case TemplateKind::Xor:
      return "exchanged bit";
    case TemplateKind::Grid:
      return fmt::format("offset in {}", "ijk"[k]);
    case TemplateKind::None:
    case TemplateKind::Permutation:
      break;
  }
  return "parameter";
}

Template plain(TemplateKind kind, bool flag = false) {
  Template t;
  t.kind = kind;
  t.flag = flag;
  return t;
}

// Simplest first: the first template that reproduces the runs is the rule.
std::vector<Template> templates() {
  std::vector<Template> out = {plain(TemplateKind::None),         plain(TemplateKind::Fixed, true),
                               plain(TemplateKind::Fixed, false), plain(TemplateKind::Shift, false),
                               plain(TemplateKind::Shift, true),  plain(TemplateKind::Xor)};
  for (Permutation p : {Permutation::Mirror, Permutation::BitReversal, Permutation::RotateLeft,
                        Permutation::RotateRight}) {
    Template t = plain(TemplateKind::Permutation);
    t.permutation = p;
    out.push_back(t);
  }
  for (GridShape shape :
       {GridShape::Square, GridShape::Balanced2D, GridShape::Cube, GridShape::Balanced3D}) {
    const int dims = grid_dimensions(shape);
    for (GridOrder order : {GridOrder::RowMajor, GridOrder::ColumnMajor}) {
      // Non-periodic first; a mask bit per dimension, the first dimension highest.
      for (unsigned mask = 0; mask < (1U << dims); ++mask) {
        Template t = plain(TemplateKind::Grid);
        t.shape = shape;
        t.order = order;
        for (int d = 0; d < dims; ++d) t.periodic.push_back(((mask >> (dims - 1 - d)) & 1U) != 0);
        out.push_back(t);
      }
    }
  }
  return out;
}

bool applicable(const Template& t, std::int64_t n) {
  if (t.kind == TemplateKind::Permutation && t.permutation != Permutation::Mirror) {
    return exact_log2(n).has_value();
  }
  if (t.kind == TemplateKind::Grid) return grid_extent(t.shape, n).has_value();
  return true;
}

// The local equation at one run: the parameter values most ranks imply, each with the modulus
// it is known up to (0 when exact). No values when no rank implies any.
struct LocalEquation {
  std::vector<std::int64_t> values;
  std::vector<std::int64_t> moduli;
};

LocalEquation local_equation(const Template& t, const PeerSample& s) {
  LocalEquation eq;
  if (parameter_count(t) == 0) return eq;
  std::optional<ProcessGrid> grid;
  if (t.kind == TemplateKind::Grid) {
    grid.emplace(*grid_extent(t.shape, s.n), t.order);
    for (std::size_t d = 0; d < t.periodic.size(); ++d) {
      eq.moduli.push_back(t.periodic[d] ? grid->extent()[d] : 0);
    }
  } else {
    eq.moduli.push_back(t.kind == TemplateKind::Shift && t.flag ? s.n : 0);
  }

  std::map<std::vector<std::int64_t>, std::size_t> votes;
  for (std::int64_t r = 0; r < s.n; ++r) {
    const std::int64_t p = s.peers[static_cast<std::size_t>(r)];
    if (p == kNoPeer) continue;
    std::vector<std::int64_t> implied;
    switch (t.kind) {
      case TemplateKind::Fixed:
        implied = {p};
        break;
      case TemplateKind::Shift:
        implied = {t.flag ? floor_mod(p - r, s.n) : p - r};
        break;
      case TemplateKind::Xor: {
        const std::optional<std::int64_t> bit = exact_log2(r ^ p);
        if (!bit) continue;  // not an exchange of one bit: this rank cannot vote
        implied = {*bit};
        break;
      }
      case TemplateKind::Grid: {
        const GridCoords from = grid->coords_of(r);
        const GridCoords to = grid->coords_of(p);
        for (std::size_t d = 0; d < t.periodic.size(); ++d) {
          const std::int64_t step = to[d] - from[d];
          implied.push_back(t.periodic[d] ? floor_mod(step, grid->extent()[d]) : step);
        }
        break;
      }
      case TemplateKind::None:
      case TemplateKind::Permutation:
        break;
    }
    ++votes[implied];
  }
  std::size_t most = 0;
  for (const auto& [values, count] : votes) {
    if (count > most) {
      most = count;
      eq.values = values;
    }
  }
  return eq;
}

PeerRule make_rule(const Template& t, const std::vector<IntegerFormula>& f) {
  switch (t.kind) {
    case TemplateKind::Fixed:
      return {FixedPeerRule{f[0], t.flag}};
    case TemplateKind::Shift:
      return {ShiftPeerRule{f[0], t.flag}};
    case TemplateKind::Xor:
      return {XorPeerRule{f[0]}};
    case TemplateKind::Permutation:
      return {PermutationPeerRule{t.permutation}};
    case TemplateKind::Grid:
      return {GridPeerRule{t.shape, t.order, f, t.periodic}};
    case TemplateKind::None:
      break;
  }
  return {NoPeerRule{}};
}

std::vector<IntegerFormula> constants(const std::vector<std::int64_t>& values) {
  std::vector<IntegerFormula> out;
  for (std::int64_t v : values) out.push_back({v, {}});
  return out;
}

struct GeneralEquations {
  std::vector<IntegerFormula> formulas;
  std::optional<std::size_t> failed_parameter;  // the first parameter with no formula
  // Per parameter, the other reading of a value known modulo m when the runs cannot prefer
  // either (a periodic dimension of extent 2 in every run: +1 and -1 are the same neighbour).
  std::vector<std::optional<IntegerFormula>> other_reading;
};

// Each parameter's values across the runs, fitted as a function of n (and s). A value known
// modulo m (a periodic distance) is tried both as it is and less m, so that a left neighbour
// reads -1 rather than n - 1; the simpler formula wins.
GeneralEquations general_equations(const Template& t, std::span<const PeerSample> samples,
                                   const std::vector<LocalEquation>& locals,
                                   std::span<const FormulaBasis> bases) {
  GeneralEquations out;
  for (std::size_t k = 0; k < parameter_count(t); ++k) {
    std::vector<FormulaSample> as_is;
    std::vector<FormulaSample> less_modulus;
    for (std::size_t i = 0; i < samples.size(); ++i) {
      if (locals[i].values.empty()) continue;
      const std::int64_t v = locals[i].values[k];
      const std::int64_t m = locals[i].moduli[k];
      as_is.push_back({samples[i].n, samples[i].slot, v});
      less_modulus.push_back({samples[i].n, samples[i].slot, m > 0 && v > 0 ? v - m : v});
    }
    // Of two formulas as simple, the nearer neighbour: a periodic dimension of extent 3 in
    // every training run cannot tell -1 from +2, and codes step to their neighbours.
    // A value seen in one run only (a neighbour in z, on the one training grid that has a z
    // extent) is taken as the constant it is; the rule is then checked against every run, the
    // ones where it must give no peer at all included.
    const auto fit =
        [&](const std::vector<FormulaSample>& values) -> std::optional<IntegerFormula> {
      if (values.size() == 1 && samples.size() > 1) return IntegerFormula{values.front().value, {}};
      return fit_integer_formula(values, bases);
    };
    std::optional<IntegerFormula> f = fit(as_is);
    std::optional<IntegerFormula> other;
    if (std::optional<IntegerFormula> g = fit(less_modulus); g && !(g == f)) {
      const bool as_simple = f && g->terms.size() == f->terms.size();
      if (as_simple && std::llabs(g->constant) == std::llabs(f->constant)) {
        other = g;
      } else if (!f || g->terms.size() < f->terms.size() ||
                 (as_simple && std::llabs(g->constant) < std::llabs(f->constant))) {
        f = g;
      }
    }
    // It must also be defined at the runs that gave no value (a slot nobody used there).
    bool defined = f.has_value();
    for (const PeerSample& s : samples) defined = defined && f->try_at(s.n, s.slot).has_value();
    if (!defined) {
      out.failed_parameter = k;
      return out;
    }
    out.formulas.push_back(*f);
    out.other_reading.push_back(other);
  }
  return out;
}

struct Tally {
  std::vector<PeerMismatch> first;
  std::size_t count = 0;
  std::size_t checked = 0;
  std::size_t to_self = 0;  // mismatches where the run had no peer and the rule the rank itself
};

void compare(const PeerMap& predicted, const PeerSample& s, std::size_t keep, Tally& tally) {
  for (std::int64_t r = 0; r < s.n; ++r) {
    const std::int64_t expected = s.peers[static_cast<std::size_t>(r)];
    const std::int64_t got = predicted(r);
    ++tally.checked;
    if (got == expected) continue;
    ++tally.count;
    if (expected == kNoPeer && got == r) ++tally.to_self;
    if (tally.first.size() < keep) tally.first.push_back({s.n, s.slot, r, expected, got});
  }
}

std::string values_by_run(std::span<const PeerSample> samples,
                          const std::vector<LocalEquation>& locals, std::size_t k, bool with_slot) {
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (locals[i].values.empty()) continue;
    parts.push_back(with_slot ? fmt::format("{} at n = {}, s = {}", locals[i].values[k],
                                            samples[i].n, samples[i].slot)
                              : fmt::format("{} at n = {}", locals[i].values[k], samples[i].n));
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

void validate(std::span<const PeerSample> samples) {
  if (samples.empty()) throw std::invalid_argument("no runs to infer a peer rule from");
  for (const PeerSample& s : samples) {
    if (s.n < 1 || s.peers.size() != static_cast<std::size_t>(s.n)) {
      throw std::invalid_argument(
          fmt::format("run with n = {} gives {} peers, not n", s.n, s.peers.size()));
    }
    for (std::int64_t p : s.peers) {
      if (p < kNoPeer || p >= s.n) {
        throw std::invalid_argument(fmt::format("peer {} is not a rank of n = {}", p, s.n));
      }
    }
  }
}

}  // namespace

PeerRuleInference infer_peer_rule(std::span<const PeerSample> samples,
                                  const PeerInferenceOptions& options) {
  validate(samples);
  const std::vector<FormulaBasis> bases =
      options.slot_indexed ? size_and_slot_bases() : size_bases();
  PeerRuleInference best;
  bool have_best = false;
  // Of the rules that reproduce every run, the one whose parameters depend least on n: a
  // neighbour at a constant offset on a grid generalises, a distance that happens to equal
  // 2*floor(log2(n)/2) at n = 4..32 does not. Ties go to the simpler template (earlier).
  std::optional<PeerRule> exact;
  std::size_t exact_terms = 0;
  std::size_t exact_checked = 0;
  std::vector<std::pair<std::size_t, PeerRule>> reproducing;  // (terms, rule), in template order

  for (const Template& t : templates()) {
    bool usable = true;
    for (const PeerSample& s : samples) usable = usable && applicable(t, s.n);
    if (!usable) continue;

    std::vector<LocalEquation> locals;
    for (const PeerSample& s : samples) locals.push_back(local_equation(t, s));
    const GeneralEquations general = general_equations(t, samples, locals, bases);

    Tally tally;
    PeerRuleInference outcome;
    if (!general.failed_parameter) {
      PeerRule rule = make_rule(t, general.formulas);
      for (const PeerSample& s : samples) {
        compare(rule.at(s.n, s.slot), s, options.reported_mismatches, tally);
      }
      if (tally.count > 0 && tally.count == tally.to_self) {
        // Wrong only where the rule names the rank itself and the run had no peer: the code
        // skips messages to itself.
        rule.none_for_self = true;
        tally = Tally{};
        for (const PeerSample& s : samples) {
          compare(rule.at(s.n, s.slot), s, options.reported_mismatches, tally);
        }
      }
      if (tally.count == 0) {
        std::size_t terms = 0;
        for (const IntegerFormula& f : general.formulas) terms += f.terms.size();
        if (!exact || terms < exact_terms) {
          exact = rule;
          exact_terms = terms;
          exact_checked = tally.checked;
        }
        reproducing.emplace_back(terms, rule);
        // The same rule with an ambiguous parameter read the other way reproduces the runs
        // as well: it is an alternative the runs cannot rule out.
        for (std::size_t k = 0; k < general.other_reading.size(); ++k) {
          if (!general.other_reading[k]) continue;
          std::vector<IntegerFormula> other = general.formulas;
          other[k] = *general.other_reading[k];
          reproducing.emplace_back(terms, make_rule(t, other));
        }
        continue;
      }
      outcome.closest = rule.text();
      outcome.reason = fmt::format("the closest rule differs from the runs at {} of {} rank peers",
                                   tally.count, tally.checked);
    } else {
      // No general equation: judge the template by its local equation at each run instead.
      for (std::size_t i = 0; i < samples.size(); ++i) {
        const PeerRule local = locals[i].values.empty() ? PeerRule{NoPeerRule{}}
                                                        : make_rule(t, constants(locals[i].values));
        if (outcome.closest.empty() && !locals[i].values.empty()) {
          outcome.closest = fmt::format("at n = {}: {}", samples[i].n, local.text());
        }
        compare(local.at(samples[i].n, samples[i].slot), samples[i], options.reported_mismatches,
                tally);
      }
      const std::size_t k = *general.failed_parameter;
      outcome.reason =
          tally.count == 0
              ? fmt::format(
                    "the local equations reproduce every run, but their {} ({}) follows "
                    "no formula in n{}",
                    parameter_name(t, k), values_by_run(samples, locals, k, options.slot_indexed),
                    options.slot_indexed ? " and s" : "")
              : fmt::format(
                    "no candidate reproduces the runs even one n at a time; the closest "
                    "local equations differ from the runs at {} of {} rank peers",
                    tally.count, tally.checked);
    }
    if (!have_best || tally.count < best.mismatch_count) {
      outcome.mismatches = std::move(tally.first);
      outcome.mismatch_count = tally.count;
      outcome.checked_count = tally.checked;
      best = std::move(outcome);
      have_best = true;
    }
  }
  if (!exact) return best;
  PeerRuleInference out;
  out.rule = exact;
  out.checked_count = exact_checked;
  std::stable_sort(reproducing.begin(), reproducing.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  out.alternatives.push_back(*exact);
  for (const auto& [terms, rule] : reproducing) {
    if (!(rule == *exact)) out.alternatives.push_back(rule);
  }
  return out;
}

}  // namespace p3s::model
