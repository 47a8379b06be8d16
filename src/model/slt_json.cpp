#include "model/slt_json.hpp"

#include <fmt/core.h>

#include <algorithm>

#include "core/checked_math.hpp"
#include "core/format_error.hpp"
#include "core/json_read.hpp"
#include "core/text_file.hpp"

namespace p3s::model {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

std::string op_text(core::Op op) {
  return std::string(core::op_name(op));
}

core::Op op_from(const json& j) {
  const auto op = core::op_from_name(j.get<std::string>());
  core::json_require(op.has_value(), j, "unknown operation " + j.dump());
  return *op;
}

// Limits of what a model can hold: process counts are MPI ranks (32-bit), and a phase's slot
// templates and order residues are few (the builder makes tens); the bounds keep a hand-edited
// file from sizing huge tables.
constexpr std::int64_t kMaxProcesses = INT32_MAX;
constexpr std::int64_t kMaxTemplates = std::int64_t{1} << 20;
constexpr std::int64_t kMaxModulus = std::int64_t{1} << 16;

std::int32_t tag_from(const json& j) {
  return core::json_int32(j, core::kAnyTag);
}

ordered_json fit_json(const ScalingFit& fit) {
  json plain = fit;
  ordered_json out;
  out["equation"] = fit.equation();
  for (auto& [key, value] : plain.items()) out[key] = value;
  return out;
}

ordered_json optional_fit(const std::optional<ScalingFit>& fit) {
  return fit ? fit_json(*fit) : ordered_json(nullptr);
}

std::optional<ScalingFit> optional_fit_from(const json& j) {
  if (j.is_null()) return std::nullopt;
  return j.get<ScalingFit>();
}

// A share of something: in [0, 1].
double share_from(const json& j) {
  return core::json_number(j, 0, 1);
}

ordered_json rules_json(const std::optional<SlotSequenceModel>& rules) {
  if (!rules) return nullptr;
  json plain = *rules;
  ordered_json out;
  std::vector<std::string> texts;
  for (const PeerRule& rule : rules->rules) texts.push_back(rule.text());
  out["equations"] = texts;
  for (auto& [key, value] : plain.items()) out["model"][key] = value;
  return out;
}

std::optional<SlotSequenceModel> rules_from(const json& j) {
  if (j.is_null()) return std::nullopt;
  return j.at("model").get<SlotSequenceModel>();
}

ordered_json phase_json(const PhaseModel& p) {
  ordered_json out;
  out["index"] = p.index;
  out["name"] = p.name;
  out["calls"] = p.calls;
  out["runs"] = p.runs_n;
  out["shares"] = p.shares;
  out["pairing"] = p.pairing;
  out["weight"] = fit_json(p.weight);
  out["pattern_modelled"] = p.pattern_modelled;
  out["alignment"] = p.alignment;
  out["failures"] = p.failures;
  out["notes"] = p.notes;
  ordered_json undecided = ordered_json::array();
  for (const UndecidedRule& u : p.undecided) {
    json alternative = u.undecided.alternative;
    undecided.push_back({{"side", u.side},
                         {"slot", u.undecided.slot},
                         {"alternative", alternative},
                         {"differs_from", u.undecided.differs_from}});
  }
  out["undecided"] = undecided;
  out["settled_by"] = p.settled_by ? json(*p.settled_by) : json(nullptr);
  json layout = p.layout;
  out["layout"] = layout;
  ordered_json slots = ordered_json::array();
  for (const SlotModel& s : p.slots) {
    ordered_json slot;
    slot["op"] = op_text(s.op);
    slot["tag"] = s.tag;
    slot["rtag"] = s.rtag;
    slot["tag_step"] = s.tag_step;
    slot["rtag_step"] = s.rtag_step;
    slot["sends"] = s.sends;
    slot["receives"] = s.receives;
    slot["rooted"] = s.rooted;
    slot["bytes"] = optional_fit(s.bytes);
    slot["rbytes"] = optional_fit(s.rbytes);
    slot["bytes_spread"] = s.bytes_spread;
    slot["rbytes_spread"] = s.rbytes_spread;
    slot["bytes_per_member"] = s.bytes_per_member;
    slot["rbytes_per_member"] = s.rbytes_per_member;
    slot["comm"] = s.comm ? ordered_json(json(*s.comm)) : ordered_json(nullptr);
    slot["comm_root"] = s.comm_root ? ordered_json(json(*s.comm_root)) : ordered_json(nullptr);
    slot["completes"] = s.completes;
    slot["needs_request"] = s.needs_request;
    slot["guards"] = s.guards;
    slots.push_back(slot);
  }
  out["slots"] = slots;
  out["dst"] = rules_json(p.dst_rules);
  out["src"] = rules_json(p.src_rules);
  out["root"] = rules_json(p.root_rules);
  out["order"] = {{"modulus", p.order.modulus}, {"variants", p.order.variants}};
  if (p.carried) {
    ordered_json ranks = ordered_json::array();
    for (const auto& events : p.carried->ranks) {
      ordered_json rank = ordered_json::array();
      for (const CarriedRankEvent& e : events) {
        rank.push_back({op_text(e.op), e.dst, e.src, e.root, e.tag, e.rtag, e.bytes, e.rbytes});
      }
      ranks.push_back(rank);
    }
    out["carried"] = {{"n", p.carried->n}, {"ranks", ranks}};
  } else {
    out["carried"] = nullptr;
  }
  return out;
}

// What a slot template's call may have: peers only for point-to-point calls, a root exactly
// for rooted collectives.
SlotModel slot_from(const json& s) {
  SlotModel slot;
  slot.op = op_from(s.at("op"));
  slot.tag = tag_from(s.at("tag"));
  slot.rtag = tag_from(s.at("rtag"));
  slot.tag_step = core::json_int32(s.at("tag_step"), -(1 << 20), 1 << 20);
  slot.rtag_step = core::json_int32(s.at("rtag_step"), -(1 << 20), 1 << 20);
  slot.sends = s.at("sends").get<bool>();
  slot.receives = s.at("receives").get<bool>();
  slot.rooted = s.at("rooted").get<bool>();
  const core::OpKind kind = core::op_kind(slot.op);
  core::json_require(kind == core::OpKind::PointToPoint || kind == core::OpKind::Persistent ||
                         (!slot.sends && !slot.receives),
                     s, "a " + op_text(slot.op) + " slot has no peers to send to or receive from");
  core::json_require(!slot.rooted || core::is_rooted(slot.op), s.at("rooted"),
                     "only rooted collectives (bcast, reduce, gather, scatter...) have a root");
  slot.bytes = optional_fit_from(s.at("bytes"));
  slot.rbytes = optional_fit_from(s.at("rbytes"));
  slot.bytes_spread = core::json_number(s.at("bytes_spread"), 0);
  slot.rbytes_spread = core::json_number(s.at("rbytes_spread"), 0);
  slot.bytes_per_member = s.at("bytes_per_member").get<bool>();
  slot.rbytes_per_member = s.at("rbytes_per_member").get<bool>();
  if (!s.at("comm").is_null()) slot.comm = s.at("comm").get<CommunicatorRule>();
  if (!s.at("comm_root").is_null()) {
    core::json_require(slot.rooted && slot.comm, s.at("comm_root"),
                       "only a rooted collective on a sub-communicator has a root's place");
    slot.comm_root = s.at("comm_root").get<IntegerFormula>();
  }
  for (const std::int64_t c : core::json_integers(s.at("completes"), 0, kMaxTemplates - 1)) {
    slot.completes.push_back(static_cast<std::int32_t>(c));
  }
  slot.needs_request = s.at("needs_request").get<bool>();
  for (const std::int64_t g : core::json_integers(s.at("guards"), 0, kMaxTemplates - 1)) {
    slot.guards.push_back(static_cast<std::int32_t>(g));
  }
  core::json_require(slot.guards.empty() || slot.op == core::Op::Waitall, s.at("guards"),
                     "only a waitall is made for the posts after it");
  core::json_require(slot.completes.empty() || core::op_kind(slot.op) == core::OpKind::Completion,
                     s.at("completes"), "only a completion completes other slots' requests");
  return slot;
}

// Every variant lists slot templates that exist, each at most once: phase_events walks them.
void check_order(const json& j, const SlotOrder& order, std::size_t slots) {
  core::json_require(order.variants.size() == static_cast<std::size_t>(order.modulus), j,
                     "order: one variant per residue of the modulus");
  for (std::size_t v = 0; v < order.variants.size(); ++v) {
    std::vector<bool> seen(slots, false);
    for (const std::int32_t s : order.variants[v]) {
      core::json_require(s >= 0 && static_cast<std::size_t>(s) < slots, j.at("variants").at(v),
                         fmt::format("slot {} does not exist (the phase has {})", s, slots));
      core::json_require(!seen[static_cast<std::size_t>(s)], j.at("variants").at(v),
                         fmt::format("slot {} is listed twice", s));
      seen[static_cast<std::size_t>(s)] = true;
    }
  }
}

// A carried event: [op, dst, src, root, tag, rtag, bytes, rbytes], peers as offsets in the
// block of n ranks or -1.
CarriedRankEvent carried_event_from(const json& e, std::int64_t n) {
  core::json_require(e.is_array() && e.size() == 8, e,
                     "a carried event is [op, dst, src, root, tag, rtag, bytes, rbytes]");
  const auto offset = [&](const json& v) {
    return core::json_int32(v, -1, static_cast<std::int32_t>(n - 1));
  };
  // A receive from any source whose source no run recorded keeps core::kAnySource.
  const auto source = [&](const json& v) {
    return v == core::kAnySource ? core::kAnySource : offset(v);
  };
  return {op_from(e.at(0)),
          offset(e.at(1)),
          source(e.at(2)),
          offset(e.at(3)),
          tag_from(e.at(4)),
          tag_from(e.at(5)),
          core::json_integer(e.at(6), 0, core::kMaxBytes),
          core::json_integer(e.at(7), 0, core::kMaxBytes)};
}

// A modelled phase's parts agree: one template and one peer rule per slot, a root for every
// rooted collective, and an order of slots that exist.
void check_modelled_phase(const json& j, const PhaseModel& p) {
  const json& layout = j.at("layout");
  const json& order = j.at("order");
  core::json_require(p.layout.templates == static_cast<std::int64_t>(p.slots.size()), layout,
                     "layout: one template per slot");
  for (const char* key : {"dst", "src", "root"}) {
    const auto& rules = key[0] == 'd' ? p.dst_rules : key[0] == 's' ? p.src_rules : p.root_rules;
    core::json_require(!rules || rules->rules.size() == p.slots.size(), j.at(key),
                       "peer rules: one per slot");
  }
  for (std::size_t s = 0; s < p.slots.size(); ++s) {
    const SlotModel& slot = p.slots[s];
    // A rooted collective without a root would be replayed rootless; on a sub-communicator
    // its root is a member's place (comm_root).
    const bool has_root =
        slot.comm
            ? slot.comm_root.has_value()
            : p.root_rules && !std::holds_alternative<NoPeerRule>(p.root_rules->rules[s].form);
    core::json_require(!slot.rooted || has_root, j.at("slots").at(s),
                       "a rooted collective's slot needs a root rule (or, on a "
                       "sub-communicator, the root's place)");
    for (const std::int32_t c : slot.completes) {
      core::json_require(
          static_cast<std::size_t>(c) < p.slots.size(), j.at("slots").at(s).at("completes"),
          fmt::format("slot {} does not exist (the phase has {})", c, p.slots.size()));
    }
    for (const std::int32_t g : slot.guards) {
      core::json_require(
          static_cast<std::size_t>(g) < p.slots.size() && !p.layout.grows(),
          j.at("slots").at(s).at("guards"),
          fmt::format("slot {} does not exist (the phase has {}) or its layout grows", g,
                      p.slots.size()));
    }
  }
  for (const UndecidedRule& u : p.undecided) {
    const auto& rules = u.side == "destination" ? p.dst_rules
                        : u.side == "source"    ? p.src_rules
                                                : p.root_rules;
    core::json_require(static_cast<std::size_t>(u.undecided.slot) < p.slots.size() && rules,
                       j.at("undecided"),
                       fmt::format("undecided {} of slot {}: the phase has no such rule", u.side,
                                   u.undecided.slot));
  }
  check_order(order, p.order, p.slots.size());
}

// The largest run's events, carried to N with --carry-nearest.
CarriedPattern carried_from(const json& c) {
  CarriedPattern carried;
  carried.n = core::json_integer(c.at("n"), 1, kMaxProcesses);
  core::json_require(
      c.at("ranks").is_array() && c.at("ranks").size() == static_cast<std::size_t>(carried.n),
      c.at("ranks"), "carried: one event list per rank of its run");
  for (const json& rank : c.at("ranks")) {
    std::vector<CarriedRankEvent> events;
    for (const json& e : rank) events.push_back(carried_event_from(e, carried.n));
    carried.ranks.push_back(std::move(events));
  }
  return carried;
}

PhaseModel phase_from(const json& j) {
  PhaseModel p;
  p.index = core::json_int32(j.at("index"), 0);
  p.name = j.at("name").get<std::string>();
  p.calls = j.at("calls").get<std::string>();
  p.runs_n = core::json_integers(j.at("runs"), 1, kMaxProcesses);
  p.shares = core::json_numbers(j.at("shares"), 0, 1);
  p.pairing = j.at("pairing").get<std::vector<std::string>>();
  core::json_require(p.shares.size() == p.runs_n.size() && p.pairing.size() == p.runs_n.size(), j,
                     "phase shares and pairing: one per run");
  p.weight = j.at("weight").get<ScalingFit>();
  p.pattern_modelled = j.at("pattern_modelled").get<bool>();
  p.alignment = j.at("alignment").get<std::string>();
  p.failures = j.at("failures").get<std::vector<std::string>>();
  p.notes = j.at("notes").get<std::vector<std::string>>();
  for (const json& u : j.at("undecided")) {
    core::json_within(u, [&] {
      UndecidedRule rule;
      rule.side = u.at("side").get<std::string>();
      core::json_require(rule.side == "destination" || rule.side == "source" || rule.side == "root",
                         u.at("side"), "side is destination, source or root");
      rule.undecided.slot = core::json_integer(u.at("slot"), 0, kMaxTemplates - 1);
      rule.undecided.alternative = u.at("alternative").get<PeerRule>();
      rule.undecided.differs_from = core::json_integer(u.at("differs_from"), 1, kMaxProcesses);
      p.undecided.push_back(std::move(rule));
    });
  }
  if (!j.at("settled_by").is_null()) {
    p.settled_by = core::json_integer(j.at("settled_by"), 1, kMaxProcesses);
  }
  const json& layout = j.at("layout");
  p.layout = layout.get<SlotLayout>();
  core::json_require(p.layout.templates <= kMaxTemplates, layout.at("templates"),
                     fmt::format("more than {} slot templates", kMaxTemplates));
  for (const json& s : j.at("slots")) {
    p.slots.push_back(core::json_within(s, [&] { return slot_from(s); }));
  }
  p.dst_rules = rules_from(j.at("dst"));
  p.src_rules = rules_from(j.at("src"));
  p.root_rules = rules_from(j.at("root"));
  const json& order = j.at("order");
  p.order.modulus = core::json_integer(order.at("modulus"), 1, kMaxModulus);
  p.order.variants = order.at("variants").get<std::vector<std::vector<std::int32_t>>>();
  if (p.pattern_modelled) check_modelled_phase(j, p);
  if (!j.at("carried").is_null()) p.carried = carried_from(j.at("carried"));
  return p;
}

template <typename T>
ordered_json optional_value(const std::optional<T>& value) {
  return value ? ordered_json(*value) : ordered_json(nullptr);
}

template <typename T>
std::optional<T> optional_from(const json& j) {
  if (j.is_null()) return std::nullopt;
  return j.get<T>();
}

ordered_json group_json(const InstructionGroup& g) {
  ordered_json points = ordered_json::array();
  for (const ComputePoint& p : g.points) {
    points.push_back({{"n", p.n},
                      {"cpu_ns", p.cpu_ns},
                      {"instructions", optional_value(p.instructions)},
                      {"n_measured", p.n_measured},
                      {"workload", optional_value(p.workload)},
                      {"measurable", p.measurable}});
  }
  return {{"ranks", {g.first, g.end}},
          {"modulus", g.modulus},
          {"residues", g.residues},
          {"slowest", g.slowest},
          {"per_rank_ns", fit_json(g.per_rank_ns)},
          {"total_instructions", optional_value(g.total_instructions)},
          {"points", points}};
}

// A non-negative finite number, or null.
std::optional<double> optional_amount_from(const json& j) {
  if (j.is_null()) return std::nullopt;
  return core::json_number(j, 0);
}

InstructionGroup group_from(const json& j) {
  InstructionGroup g;
  const json& ranks = j.at("ranks");
  core::json_require(ranks.is_array() && ranks.size() == 2, ranks,
                     "compute group ranks: [first, end)");
  g.first = share_from(ranks.at(0));
  g.end = share_from(ranks.at(1));
  core::json_require(g.first < g.end, ranks,
                     "compute group ranks: [first, end) shares within [0, 1]");
  g.modulus = core::json_integer(j.at("modulus"), 1, kMaxModulus);
  g.residues = core::json_integers(j.at("residues"), 0, g.modulus - 1);
  core::json_require(!g.residues.empty(), j.at("residues"), "compute group: some residues");
  g.slowest = j.at("slowest").get<bool>();
  g.per_rank_ns = j.at("per_rank_ns").get<ScalingFit>();
  g.total_instructions = optional_amount_from(j.at("total_instructions"));
  for (const json& p : j.at("points")) {
    g.points.push_back({core::json_number(p.at("n"), 0), core::json_number(p.at("cpu_ns"), 0),
                        optional_amount_from(p.at("instructions")),
                        core::json_integer(p.at("n_measured"), 1, kMaxProcesses),
                        optional_amount_from(p.at("workload")), p.at("measurable").get<bool>()});
  }
  return g;
}

// Groups cover the ranks once: blocks in order, or the residue classes of one modulus.
void check_cover(const std::vector<InstructionGroup>& groups) {
  if (groups.empty()) throw std::invalid_argument("compute: a phase without groups");
  const std::int64_t modulus = groups.front().modulus;
  if (modulus > 1) {
    std::vector<int> seen(static_cast<std::size_t>(modulus), 0);
    for (const InstructionGroup& g : groups) {
      if (g.modulus != modulus || g.first != 0 || g.end != 1)
        throw std::invalid_argument("compute groups by residue share one modulus and all ranks");
      for (std::int64_t residue : g.residues) ++seen[static_cast<std::size_t>(residue)];
    }
    if (std::any_of(seen.begin(), seen.end(), [](int k) { return k != 1; }))
      throw std::invalid_argument("compute groups must hold every residue once");
    return;
  }
  double covered = 0;
  for (const InstructionGroup& g : groups) {
    if (g.modulus != 1 || g.first != covered)
      throw std::invalid_argument("compute groups must cover the ranks in order");
    covered = g.end;
  }
  if (covered != 1.0) throw std::invalid_argument("compute groups must cover every rank");
}

ordered_json compute_json(const MachineCompute& c) {
  ordered_json phases = ordered_json::array();
  for (std::size_t k = 0; k < c.phases.size(); ++k) {
    ordered_json groups = ordered_json::array();
    for (const InstructionGroup& g : c.phases[k].groups) groups.push_back(group_json(g));
    phases.push_back({{"index", k},
                      {"groups", groups},
                      {"slot_shares", c.phases[k].slot_shares},
                      {"notes", c.phases[k].notes}});
  }
  ordered_json workload = nullptr;
  if (c.workload) workload = {{"label", c.workload->label}, {"size", c.workload->size}};
  return {{"machine", c.machine},
          {"metric", c.metric},
          {"scaling", work_scaling_name(c.scaling)},
          {"workload", workload},
          {"phases", phases}};
}

MachineCompute compute_from(const json& j, std::size_t phase_count) {
  MachineCompute c;
  c.machine = j.at("machine").get<std::string>();
  c.metric = j.at("metric").get<std::string>();
  if (c.metric != "cpu_time" && c.metric != "instructions" && c.metric != "none") {
    throw std::invalid_argument("compute metric is neither cpu_time, instructions nor none");
  }
  c.scaling = work_scaling_from_name(j.at("scaling").get<std::string>());
  if (!j.at("workload").is_null()) c.workload = core::workload_from_json(j.at("workload"));
  for (const json& p : j.at("phases")) {
    core::json_require(
        core::json_integer(p.at("index"), 0) == static_cast<std::int64_t>(c.phases.size()),
        p.at("index"), "compute phases: one per phase, in order");
    PhaseCompute phase;
    for (const json& g : p.at("groups")) {
      phase.groups.push_back(core::json_within(g, [&] { return group_from(g); }));
    }
    check_cover(phase.groups);
    // Shares of a repetition's compute: together at most the whole of it.
    phase.slot_shares = core::json_numbers(p.at("slot_shares"), 0, 1);
    double total = 0;
    for (const double share : phase.slot_shares) total += share;
    core::json_require(total <= 1 + 1e-6, p.at("slot_shares"),
                       "slot shares add up to more than the whole repetition");
    phase.notes = p.at("notes").get<std::vector<std::string>>();
    c.phases.push_back(std::move(phase));
  }
  if (c.phases.size() != phase_count) throw std::invalid_argument("compute: one entry per phase");
  return c;
}

ordered_json coverage_json(const RunCoverage& c) {
  ordered_json missing = ordered_json::array();
  for (const RunCoverage::Missing& m : c.missing) {
    missing.push_back({{"phase", m.phase},
                       {"share", m.share},
                       {"why", m.why},
                       {"slt_phase", m.slt_phase ? json(*m.slt_phase) : json(nullptr)},
                       {"relevant", m.relevant}});
  }
  return {{"n", c.n}, {"run", c.run}, {"modelled", c.modelled}, {"missing", missing}};
}

RunCoverage coverage_from(const json& j) {
  RunCoverage c;
  c.n = core::json_integer(j.at("n"), 1, kMaxProcesses);
  c.run = j.at("run").get<std::string>();
  c.modelled = core::json_number(j.at("modelled"), 0, 1.000001);
  for (const json& m : j.at("missing")) {
    RunCoverage::Missing missing{m.at("phase").get<std::string>(), share_from(m.at("share")),
                                 m.at("why").get<std::string>(), std::nullopt,
                                 m.at("relevant").get<bool>()};
    if (!m.at("slt_phase").is_null()) {
      missing.slt_phase = core::json_int32(m.at("slt_phase"), 0, INT32_MAX);
    }
    c.missing.push_back(std::move(missing));
  }
  return c;
}

}  // namespace

ordered_json slt_to_json(const Slt& slt) {
  ordered_json out;
  out["format"] = kSltFormat;
  out["application"] = slt.application;
  out["runs"] = slt.runs;
  out["holdout"] = slt.holdout_n ? ordered_json(*slt.holdout_n) : ordered_json(nullptr);
  out["notes"] = slt.notes;
  ordered_json coverage = ordered_json::array();
  for (const RunCoverage& c : slt.coverage) coverage.push_back(coverage_json(c));
  out["coverage"] = coverage;
  ordered_json phases = ordered_json::array();
  for (const PhaseModel& p : slt.phases) phases.push_back(phase_json(p));
  out["phases"] = phases;
  // Last and apart: the only part that depends on the machine the runs were made on.
  out["compute"] = compute_json(slt.compute);
  return out;
}

Slt slt_from_json(const json& j, const std::string& name) {
  Slt slt;
  core::read_json_value(name, j, [&](const json& root) {
    core::json_require(root.is_object() && root.contains("format"), root,
                       "not a p3s model (no \"format\")");
    core::json_require(root.at("format") == kSltFormat, root.at("format"),
                       fmt::format("format is not '{}'", kSltFormat));
    slt.application = root.at("application").get<std::string>();
    slt.runs = core::json_integers(root.at("runs"), 1, kMaxProcesses);
    if (!root.at("holdout").is_null()) {
      slt.holdout_n = core::json_integer(root.at("holdout"), 1, kMaxProcesses);
    }
    slt.notes = root.at("notes").get<std::vector<std::string>>();
    for (const json& c : root.at("coverage")) {
      slt.coverage.push_back(core::json_within(c, [&] { return coverage_from(c); }));
    }
    core::json_require(slt.coverage.size() == slt.runs.size(), root.at("coverage"),
                       "coverage: one entry per training run");
    for (const json& p : root.at("phases")) {
      slt.phases.push_back(core::json_within(p, [&] { return phase_from(p); }));
    }
    const json& compute = root.at("compute");
    slt.compute =
        core::json_within(compute, [&] { return compute_from(compute, slt.phases.size()); });
  });
  return slt;
}

void write_slt(const std::filesystem::path& file, const Slt& slt) {
  core::write_text_file(file, slt_to_json(slt).dump(1) + "\n");
}

Slt read_slt(const std::filesystem::path& file) {
  Slt slt;
  core::read_json_document(file.string(), core::read_text_file(file, "model (SLT)"),
                           [&](const json& j) { slt = slt_from_json(j, file.string()); });
  return slt;
}

}  // namespace p3s::model
