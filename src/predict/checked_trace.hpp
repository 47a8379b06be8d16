#pragma once
// The SLT at one N made ready to simulate, as `p3s predict` and `p3s whatif` do it: the phases
// that cannot be instantiated there left out (named), the ST4NP checked for consistency, and a
// simulation's PET checked before it stands as a prediction.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "generate/instantiation.hpp"
#include "model/slt.hpp"
#include "model/slt_scaled_trace.hpp"
#include "sim/sim_result.hpp"

namespace p3s::predict {

// The SLT at N under `policy` (generate/instantiation.hpp), checked for consistency. When N
// cannot be predicted (refused under the policy, an inconsistent ST4NP), returns nothing and
// appends "N = .. not predicted: why" to `warnings`. What was carried instead of modelled, and
// what was left out with its share, is appended as "N = ..: ...". `progress` hears each step.
std::unique_ptr<model::SltScaledTrace> checked_trace(
    const model::Slt& slt, std::int64_t n, const generate::Policy& policy,
    std::vector<std::string>& warnings, const std::function<void(const std::string&)>& progress);

// Why `result` cannot stand as the prediction at N (a PET that is no positive number), as
// "N = .. not predicted: ...", or nothing.
std::optional<std::string> unusable_pet(const sim::SimResult& result,
                                        const model::SltScaledTrace& trace);

}  // namespace p3s::predict
