#pragma once
// The scaling curve as an SVG picture: predicted PET against N beside the speedup against N,
// with the traced runs' measured points and the ideal speedup, on log axes.
#include <string>

#include "report/scaling_prediction.hpp"

namespace p3s::report {

std::string scaling_plot_svg(const ScalingPrediction& prediction);

}  // namespace p3s::report
