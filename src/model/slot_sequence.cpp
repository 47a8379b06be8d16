#include "model/slot_sequence.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/checked_math.hpp"

namespace p3s::model {

std::optional<std::int64_t> SlotLayout::slots_at(std::int64_t n) const {
  if (!block) return templates;
  const std::optional<std::int64_t> count = block->count.try_at(n);
  if (!count || *count < 0) return std::nullopt;
  // Checked: the count comes from a file, and a slot count beyond 64 bits is no count.
  const std::optional<std::int64_t> repeated = core::checked_mul(*count, block->period);
  if (!repeated) return std::nullopt;
  return core::checked_add(templates - block->period, *repeated);
}

SlotLayout::Place SlotLayout::place(std::int64_t k, std::int64_t n) const {
  if (!block || k < block->first) return {k, k};
  const std::int64_t count = block->count.at(n);
  const std::int64_t in_block = k - block->first;
  if (in_block < count * block->period) {
    return {block->first + in_block % block->period, in_block / block->period};
  }
  const std::int64_t t = k - (count - 1) * block->period;
  return {t, t};
}

bool SlotLayout::in_block(std::int64_t template_index) const {
  return block && template_index >= block->first && template_index < block->first + block->period;
}

SlotSequenceInference infer_slot_sequence(std::span<const PhasePeers> runs,
                                          const SlotLayout& layout,
                                          const PeerInferenceOptions& options) {
  if (runs.empty()) throw std::invalid_argument("no runs to infer a phase's peers from");
  for (const PhasePeers& run : runs) {
    if (layout.slots_at(run.n) != static_cast<std::int64_t>(run.slots.size())) {
      throw std::invalid_argument(fmt::format(
          "the phase's layout does not give the {} slots of n = {}", run.slots.size(), run.n));
    }
  }
  SlotSequenceInference out;
  if (runs.size() < 2) {
    out.reason = "one run cannot show how the phase changes with n";
    return out;
  }
  std::vector<std::vector<PeerSample>> samples(static_cast<std::size_t>(layout.templates));
  for (const PhasePeers& run : runs) {
    for (std::size_t k = 0; k < run.slots.size(); ++k) {
      const SlotLayout::Place at = layout.place(static_cast<std::int64_t>(k), run.n);
      samples[static_cast<std::size_t>(at.template_index)].push_back({run.n, at.s, run.slots[k]});
    }
  }
  SlotSequenceModel model;
  for (std::size_t t = 0; t < samples.size(); ++t) {
    PeerInferenceOptions own = options;
    own.slot_indexed = layout.in_block(static_cast<std::int64_t>(t));
    if (samples[t].empty()) {
      out.reason = fmt::format("slot {} is used in no run", t);
      return out;
    }
    out.slots.push_back(infer_peer_rule(samples[t], own));
    const PeerRuleInference& slot = out.slots.back();
    if (!slot.modelled()) {
      out.reason = own.slot_indexed ? fmt::format("slot {} (repeated with n) is not modelled: {}",
                                                  t, slot.reason)
                                    : fmt::format("slot {} is not modelled: {}", t, slot.reason);
      return out;
    }
    model.rules.push_back(*slot.rule);
  }
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
  if (layout.block) {
    out["block"] = {{"first", layout.block->first},
                    {"period", layout.block->period},
                    {"count", layout.block->count}};
  } else {
    out["block"] = nullptr;
  }
}

void from_json(const nlohmann::json& in, SlotLayout& layout) {
  layout.templates = in.at("templates").get<std::int64_t>();
  if (layout.templates < 0) throw std::invalid_argument("a layout has no negative templates");
  layout.block.reset();
  if (!in.at("block").is_null()) {
    const nlohmann::json& b = in.at("block");
    SlotBlock block{b.at("first").get<std::int64_t>(), b.at("period").get<std::int64_t>(),
                    b.at("count").get<IntegerFormula>()};
    if (block.first < 0 || block.period < 1 || block.first + block.period > layout.templates) {
      throw std::invalid_argument("a layout's block lies within its templates");
    }
    layout.block = block;
  }
}

}  // namespace p3s::model
