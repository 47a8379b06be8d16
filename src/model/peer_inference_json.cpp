// JSON for a peer rule inference: the rule when there is one, else what was closest and where
// it failed, so that the model file names every communication it could not explain.
#include <nlohmann/json.hpp>

#include "core/json_read.hpp"
#include "model/peer_inference.hpp"

namespace p3s::model {

void to_json(nlohmann::json& out, const PeerRuleInference& inference) {
  nlohmann::json mismatches = nlohmann::json::array();
  for (const PeerMismatch& m : inference.mismatches) {
    mismatches.push_back({{"n", m.n},
                          {"slot", m.slot},
                          {"rank", m.rank},
                          {"expected", m.expected},
                          {"predicted", m.predicted}});
  }
  out = {{"modelled", inference.modelled()},
         {"rule", inference.rule ? nlohmann::json(*inference.rule) : nullptr},
         {"closest", inference.closest},
         {"reason", inference.reason},
         {"mismatch_count", inference.mismatch_count},
         {"checked_count", inference.checked_count},
         {"mismatches", std::move(mismatches)}};
}

void from_json(const nlohmann::json& in, PeerRuleInference& inference) {
  inference = PeerRuleInference{};
  if (!in.at("rule").is_null()) inference.rule = in["rule"].get<PeerRule>();
  inference.closest = in.at("closest").get<std::string>();
  inference.reason = in.at("reason").get<std::string>();
  inference.mismatch_count =
      static_cast<std::size_t>(core::json_integer(in.at("mismatch_count"), 0));
  inference.checked_count = static_cast<std::size_t>(core::json_integer(in.at("checked_count"), 0));
  for (const nlohmann::json& m : in.at("mismatches")) {
    inference.mismatches.push_back(
        {core::json_integer(m.at("n"), 1), core::json_integer(m.at("slot"), 0),
         core::json_integer(m.at("rank"), 0), core::json_integer(m.at("expected")),
         core::json_integer(m.at("predicted"))});
  }
}

}  // namespace p3s::model
