#include "model/slt_json.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <fstream>

#include "core/format_error.hpp"

namespace p3s::model {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

std::string op_text(core::Op op) {
  return std::string(core::op_name(op));
}

core::Op op_from(const json& j) {
  const auto op = core::op_from_name(j.get<std::string>());
  if (!op) throw std::invalid_argument("unknown operation " + j.dump());
  return *op;
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
  json layout = p.layout;
  out["layout"] = layout;
  ordered_json slots = ordered_json::array();
  for (const SlotModel& s : p.slots) {
    ordered_json slot;
    slot["op"] = op_text(s.op);
    slot["tag"] = s.tag;
    slot["rtag"] = s.rtag;
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

PhaseModel phase_from(const json& j) {
  PhaseModel p;
  p.index = j.at("index").get<std::int32_t>();
  p.name = j.at("name").get<std::string>();
  p.calls = j.at("calls").get<std::string>();
  p.runs_n = j.at("runs").get<std::vector<std::int64_t>>();
  p.shares = j.at("shares").get<std::vector<double>>();
  p.pairing = j.at("pairing").get<std::vector<std::string>>();
  if (p.shares.size() != p.runs_n.size() || p.pairing.size() != p.runs_n.size())
    throw std::invalid_argument("phase shares and pairing: one per run");
  p.weight = j.at("weight").get<ScalingFit>();
  p.pattern_modelled = j.at("pattern_modelled").get<bool>();
  p.alignment = j.at("alignment").get<std::string>();
  p.failures = j.at("failures").get<std::vector<std::string>>();
  p.notes = j.at("notes").get<std::vector<std::string>>();
  p.layout = j.at("layout").get<SlotLayout>();
  for (const json& s : j.at("slots")) {
    SlotModel slot;
    slot.op = op_from(s.at("op"));
    slot.tag = s.at("tag").get<std::int32_t>();
    slot.rtag = s.at("rtag").get<std::int32_t>();
    slot.sends = s.at("sends").get<bool>();
    slot.receives = s.at("receives").get<bool>();
    slot.rooted = s.at("rooted").get<bool>();
    slot.bytes = optional_fit_from(s.at("bytes"));
    slot.rbytes = optional_fit_from(s.at("rbytes"));
    slot.bytes_spread = s.at("bytes_spread").get<double>();
    slot.rbytes_spread = s.at("rbytes_spread").get<double>();
    if (!(slot.bytes_spread >= 0) || !(slot.rbytes_spread >= 0))
      throw std::invalid_argument("a size spread must be a non-negative number");
    slot.bytes_per_member = s.at("bytes_per_member").get<bool>();
    slot.rbytes_per_member = s.at("rbytes_per_member").get<bool>();
    if (!s.at("comm").is_null()) slot.comm = s.at("comm").get<CommunicatorRule>();
    if (!s.at("comm_root").is_null()) slot.comm_root = s.at("comm_root").get<IntegerFormula>();
    p.slots.push_back(slot);
  }
  p.dst_rules = rules_from(j.at("dst"));
  p.src_rules = rules_from(j.at("src"));
  p.root_rules = rules_from(j.at("root"));
  if (p.pattern_modelled) {
    if (p.layout.templates != static_cast<std::int64_t>(p.slots.size()))
      throw std::invalid_argument("layout: one template per slot");
    for (const auto* rules : {&p.dst_rules, &p.src_rules, &p.root_rules}) {
      if (*rules && (*rules)->rules.size() != p.slots.size())
        throw std::invalid_argument("peer rules: one per slot");
    }
  }
  p.order.modulus = j.at("order").at("modulus").get<std::int64_t>();
  p.order.variants = j.at("order").at("variants").get<std::vector<std::vector<std::int32_t>>>();
  if (p.pattern_modelled &&
      (p.order.modulus < 1 || p.order.variants.size() != static_cast<std::size_t>(p.order.modulus)))
    throw std::invalid_argument("order: one variant per residue of the modulus");
  if (!j.at("carried").is_null()) {
    CarriedPattern carried;
    carried.n = j.at("carried").at("n").get<std::int64_t>();
    for (const json& rank : j.at("carried").at("ranks")) {
      std::vector<CarriedRankEvent> events;
      for (const json& e : rank) {
        events.push_back({op_from(e.at(0)), e.at(1).get<std::int32_t>(),
                          e.at(2).get<std::int32_t>(), e.at(3).get<std::int32_t>(),
                          e.at(4).get<std::int32_t>(), e.at(5).get<std::int32_t>(),
                          e.at(6).get<std::int64_t>(), e.at(7).get<std::int64_t>()});
      }
      carried.ranks.push_back(std::move(events));
    }
    if (carried.n < 1 || carried.ranks.size() != static_cast<std::size_t>(carried.n))
      throw std::invalid_argument("carried: one event list per rank of its run");
    p.carried = std::move(carried);
  }
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

InstructionGroup group_from(const json& j) {
  InstructionGroup g;
  g.first = j.at("ranks").at(0).get<double>();
  g.end = j.at("ranks").at(1).get<double>();
  if (j.at("ranks").size() != 2 || g.first < 0 || g.end > 1 || g.end <= g.first)
    throw std::invalid_argument("compute group ranks: [first, end) shares within [0, 1]");
  g.modulus = j.at("modulus").get<std::int64_t>();
  g.residues = j.at("residues").get<std::vector<std::int64_t>>();
  g.slowest = j.at("slowest").get<bool>();
  if (g.modulus < 1 || g.residues.empty())
    throw std::invalid_argument("compute group: a modulus of at least 1 and some residues");
  for (std::int64_t residue : g.residues) {
    if (residue < 0 || residue >= g.modulus)
      throw std::invalid_argument("compute group: residues lie in 0..modulus-1");
  }
  g.per_rank_ns = j.at("per_rank_ns").get<ScalingFit>();
  g.total_instructions = optional_from<double>(j.at("total_instructions"));
  for (const json& p : j.at("points")) {
    g.points.push_back({p.at("n").get<double>(), p.at("cpu_ns").get<double>(),
                        optional_from<double>(p.at("instructions")),
                        p.at("n_measured").get<std::int64_t>(),
                        optional_from<double>(p.at("workload")), p.at("measurable").get<bool>()});
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
  if (c.metric != "cpu_time" && c.metric != "instructions")
    throw std::invalid_argument("compute metric is neither cpu_time nor instructions");
  c.scaling = work_scaling_from_name(j.at("scaling").get<std::string>());
  if (!j.at("workload").is_null()) {
    c.workload = core::Workload{j.at("workload").at("label").get<std::string>(),
                                j.at("workload").at("size").get<double>()};
  }
  for (const json& p : j.at("phases")) {
    if (p.at("index").get<std::size_t>() != c.phases.size())
      throw std::invalid_argument("compute phases: one per phase, in order");
    PhaseCompute phase;
    for (const json& g : p.at("groups")) phase.groups.push_back(group_from(g));
    check_cover(phase.groups);
    phase.slot_shares = p.at("slot_shares").get<std::vector<double>>();
    phase.notes = p.at("notes").get<std::vector<std::string>>();
    c.phases.push_back(std::move(phase));
  }
  if (c.phases.size() != phase_count) throw std::invalid_argument("compute: one entry per phase");
  return c;
}

ordered_json coverage_json(const RunCoverage& c) {
  ordered_json missing = ordered_json::array();
  for (const RunCoverage::Missing& m : c.missing) {
    missing.push_back({{"phase", m.phase}, {"share", m.share}, {"why", m.why}});
  }
  return {{"n", c.n}, {"run", c.run}, {"modelled", c.modelled}, {"missing", missing}};
}

RunCoverage coverage_from(const json& j) {
  RunCoverage c;
  c.n = j.at("n").get<std::int64_t>();
  c.run = j.at("run").get<std::string>();
  c.modelled = j.at("modelled").get<double>();
  if (!(c.modelled >= 0 && c.modelled <= 1.000001))
    throw std::invalid_argument("coverage 'modelled' must be a share in [0, 1]");
  for (const json& m : j.at("missing")) {
    c.missing.push_back({m.at("phase").get<std::string>(), m.at("share").get<double>(),
                         m.at("why").get<std::string>()});
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
  try {
    if (j.at("format").get<std::string>() != kSltFormat) {
      throw std::invalid_argument(fmt::format("format is not '{}'", kSltFormat));
    }
    Slt slt;
    slt.application = j.at("application").get<std::string>();
    slt.runs = j.at("runs").get<std::vector<std::int64_t>>();
    if (!j.at("holdout").is_null()) slt.holdout_n = j.at("holdout").get<std::int64_t>();
    slt.notes = j.at("notes").get<std::vector<std::string>>();
    for (const json& c : j.at("coverage")) slt.coverage.push_back(coverage_from(c));
    if (slt.coverage.size() != slt.runs.size())
      throw std::invalid_argument("coverage: one entry per training run");
    for (const json& p : j.at("phases")) slt.phases.push_back(phase_from(p));
    slt.compute = compute_from(j.at("compute"), slt.phases.size());
    return slt;
  } catch (const core::FormatError&) {
    throw;
  } catch (const std::exception& e) {
    throw core::FormatError(name, 0, e.what());
  }
}

void write_slt(const std::filesystem::path& file, const Slt& slt) {
  std::ofstream out(file);
  if (!out) throw std::runtime_error(fmt::format("cannot write {}", file.string()));
  out << slt_to_json(slt).dump(1) << '\n';
  if (!out) throw std::runtime_error(fmt::format("error writing {}", file.string()));
}

Slt read_slt(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw core::FormatError(file.string(), 0, "cannot open");
  json j;
  try {
    j = json::parse(in);
  } catch (const json::parse_error& e) {
    throw core::FormatError(file.string(), 0, fmt::format("not JSON: {}", e.what()));
  }
  return slt_from_json(j, file.string());
}

}  // namespace p3s::model
