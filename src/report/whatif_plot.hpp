#pragma once
// The what-if picture: the predicted PET against N, one curve per platform variant, on log
// axes.
#include <string>

#include "report/whatif_report.hpp"

namespace p3s::report {

// "" when nothing was predicted.
std::string whatif_plot_svg(const WhatifPrediction& prediction);

}  // namespace p3s::report
