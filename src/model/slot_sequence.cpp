#include "model/slot_sequence.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "model/integer_formula_fit.hpp"

namespace p3s::model {

const PeerRule& SlotSequenceModel::rule_for(std::int64_t slot) const {
  return rules.at(slot_indexed ? 0 : static_cast<std::size_t>(slot));
}

SlotSequenceInference infer_slot_sequence(std::span<const PhasePeers> runs,
                                          const PeerInferenceOptions& options) {
  if (runs.empty()) throw std::invalid_argument("no runs to infer a phase's peers from");
  SlotSequenceInference out;
  if (runs.size() < 2) {
    out.reason = "one run cannot show how the phase changes with n";
    return out;
  }
  std::vector<FormulaSample> counts;
  for (const PhasePeers& run : runs) {
    counts.push_back({run.n, 0, static_cast<std::int64_t>(run.slots.size())});
  }
  const std::optional<IntegerFormula> count = fit_integer_formula(counts, size_bases());
  if (!count) {
    std::vector<std::string> seen;
    for (const FormulaSample& c : counts) seen.push_back(fmt::format("{} at n = {}", c.value, c.n));
    out.reason = fmt::format("the number of communications ({}) follows no formula in n",
                             fmt::join(seen, "; "));
    return out;
  }

  SlotSequenceModel model{*count, !count->terms.empty(), {}};
  if (model.slot_indexed) {
    std::vector<PeerSample> samples;
    for (const PhasePeers& run : runs) {
      for (std::size_t s = 0; s < run.slots.size(); ++s) {
        samples.push_back({run.n, static_cast<std::int64_t>(s), run.slots[s]});
      }
    }
    PeerInferenceOptions indexed = options;
    indexed.slot_indexed = true;
    out.slots.push_back(infer_peer_rule(samples, indexed));
  } else {
    for (std::size_t s = 0; s < runs.front().slots.size(); ++s) {
      std::vector<PeerSample> samples;
      for (const PhasePeers& run : runs) {
        samples.push_back({run.n, static_cast<std::int64_t>(s), run.slots[s]});
      }
      out.slots.push_back(infer_peer_rule(samples, options));
    }
  }

  for (std::size_t s = 0; s < out.slots.size(); ++s) {
    const PeerRuleInference& slot = out.slots[s];
    if (!slot.modelled()) {
      out.reason = model.slot_indexed
                       ? fmt::format("the slot-indexed rule is not modelled: {}", slot.reason)
                       : fmt::format("slot {} is not modelled: {}", s, slot.reason);
      return out;
    }
    model.rules.push_back(*slot.rule);
  }
  out.model = std::move(model);
  return out;
}

void to_json(nlohmann::json& out, const SlotSequenceModel& model) {
  out = {{"slot_count", model.slot_count},
         {"slot_indexed", model.slot_indexed},
         {"rules", model.rules}};
}

void from_json(const nlohmann::json& in, SlotSequenceModel& model) {
  model.slot_count = in.at("slot_count").get<IntegerFormula>();
  model.slot_indexed = in.at("slot_indexed").get<bool>();
  model.rules = in.at("rules").get<std::vector<PeerRule>>();
  if (model.slot_indexed && model.rules.size() != 1) {
    throw std::invalid_argument("a slot-indexed phase has exactly one rule");
  }
}

}  // namespace p3s::model
