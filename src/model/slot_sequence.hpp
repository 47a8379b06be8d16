#pragma once
// All the communication slots of one phase together. Usually a phase has the same slots at
// every n and each slot gets its own rule; in some (a butterfly, CG's exchanges) the number of
// slots grows with n, and then the count is a formula in n and one rule, whose parameters may
// use the slot index s, covers every slot (002 sec. 4.2, fig. 7).
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/integer_formula.hpp"
#include "model/peer_inference.hpp"
#include "model/peer_rule.hpp"

namespace p3s::model {

// One phase in one run: slots[s][r] is rank r's peer in the phase's s-th communication, with
// border ranks already padded with kNoPeer (001 sec. 3.2.1) so every rank has every slot.
struct PhasePeers {
  std::int64_t n = 0;
  std::vector<std::vector<std::int64_t>> slots;
};

struct SlotSequenceModel {
  IntegerFormula slot_count;
  bool slot_indexed = false;    // one rule for every slot, evaluated with s = the slot index
  std::vector<PeerRule> rules;  // a fixed count: one per slot; slot-indexed: exactly one

  const PeerRule& rule_for(std::int64_t slot) const;
  bool operator==(const SlotSequenceModel&) const = default;
};

struct SlotSequenceInference {
  std::optional<SlotSequenceModel> model;  // set when the count and every slot are modelled
  // One report per rule looked for (per slot, or the one slot-indexed rule); empty when the
  // slot count itself follows no formula.
  std::vector<PeerRuleInference> slots;
  std::string reason;  // why it is not modelled, in one line

  bool modelled() const { return model.has_value(); }
};

// Throws std::invalid_argument on no runs or a malformed one (see infer_peer_rule).
SlotSequenceInference infer_slot_sequence(std::span<const PhasePeers> runs,
                                          const PeerInferenceOptions& options = {});

void to_json(nlohmann::json& out, const SlotSequenceModel& model);
void from_json(const nlohmann::json& in, SlotSequenceModel& model);

}  // namespace p3s::model
