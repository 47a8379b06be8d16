#pragma once
// What `p3s calibrate` tells: each fitted parameter, the fit's quality per size segment and
// link kind (R^2, mean and largest error), the largest error and where, what was assumed or
// extrapolated, the warnings; as text, as JSON ("p3s-calibration-report 1") and as an SVG of
// measured against modelled time per size (log-log, one panel per link kind).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "calibrate/calibration.hpp"
#include "sim/platform_spec.hpp"

namespace p3s::calibrate {

struct ReportInput {
  const Calibration* calibration = nullptr;
  const Measurements* measurements = nullptr;
  const sim::PlatformSpec* platform = nullptr;
  std::string platform_file;
  std::vector<std::string> assumed;  // see calibrated_platform
};

std::string calibration_text(const ReportInput& in);
nlohmann::json calibration_json(const ReportInput& in);
std::string calibration_svg(const ReportInput& in);

}  // namespace p3s::calibrate
