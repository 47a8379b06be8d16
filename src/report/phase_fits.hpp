#pragma once
// The SLT's fit qualities, phase by phase, for the prediction report.
#include <string>
#include <vector>

#include "model/slt.hpp"
#include "report/scaling_prediction.hpp"

namespace p3s::report {

std::vector<PhaseFit> phase_fits(const model::Slt& slt);

// The SLT's phases that are not modelled and its notes, one line each.
std::vector<std::string> not_modelled(const model::Slt& slt);

// How much of each training run the exactly modelled phases explain, one line per run.
std::vector<std::string> coverage_lines(const model::Slt& slt);

}  // namespace p3s::report
