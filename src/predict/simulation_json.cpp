#include "predict/simulation_json.hpp"

namespace p3s::predict {

nlohmann::json simulation_json(const sim::SimResult& result, const std::string& slt,
                               const std::vector<std::string>& warnings) {
  nlohmann::json j = sim::to_json(result);
  j["slt"] = slt;
  j["warnings"] = warnings;
  return j;
}

}  // namespace p3s::predict
