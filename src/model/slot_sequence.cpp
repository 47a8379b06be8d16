#include "model/slot_sequence.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>

#include "core/checked_math.hpp"

namespace p3s::model {

std::optional<std::int64_t> SlotLayout::slots_at(std::int64_t n) const {
  std::int64_t slots = templates;
  for (const SlotBlock& block : blocks) {
    const std::optional<std::int64_t> count = block.count.try_at(n);
    if (!count || *count < 0) return std::nullopt;
    // Checked: the count comes from a file, and a slot count beyond 64 bits is no count.
    const std::optional<std::int64_t> repeated = core::checked_mul(*count, block.period);
    if (!repeated) return std::nullopt;
    const std::optional<std::int64_t> more = core::checked_add(slots - block.period, *repeated);
    if (!more) return std::nullopt;
    slots = *more;
  }
  return slots;
}

SlotLayout::Place SlotLayout::place(std::int64_t k, std::int64_t n) const {
  std::int64_t t = 0;  // the template slot k would be if no block came before it
  for (const SlotBlock& block : blocks) {
    if (k < block.first - t) return {t + k, t + k};
    k -= block.first - t;
    const std::int64_t count = block.count.at(n);
    if (k < count * block.period) return {block.first + k % block.period, k / block.period};
    k -= count * block.period;
    t = block.first + block.period;
  }
  return {t + k, t + k};
}

std::string SlotLayout::blocks_text() const {
  std::vector<std::string> parts;
  for (const SlotBlock& block : blocks) {
    parts.push_back(
        fmt::format("slots {}-{} repeated {} times{}", block.first, block.first + block.period - 1,
                    block.count.text(),
                    block.shifts_tags() ? ", tags shifted by " + block.tag_shift.text() : ""));
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

std::size_t SlotLayout::block_of(std::int64_t template_index) const {
  std::size_t b = 0;
  while (b < blocks.size() && (template_index < blocks[b].first ||
                               template_index >= blocks[b].first + blocks[b].period)) {
    ++b;
  }
  return b;
}

bool SlotLayout::in_block(std::int64_t template_index) const {
  return block_of(template_index) < blocks.size();
}

std::int64_t SlotLayout::tag_shift_at(std::int64_t template_index, std::int64_t n) const {
  const std::size_t b = block_of(template_index);
  return b < blocks.size() ? blocks[b].tag_shift.at(n) : 0;
}

namespace {

// The process grid of a grid rule: shape, order and periodic dimensions, offsets aside.
std::optional<GridPeerRule> grid_of(const PeerRule& rule) {
  const auto* grid = std::get_if<GridPeerRule>(&rule.form);
  if (!grid) return std::nullopt;
  GridPeerRule g = *grid;
  g.offset.clear();
  g.planes = 0;  // a coarse level of the same decomposition
  return g;
}

bool same_grid(const PeerRule& rule, const GridPeerRule& grid) {
  const std::optional<GridPeerRule> g = grid_of(rule);
  return g && *g == grid;
}

// A rule that names neighbours by where they are (not a root, not nobody).
bool relative(const PeerRule& rule) {
  return std::holds_alternative<ShiftPeerRule>(rule.form) ||
         std::holds_alternative<XorPeerRule>(rule.form) ||
         std::holds_alternative<GridPeerRule>(rule.form) ||
         std::holds_alternative<PermutationPeerRule>(rule.form);
}

// The grids, offsets aside, of every slot's alternatives, each once, in the order first seen.
std::vector<GridPeerRule> alternative_grids(const std::vector<PeerRuleInference>& slots) {
  std::vector<GridPeerRule> grids;
  for (const PeerRuleInference& slot : slots) {
    for (const PeerRule& alt : slot.alternatives) {
      if (const auto g = grid_of(alt);
          g && std::find(grids.begin(), grids.end(), *g) == grids.end())
        grids.push_back(*g);
    }
  }
  return grids;
}

// Whether every relative slot has an alternative on `grid`.
bool covers(const std::vector<PeerRuleInference>& slots, const GridPeerRule& grid) {
  for (const PeerRuleInference& slot : slots) {
    if (!relative(*slot.rule)) continue;
    if (std::none_of(slot.alternatives.begin(), slot.alternatives.end(),
                     [&](const PeerRule& alt) { return same_grid(alt, grid); }))
      return false;
  }
  return true;
}

// Whether the relative rules are of several kinds (a distance here, a bit exchange there) or on
// several grids: no one decomposition. Rules all of one kind that is not a grid (a ring's
// shifts, a butterfly's exchanges) are one.
bool rules_of_several_grids(const std::vector<PeerRuleInference>& slots) {
  std::optional<std::size_t> kind;
  bool one_kind = true, already_one = true;
  std::optional<GridPeerRule> chosen_grid;
  for (const PeerRuleInference& slot : slots) {
    if (!relative(*slot.rule)) continue;
    if (kind && *kind != slot.rule->form.index()) one_kind = false;
    kind = slot.rule->form.index();
    const std::optional<GridPeerRule> g = grid_of(*slot.rule);
    if (!g || (chosen_grid && !(*g == *chosen_grid))) already_one = false;
    if (g && !chosen_grid) chosen_grid = g;
  }
  if (!kind) return false;
  if (!one_kind) return true;
  return chosen_grid.has_value() && !already_one;
}

// Each relative slot's alternative on `grid` becomes its rule (and its first alternative).
void adopt_grid(std::vector<PeerRuleInference>& slots, const GridPeerRule& grid) {
  for (PeerRuleInference& slot : slots) {
    if (!relative(*slot.rule)) continue;
    const auto it = std::find_if(slot.alternatives.begin(), slot.alternatives.end(),
                                 [&](const PeerRule& alt) { return same_grid(alt, grid); });
    PeerRule pick = *it;
    slot.alternatives.erase(it);
    slot.alternatives.insert(slot.alternatives.begin(), pick);
    slot.rule = pick;
  }
}

// One grid whose rules reproduce every relative slot, when the chosen rules are not already of
// one grid: each such slot's grid alternative replaces its rule.
void choose_one_grid(std::vector<PeerRuleInference>& slots) {
  const std::vector<GridPeerRule> grids = alternative_grids(slots);
  if (!rules_of_several_grids(slots)) return;
  for (const GridPeerRule& grid : grids) {
    if (!covers(slots, grid)) continue;
    adopt_grid(slots, grid);
    return;
  }
}

// `rule` with its offset negated in dimension `d`, when that changes it.
std::optional<PeerRule> mirrored(const PeerRule& rule, std::size_t d) {
  const auto* grid = std::get_if<GridPeerRule>(&rule.form);
  if (!grid || d >= grid->offset.size()) return std::nullopt;
  PeerRule mirror = rule;
  IntegerFormula& offset = std::get<GridPeerRule>(mirror.form).offset[d];
  offset = negated(offset);
  if (mirror == rule) return std::nullopt;
  return mirror;
}

bool has_alternative(const PeerRuleInference& slot, const PeerRule& rule) {
  return std::find(slot.alternatives.begin(), slot.alternatives.end(), rule) !=
         slot.alternatives.end();
}

// Where some slot's ranks go idle on a coarse level of a multigrid (a grid rule with planes),
// every other slot on a grid may be a coarse level too, of more planes than any training grid
// has ranks along a dimension: nothing in the runs says it is not. Each such slot gets that
// reading as an alternative, so that the n from which it differs is named (find_undecided).
void add_coarse_alternatives(std::vector<PeerRuleInference>& slots,
                             std::span<const PhasePeers> runs) {
  const bool coarse = std::any_of(slots.begin(), slots.end(), [](const PeerRuleInference& slot) {
    const auto* grid = slot.rule ? std::get_if<GridPeerRule>(&slot.rule->form) : nullptr;
    return grid && grid->planes > 0;
  });
  if (!coarse) return;
  for (PeerRuleInference& slot : slots) {
    const auto* grid = slot.rule ? std::get_if<GridPeerRule>(&slot.rule->form) : nullptr;
    if (!grid || grid->planes > 0) continue;
    std::int64_t widest = 1;
    for (const PhasePeers& run : runs) {
      const std::optional<std::vector<std::int64_t>> extent = grid_extent(grid->shape, run.n);
      if (extent) widest = std::max(widest, *std::max_element(extent->begin(), extent->end()));
    }
    PeerRule level = *slot.rule;
    std::get<GridPeerRule>(level.form).planes = widest;
    if (!has_alternative(slot, level)) slot.alternatives.push_back(level);
  }
}

void adopt(PeerRuleInference& slot, const PeerRule& rule) {
  slot.alternatives.erase(std::find(slot.alternatives.begin(), slot.alternatives.end(), rule));
  slot.alternatives.insert(slot.alternatives.begin(), rule);
  slot.rule = rule;
}

// The dimension in which `slot`'s rule and its mirror both reproduce the runs: a dimension of
// extent 2 in every training run, where the neighbour on either side is the same rank.
std::optional<std::size_t> undecided_side(const PeerRuleInference& slot) {
  const auto* grid = std::get_if<GridPeerRule>(&slot.rule->form);
  if (!grid) return std::nullopt;
  for (std::size_t d = 0; d < grid->offset.size(); ++d) {
    const std::optional<PeerRule> mirror = mirrored(*slot.rule, d);
    if (mirror && has_alternative(slot, *mirror)) return d;
  }
  return std::nullopt;
}

// Two slots the runs leave to the same grid neighbour, on a side they do not decide, are the
// two sides of that dimension: a program that exchanges twice in a row with the one rank next
// to it on a grid of extent 2 exchanges with one neighbour on each side once the grid is
// larger. The later slot of each such pair takes the mirror, so that a larger n sees both
// neighbours (in an order the runs cannot tell) rather than one of them twice.
void split_undecided_sides(std::vector<PeerRuleInference>& slots) {
  std::vector<bool> paired(slots.size(), false);
  for (std::size_t i = 0; i < slots.size(); ++i) {
    if (paired[i] || !slots[i].rule) continue;
    const std::optional<std::size_t> d = undecided_side(slots[i]);
    if (!d) continue;
    const PeerRule mirror = *mirrored(*slots[i].rule, *d);
    for (std::size_t j = i + 1; j < slots.size(); ++j) {
      if (paired[j] || slots[j].rule != slots[i].rule || !has_alternative(slots[j], mirror)) {
        continue;
      }
      adopt(slots[j], mirror);
      paired[i] = paired[j] = true;
      break;
    }
  }
}

void check_layout(std::span<const PhasePeers> runs, const SlotLayout& layout) {
  for (const PhasePeers& run : runs) {
    if (layout.slots_at(run.n) != static_cast<std::int64_t>(run.slots.size())) {
      throw std::invalid_argument(fmt::format(
          "the phase's layout does not give the {} slots of n = {}", run.slots.size(), run.n));
    }
  }
}

// Every run's peers of each slot template, as samples for its rule.
std::vector<std::vector<PeerSample>> samples_by_template(std::span<const PhasePeers> runs,
                                                         const SlotLayout& layout) {
  std::vector<std::vector<PeerSample>> samples(static_cast<std::size_t>(layout.templates));
  for (const PhasePeers& run : runs) {
    for (std::size_t k = 0; k < run.slots.size(); ++k) {
      const SlotLayout::Place at = layout.place(static_cast<std::int64_t>(k), run.n);
      samples[static_cast<std::size_t>(at.template_index)].push_back({run.n, at.s, run.slots[k]});
    }
  }
  return samples;
}

// Each template's rule into out.slots, in order; false, with out.reason, at the first that
// has none.
bool infer_template_rules(const std::vector<std::vector<PeerSample>>& samples,
                          const SlotLayout& layout, const PeerInferenceOptions& options,
                          SlotSequenceInference& out) {
  for (std::size_t t = 0; t < samples.size(); ++t) {
    PeerInferenceOptions own = options;
    own.slot_indexed = layout.in_block(static_cast<std::int64_t>(t));
    if (samples[t].empty()) {
      out.reason = fmt::format("slot {} is used in no run", t);
      return false;
    }
    out.slots.push_back(infer_peer_rule(samples[t], own));
    const PeerRuleInference& slot = out.slots.back();
    if (!slot.modelled()) {
      out.reason = own.slot_indexed ? fmt::format("slot {} (repeated with n) is not modelled: {}",
                                                  t, slot.reason)
                                    : fmt::format("slot {} is not modelled: {}", t, slot.reason);
      return false;
    }
  }
  return true;
}

// The one grid every relative slot's rule is on, when there is one.
std::optional<GridPeerRule> common_grid(const std::vector<PeerRuleInference>& slots) {
  std::optional<GridPeerRule> common;
  for (const PeerRuleInference& slot : slots) {
    if (!relative(*slot.rule)) continue;
    const std::optional<GridPeerRule> g = grid_of(*slot.rule);
    if (!g || (common && !(*g == *common))) return std::nullopt;
    common = g;
  }
  return common;
}

// Whether `alternative` is another reading of the whole phase: when the slots' rules are all on
// one grid (the phase's decomposition), only rules on that grid or on another grid that gives
// every relative slot a rule; a slot's lone shift or bit exchange that no other slot shares is
// no decomposition of the ranks.
bool phase_wide(const PeerRule& alternative, const std::optional<GridPeerRule>& grid,
                const std::vector<PeerRuleInference>& slots) {
  if (!grid) return true;
  const std::optional<GridPeerRule> g = grid_of(alternative);
  return g && (*g == *grid || covers(slots, *g));
}

// The slots whose alternatives on the phase's decomposition give other peers than their rule
// beyond `largest`, once per such alternative.
std::vector<UndecidedSlot> undecided_slots(const std::vector<PeerRuleInference>& slots,
                                           std::int64_t largest) {
  std::vector<UndecidedSlot> undecided;
  const std::optional<GridPeerRule> grid = common_grid(slots);
  for (std::size_t t = 0; t < slots.size(); ++t) {
    const PeerRuleInference& slot = slots[t];
    if (!slot.rule) continue;
    for (std::size_t k = 1; k < slot.alternatives.size(); ++k) {
      if (!phase_wide(slot.alternatives[k], grid, slots)) continue;
      const auto at =
          first_difference(*slot.rule, slot.alternatives[k], largest, static_cast<std::int64_t>(t));
      if (!at) continue;
      undecided.push_back({static_cast<std::int64_t>(t), slot.alternatives[k], *at});
    }
  }
  return undecided;
}

}  // namespace

std::optional<std::int64_t> first_difference(const PeerRule& a, const PeerRule& b,
                                             std::int64_t largest, std::int64_t slot) {
  for (std::int64_t n = largest + 1; n <= 16 * largest; ++n) {
    if (rules_differ_at(a, b, n, slot)) return n;
  }
  return std::nullopt;
}

void find_undecided(SlotSequenceInference& inference, std::int64_t largest) {
  inference.undecided = undecided_slots(inference.slots, largest);
  inference.notes.clear();
  if (inference.undecided.empty()) return;
  std::vector<std::int64_t> slots;
  std::int64_t deciding = inference.undecided.front().differs_from;
  for (const UndecidedSlot& u : inference.undecided) {
    if (slots.empty() || slots.back() != u.slot) slots.push_back(u.slot);
    deciding = std::min(deciding, u.differs_from);
  }
  const UndecidedSlot& first = inference.undecided.front();
  inference.notes.push_back(fmt::format(
      "the training runs do not decide the peers of slot(s) {}: rules that reproduce every "
      "run give other peers from n = {} on (slot {}: '{}' was chosen, '{}' fits as well)",
      fmt::join(slots, ", "), deciding, first.slot,
      inference.slots[static_cast<std::size_t>(first.slot)].rule->text(),
      first.alternative.text()));
}

bool prefer_alternative(SlotSequenceInference& inference, std::size_t t, const PeerRule& rule) {
  PeerRuleInference& slot = inference.slots.at(t);
  if (!has_alternative(slot, rule)) return false;
  adopt(slot, rule);
  if (inference.model) inference.model->rules.at(t) = rule;
  return true;
}

SlotSequenceInference infer_slot_sequence(std::span<const PhasePeers> runs,
                                          const SlotLayout& layout,
                                          const PeerInferenceOptions& options) {
  if (runs.empty()) throw std::invalid_argument("no runs to infer a phase's peers from");
  check_layout(runs, layout);
  SlotSequenceInference out;
  if (runs.size() < 2) {
    out.reason = "one run cannot show how the phase changes with n";
    return out;
  }
  if (!infer_template_rules(samples_by_template(runs, layout), layout, options, out)) return out;
  choose_one_grid(out.slots);
  add_coarse_alternatives(out.slots, runs);
  split_undecided_sides(out.slots);
  std::int64_t largest = 0;
  for (const PhasePeers& run : runs) largest = std::max(largest, run.n);
  find_undecided(out, largest);
  SlotSequenceModel model;
  model.rules.reserve(out.slots.size());
  for (const PeerRuleInference& slot : out.slots) model.rules.push_back(*slot.rule);
  out.model = std::move(model);
  return out;
}

void to_json(nlohmann::json& out, const SlotSequenceModel& model) {
  out = {{"rules", model.rules}};
}

void from_json(const nlohmann::json& in, SlotSequenceModel& model) {
  model.rules = in.at("rules").get<std::vector<PeerRule>>();
}

void to_json(nlohmann::json& out, const SlotLayout& layout) {
  out = {{"templates", layout.templates}};
  nlohmann::json blocks = nlohmann::json::array();
  for (const SlotBlock& block : layout.blocks) {
    blocks.push_back({{"first", block.first},
                      {"period", block.period},
                      {"count", block.count},
                      {"tag_shift", block.tag_shift}});
  }
  out["blocks"] = blocks;
}

void from_json(const nlohmann::json& in, SlotLayout& layout) {
  layout.templates = in.at("templates").get<std::int64_t>();
  if (layout.templates < 0) throw std::invalid_argument("a layout has no negative templates");
  layout.blocks.clear();
  std::int64_t after_last = 0;
  for (const nlohmann::json& b : in.at("blocks")) {
    SlotBlock block{b.at("first").get<std::int64_t>(), b.at("period").get<std::int64_t>(),
                    b.at("count").get<IntegerFormula>(), b.at("tag_shift").get<IntegerFormula>()};
    if (block.first < after_last || block.period < 1 ||
        block.first + block.period > layout.templates) {
      throw std::invalid_argument("a layout's blocks lie within its templates, in order and apart");
    }
    after_last = block.first + block.period;
    layout.blocks.push_back(std::move(block));
  }
}

}  // namespace p3s::model
