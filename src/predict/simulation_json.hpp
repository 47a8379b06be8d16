#pragma once
// A simulation's result as the file `p3s simulate --json`, `p3s predict` (sim-N.json) and
// `p3s whatif` (sim-vK-N.json) write: "p3s-simulation 1".
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/sim_result.hpp"

namespace p3s::predict {

// The result with the model simulated (`slt`, its file) and what was carried instead of
// modelled (`warnings`).
nlohmann::json simulation_json(const sim::SimResult& result, const std::string& slt,
                               const std::vector<std::string>& warnings);

}  // namespace p3s::predict
