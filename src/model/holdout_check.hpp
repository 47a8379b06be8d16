#pragma once
// The validation report of `p3s model --holdout`: the SLT instantiated at the hold-out run's n
// and compared with what that run did, phase by phase: whether every rank's calls and peers
// are exact, and the errors of volume, weight and compute in %.
#include <string>

#include "model/logical_phases.hpp"
#include "model/slt.hpp"

namespace p3s::model {

std::string holdout_report(const Slt& slt, const LogicalRun& holdout);

}  // namespace p3s::model
