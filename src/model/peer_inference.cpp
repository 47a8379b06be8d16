#include "model/peer_inference.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <utility>

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
  bool coarsened = false;      // Grid: a multigrid's coarse level, some ranks idle
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
  for (Permutation p : {Permutation::Mirror, Permutation::BitReversal, Permutation::TransposeBits,
                        Permutation::RotateLeft, Permutation::RotateRight}) {
    Template t = plain(TemplateKind::Permutation);
    t.permutation = p;
    out.push_back(t);
  }
  for (GridShape shape : {GridShape::Square, GridShape::Balanced2D, GridShape::Compact2D,
                          GridShape::Cube, GridShape::Balanced3D, GridShape::Compact3D}) {
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
  // The same grids coarsened, last: only where some ranks are idle.
  const std::size_t plain_count = out.size();
  for (std::size_t k = 0; k < plain_count; ++k) {
    if (out[k].kind != TemplateKind::Grid) continue;
    Template t = out[k];
    t.coarsened = true;
    out.push_back(t);
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
  // A coarsened grid: per dimension, its extent and the ranks apart that hold points.
  std::vector<std::int64_t> extent;
  std::vector<std::int64_t> stride;
};

// The modulus each parameter is known up to at one run: a periodic dimension's extent, n for
// a periodic shift, 0 (exact) otherwise.
std::vector<std::int64_t> local_moduli(const Template& t, const std::optional<ProcessGrid>& grid,
                                       std::int64_t n) {
  std::vector<std::int64_t> moduli;
  if (t.kind != TemplateKind::Grid) {
    moduli.push_back(t.kind == TemplateKind::Shift && t.flag ? n : 0);
    return moduli;
  }
  moduli.reserve(t.periodic.size());
  for (std::size_t d = 0; d < t.periodic.size(); ++d) {
    moduli.push_back(t.periodic[d] ? grid->extent()[d] : 0);
  }
  return moduli;
}

// The step from rank r to rank p in each dimension of the grid, wrapped in periodic ones.
std::vector<std::int64_t> grid_offsets(const Template& t, const ProcessGrid& grid, std::int64_t r,
                                       std::int64_t p) {
  const GridCoords from = grid.coords_of(r);
  const GridCoords to = grid.coords_of(p);
  std::vector<std::int64_t> offsets;
  offsets.reserve(t.periodic.size());
  for (std::size_t d = 0; d < t.periodic.size(); ++d) {
    const std::int64_t step = to[d] - from[d];
    offsets.push_back(t.periodic[d] ? floor_mod(step, grid.extent()[d]) : step);
  }
  return offsets;
}

// The parameter values rank r talking to rank p implies at n; nothing when the rank cannot
// vote (a peer that is not one bit away implies no exchanged bit).
std::optional<std::vector<std::int64_t>> implied_values(const Template& t,
                                                        const std::optional<ProcessGrid>& grid,
                                                        std::int64_t r, std::int64_t p,
                                                        std::int64_t n) {
  switch (t.kind) {
    case TemplateKind::Fixed:
      return std::vector<std::int64_t>{p};
    case TemplateKind::Shift:
      return std::vector<std::int64_t>{t.flag ? floor_mod(p - r, n) : p - r};
    case TemplateKind::Xor: {
      const std::optional<std::int64_t> bit = exact_log2(r ^ p);
      if (!bit) return std::nullopt;
      return std::vector<std::int64_t>{*bit};
    }
    case TemplateKind::Grid:
      return grid_offsets(t, *grid, r, p);
    case TemplateKind::None:
    case TemplateKind::Permutation:
      break;
  }
  return std::vector<std::int64_t>{};
}

// Along each dimension, the ranks apart that talk at one run (the gcd of their coordinates and
// the extent): 1 where every rank does; 0s when no rank talks.
std::vector<std::int64_t> active_strides(const ProcessGrid& grid, const PeerSample& s) {
  std::vector<std::int64_t> stride(grid.extent().size(), 0);
  for (std::int64_t r = 0; r < s.n; ++r) {
    if (s.peers[static_cast<std::size_t>(r)] == kNoPeer) continue;
    const GridCoords c = grid.coords_of(r);
    for (std::size_t d = 0; d < stride.size(); ++d) {
      stride[d] = std::gcd(stride[d] == 0 ? grid.extent()[d] : stride[d], c[d]);
    }
  }
  return stride;
}

// Steps counted in ranks that hold points: each divided by its dimension's stride; nothing
// when one is not a whole number of them.
std::optional<std::vector<std::int64_t>> in_held_ranks(std::vector<std::int64_t> steps,
                                                       const std::vector<std::int64_t>& stride) {
  for (std::size_t d = 0; d < steps.size(); ++d) {
    if (steps[d] % stride[d] != 0) return std::nullopt;
    steps[d] /= stride[d];
  }
  return steps;
}

// The values most ranks vote for; none when no rank votes.
std::vector<std::int64_t> most_voted(
    const std::map<std::vector<std::int64_t>, std::size_t>& votes) {
  std::vector<std::int64_t> values;
  std::size_t most = 0;
  for (const auto& [candidate, count] : votes) {
    if (count > most) {
      most = count;
      values = candidate;
    }
  }
  return values;
}

LocalEquation local_equation(const Template& t, const PeerSample& s) {
  LocalEquation eq;
  if (parameter_count(t) == 0) return eq;
  std::optional<ProcessGrid> grid;
  if (t.kind == TemplateKind::Grid) grid.emplace(*grid_extent(t.shape, s.n), t.order);
  eq.moduli = local_moduli(t, grid, s.n);
  if (t.coarsened) {
    eq.extent = grid->extent();
    eq.stride = active_strides(*grid, s);
    if (eq.stride.front() == 0) return {};
    for (std::size_t d = 0; d < eq.moduli.size(); ++d) eq.moduli[d] /= eq.stride[d];
  }
  std::map<std::vector<std::int64_t>, std::size_t> votes;
  for (std::int64_t r = 0; r < s.n; ++r) {
    const std::int64_t p = s.peers[static_cast<std::size_t>(r)];
    if (p == kNoPeer) continue;
    std::optional<std::vector<std::int64_t>> implied = implied_values(t, grid, r, p, s.n);
    if (implied && t.coarsened) implied = in_held_ranks(std::move(*implied), eq.stride);
    if (implied) ++votes[*implied];
  }
  eq.values = most_voted(votes);
  return eq;
}

// The one number of ranks per dimension that hold points on a coarsened grid, from every run:
// each dimension whose ranks are strided has extent / stride of them, and every other dimension
// at most as many. Nothing when no run strides one, or the runs disagree.
std::optional<std::int64_t> common_planes(const std::vector<LocalEquation>& locals) {
  std::optional<std::int64_t> planes;
  for (const LocalEquation& eq : locals) {
    for (std::size_t d = 0; d < eq.stride.size(); ++d) {
      if (eq.stride[d] <= 1) continue;
      const std::int64_t seen = eq.extent[d] / eq.stride[d];
      if (planes && *planes != seen) return std::nullopt;
      planes = seen;
    }
  }
  if (!planes) return std::nullopt;
  for (const LocalEquation& eq : locals) {
    for (std::size_t d = 0; d < eq.stride.size(); ++d) {
      if (eq.stride[d] == 1 && eq.extent[d] > *planes) return std::nullopt;
    }
  }
  return planes;
}

PeerRule make_rule(const Template& t, const std::vector<IntegerFormula>& f,
                   std::int64_t planes = 0) {
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
      return {GridPeerRule{t.shape, t.order, f, t.periodic, planes}};
    case TemplateKind::None:
      break;
  }
  return {NoPeerRule{}};
}

std::vector<IntegerFormula> constants(const std::vector<std::int64_t>& values) {
  std::vector<IntegerFormula> out;
  out.reserve(values.size());
  for (std::int64_t v : values) out.push_back({v, {}});
  return out;
}

struct GeneralEquations {
  std::vector<IntegerFormula> formulas;
  std::optional<std::size_t> failed_parameter;  // the first parameter with no formula
  // Per parameter, the other reading of a value known modulo m when the runs cannot prefer
  // either (a periodic dimension of extent 2 in every run: +1 and -1 are the same neighbour).
  std::vector<std::optional<IntegerFormula>> other_reading;
  std::int64_t planes = 0;  // a coarsened grid's (common_planes)
};

struct ParameterFormula {
  std::optional<IntegerFormula> formula;
  std::optional<IntegerFormula> other;  // see GeneralEquations::other_reading
};

// Parameter k's value at each run that has one, as it is and less the modulus it is known up
// to (a periodic distance n - 1 read as -1). Values known only modulo 1 or 2 (a periodic
// dimension of extent 1, where every step is the rank itself, or of extent 2, where +1 and -1
// are one neighbour) say little: they are `weak`, checked against the formula the others
// give, and fitted only when no run says more.
struct ParameterValues {
  std::vector<FormulaSample> as_is;
  std::vector<FormulaSample> less_modulus;
  std::vector<std::pair<FormulaSample, std::int64_t>> weak;  // with its modulus
};

constexpr std::int64_t kWeakModulus = 2;

ParameterValues parameter_values(std::span<const PeerSample> samples,
                                 const std::vector<LocalEquation>& locals, std::size_t k) {
  ParameterValues out;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (locals[i].values.empty()) continue;
    const std::int64_t v = locals[i].values[k];
    const std::int64_t m = locals[i].moduli[k];
    if (m > 0 && m <= kWeakModulus) {
      out.weak.push_back({{samples[i].n, samples[i].slot, v}, m});
      continue;
    }
    out.as_is.push_back({samples[i].n, samples[i].slot, v});
    out.less_modulus.push_back({samples[i].n, samples[i].slot, m > 0 && v > 0 ? v - m : v});
  }
  return out;
}

// The nearest step every weak value allows, when no run says more: with extents of 1 and 2
// only, +1 and -1 both fit (the other reading), and nothing tells which side it is.
ParameterFormula nearest_step(const ParameterValues& values) {
  auto fits = [&](std::int64_t c) {
    return std::all_of(values.weak.begin(), values.weak.end(), [&](const auto& weak) {
      return floor_mod(c - weak.first.value, weak.second) == 0;
    });
  };
  for (std::int64_t c = 0; c <= kWeakModulus; ++c) {
    if (fits(c)) {
      ParameterFormula out{IntegerFormula{c, {}}, std::nullopt};
      if (c != 0 && fits(-c)) out.other = IntegerFormula{-c, {}};
      return out;
    }
    if (c != 0 && fits(-c)) return {IntegerFormula{-c, {}}, std::nullopt};
  }
  return {};
}

// Whether `f` gives every weak value up to its modulus.
bool agrees_with_weak(const std::optional<IntegerFormula>& f, const ParameterValues& values) {
  if (!f) return false;
  return std::all_of(values.weak.begin(), values.weak.end(), [&](const auto& weak) {
    const std::optional<std::int64_t> at = f->try_at(weak.first.n, weak.first.slot);
    return at && floor_mod(*at - weak.first.value, weak.second) == 0;
  });
}

// A value seen in one run only (a neighbour in z, on the one training grid that has a z
// extent) is taken as the constant it is; the rule is then checked against every run, the
// ones where it must give no peer at all included.
std::optional<IntegerFormula> fit_parameter(const std::vector<FormulaSample>& values,
                                            std::size_t runs, std::span<const FormulaBasis> bases) {
  if (values.size() == 1 && runs > 1) return IntegerFormula{values.front().value, {}};
  return fit_integer_formula(values, bases);
}

// Of the formula for the values as they are (`f`) and less their modulus (`g`), the simpler;
// of two as simple, the nearer neighbour: a periodic dimension of extent 3 in every training
// run cannot tell -1 from +2, and codes step to their neighbours. Two as near are both kept.
ParameterFormula simpler_reading(std::optional<IntegerFormula> f, std::optional<IntegerFormula> g) {
  ParameterFormula out{std::move(f), std::nullopt};
  if (!g || g == out.formula) return out;
  const bool as_simple = out.formula && g->terms.size() == out.formula->terms.size();
  if (as_simple && std::llabs(g->constant) == std::llabs(out.formula->constant)) {
    out.other = std::move(g);
  } else if (!out.formula || g->terms.size() < out.formula->terms.size() ||
             (as_simple && std::llabs(g->constant) < std::llabs(out.formula->constant))) {
    out.formula = std::move(g);
  }
  return out;
}

// A formula must also be defined at the runs that gave no value (a slot nobody used there).
bool defined_at_every_run(const std::optional<IntegerFormula>& f,
                          std::span<const PeerSample> samples) {
  bool defined = f.has_value();
  for (const PeerSample& s : samples) defined = defined && f->try_at(s.n, s.slot).has_value();
  return defined;
}

// Each parameter's values across the runs, fitted as a function of n (and s). A value known
// modulo m (a periodic distance) is tried both as it is and less m, so that a left neighbour
// reads -1 rather than n - 1; the simpler formula wins.
GeneralEquations general_equations(const Template& t, std::span<const PeerSample> samples,
                                   const std::vector<LocalEquation>& locals,
                                   std::span<const FormulaBasis> bases) {
  GeneralEquations out;
  for (std::size_t k = 0; k < parameter_count(t); ++k) {
    const ParameterValues values = parameter_values(samples, locals, k);
    if (values.as_is.empty()) {
      const ParameterFormula step = nearest_step(values);
      if (!defined_at_every_run(step.formula, samples)) {
        out.failed_parameter = k;
        return out;
      }
      out.formulas.push_back(*step.formula);
      out.other_reading.push_back(step.other);
      continue;
    }
    std::optional<IntegerFormula> as_is = fit_parameter(values.as_is, samples.size(), bases);
    std::optional<IntegerFormula> less_modulus =
        fit_parameter(values.less_modulus, samples.size(), bases);
    if (!agrees_with_weak(as_is, values)) as_is.reset();
    if (!agrees_with_weak(less_modulus, values)) less_modulus.reset();
    const ParameterFormula chosen = simpler_reading(std::move(as_is), std::move(less_modulus));
    if (!defined_at_every_run(chosen.formula, samples)) {
      out.failed_parameter = k;
      return out;
    }
    out.formulas.push_back(*chosen.formula);
    out.other_reading.push_back(chosen.other);
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

Tally tally_of(const PeerRule& rule, std::span<const PeerSample> samples, std::size_t keep) {
  Tally tally;
  for (const PeerSample& s : samples) compare(rule.at(s.n, s.slot), s, keep, tally);
  return tally;
}

// How far `rule` is from the runs. A rule wrong only where it names the rank itself and the
// run had no peer is the code skipping messages to itself: `rule` becomes none_for_self, and
// is tallied again.
Tally check_rule(PeerRule& rule, std::span<const PeerSample> samples, std::size_t keep) {
  Tally tally = tally_of(rule, samples, keep);
  if (tally.count > 0 && tally.count == tally.to_self) {
    rule.none_for_self = true;
    tally = tally_of(rule, samples, keep);
  }
  return tally;
}

// The most values a reason lists; the rest are counted.
constexpr std::size_t kListedValues = 8;

std::string values_by_run(std::span<const PeerSample> samples,
                          const std::vector<LocalEquation>& locals, std::size_t k, bool with_slot) {
  std::vector<std::string> parts;
  std::size_t more = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (locals[i].values.empty()) continue;
    if (parts.size() == kListedValues) {
      ++more;
      continue;
    }
    parts.push_back(with_slot ? fmt::format("{} at n = {}, s = {}", locals[i].values[k],
                                            samples[i].n, samples[i].slot)
                              : fmt::format("{} at n = {}", locals[i].values[k], samples[i].n));
  }
  if (more > 0) parts.push_back(fmt::format("and {} more", more));
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

bool applicable_to_all(const Template& t, std::span<const PeerSample> samples) {
  return std::all_of(samples.begin(), samples.end(),
                     [&](const PeerSample& s) { return applicable(t, s.n); });
}

std::vector<LocalEquation> local_equations(const Template& t, std::span<const PeerSample> samples) {
  std::vector<LocalEquation> locals;
  locals.reserve(samples.size());
  for (const PeerSample& s : samples) locals.push_back(local_equation(t, s));
  return locals;
}

// A template that does not model the runs: why, its closest rule, and how far that is.
struct Rejection {
  PeerRuleInference outcome;  // closest and reason
  Tally tally;
};

Rejection reject_general(const PeerRule& rule, Tally tally) {
  Rejection out;
  out.outcome.closest = rule.text();
  out.outcome.reason = fmt::format("the closest rule differs from the runs at {} of {} rank peers",
                                   tally.count, tally.checked);
  out.tally = std::move(tally);
  return out;
}

// No general equation (parameter k follows no formula): the template is judged by its local
// equation at each run instead.
Rejection reject_local(const Template& t, std::span<const PeerSample> samples,
                       const std::vector<LocalEquation>& locals, std::size_t k,
                       const PeerInferenceOptions& options) {
  Rejection out;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const PeerRule local =
        locals[i].values.empty()
            ? PeerRule{NoPeerRule{}}
            : make_rule(t, constants(locals[i].values), common_planes({locals[i]}).value_or(0));
    if (out.outcome.closest.empty() && !locals[i].values.empty()) {
      out.outcome.closest = fmt::format("at n = {}: {}", samples[i].n, local.text());
    }
    compare(local.at(samples[i].n, samples[i].slot), samples[i], options.reported_mismatches,
            out.tally);
  }
  out.outcome.reason =
      out.tally.count == 0
          ? fmt::format(
                "the local equations reproduce every run, but their {} ({}) follows "
                "no formula in n{}",
                parameter_name(t, k), values_by_run(samples, locals, k, options.slot_indexed),
                options.slot_indexed ? " and s" : "")
          : fmt::format(
                "no candidate reproduces the runs even one n at a time; the closest "
                "local equations differ from the runs at {} of {} rank peers",
                out.tally.count, out.tally.checked);
  return out;
}

// The rules that reproduce every run, in template order. Of them, the one whose parameters
// depend least on n is the rule: a neighbour at a constant offset on a grid generalises, a
// distance that happens to equal 2*floor(log2(n)/2) at n = 4..32 does not. Ties go to the
// simpler template (earlier).
class ReproducingRules {
 public:
  void add(const Template& t, const GeneralEquations& general, const PeerRule& rule,
           std::size_t checked) {
    std::size_t terms = 0;
    for (const IntegerFormula& f : general.formulas) terms += f.terms.size();
    if (!exact_ || terms < exact_terms_) {
      exact_ = rule;
      exact_terms_ = terms;
      exact_checked_ = checked;
    }
    reproducing_.emplace_back(terms, rule);
    // The same rule with an ambiguous parameter read the other way reproduces the runs as
    // well: it is an alternative the runs cannot rule out.
    for (std::size_t k = 0; k < general.other_reading.size(); ++k) {
      if (!general.other_reading[k]) continue;
      std::vector<IntegerFormula> other = general.formulas;
      other[k] = *general.other_reading[k];
      PeerRule alternative = make_rule(t, other, general.planes);
      alternative.none_for_self = rule.none_for_self;  // it skips the rank itself alike
      reproducing_.emplace_back(terms, std::move(alternative));
    }
  }

  bool empty() const { return !exact_; }

  // The rule, then the other alternatives by how much they depend on n.
  PeerRuleInference inference() {
    PeerRuleInference out;
    out.rule = exact_;
    out.checked_count = exact_checked_;
    std::stable_sort(reproducing_.begin(), reproducing_.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    out.alternatives.push_back(*exact_);
    for (const auto& [terms, rule] : reproducing_) {
      if (!(rule == *exact_)) out.alternatives.push_back(rule);
    }
    return out;
  }

 private:
  std::optional<PeerRule> exact_;
  std::size_t exact_terms_ = 0;
  std::size_t exact_checked_ = 0;
  std::vector<std::pair<std::size_t, PeerRule>> reproducing_;  // (terms, rule)
};

// Whether some run has ranks idle beside ranks that talk: only then are coarsened grids tried.
bool some_idle(std::span<const PeerSample> samples) {
  return std::any_of(samples.begin(), samples.end(), [](const PeerSample& s) {
    const auto idle = std::count(s.peers.begin(), s.peers.end(), kNoPeer);
    return idle > 0 && idle < static_cast<std::ptrdiff_t>(s.peers.size());
  });
}

// Whether template t can be a rule of the runs: defined at every n, on a grid the runs do not
// rule out, coarsened only where some ranks are idle.
bool worth_trying(const Template& t, std::span<const PeerSample> samples,
                  const PeerInferenceOptions& options, bool idle) {
  if (t.coarsened && !idle) return false;
  const bool excluded = t.kind == TemplateKind::Grid &&
                        std::find(options.excluded_shapes.begin(), options.excluded_shapes.end(),
                                  t.shape) != options.excluded_shapes.end();
  return !excluded && applicable_to_all(t, samples);
}

}  // namespace

PeerRuleInference infer_peer_rule(std::span<const PeerSample> samples,
                                  const PeerInferenceOptions& options) {
  validate(samples);
  const std::vector<FormulaBasis> bases =
      options.slot_indexed ? size_and_slot_bases() : size_bases();
  ReproducingRules reproducing;
  // When none reproduces the runs: the template that comes closest (the earliest of those).
  PeerRuleInference best;
  bool have_best = false;
  const bool idle = some_idle(samples);
  for (const Template& t : templates()) {
    if (!worth_trying(t, samples, options, idle)) continue;
    const std::vector<LocalEquation> locals = local_equations(t, samples);
    const std::optional<std::int64_t> planes = common_planes(locals);
    if (t.coarsened && !planes) continue;
    GeneralEquations general = general_equations(t, samples, locals, bases);
    general.planes = t.coarsened ? *planes : 0;
    Rejection rejected;
    if (general.failed_parameter) {
      rejected = reject_local(t, samples, locals, *general.failed_parameter, options);
    } else {
      PeerRule rule = make_rule(t, general.formulas, general.planes);
      Tally tally = check_rule(rule, samples, options.reported_mismatches);
      if (tally.count == 0) {
        reproducing.add(t, general, rule, tally.checked);
        continue;
      }
      rejected = reject_general(rule, std::move(tally));
    }
    if (!have_best || rejected.tally.count < best.mismatch_count) {
      best = std::move(rejected.outcome);
      best.mismatches = std::move(rejected.tally.first);
      best.mismatch_count = rejected.tally.count;
      best.checked_count = rejected.tally.checked;
      have_best = true;
    }
  }
  return reproducing.empty() ? best : reproducing.inference();
}

}  // namespace p3s::model
