// JSON for a peer rule inference: the rule when there is one, else what was closest and where
// it failed, so that the model file names every communication it could not explain.
#include <nlohmann/json.hpp>

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
  inference.mismatch_count = in.at("mismatch_count").get<std::size_t>();
  inference.checked_count = in.at("checked_count").get<std::size_t>();
  for (const nlohmann::json& m : in.at("mismatches")) {
    inference.mismatches.push_back({m.at("n").get<std::int64_t>(), m.at("slot").get<std::int64_t>(),
                                    m.at("rank").get<std::int64_t>(),
                                    m.at("expected").get<std::int64_t>(),
                                    m.at("predicted").get<std::int64_t>()});
  }
}

}  // namespace p3s::model
