#pragma once
// A scaling prediction as files: a table a person reads, CSV and JSON a program reads.
#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "report/scaling_prediction.hpp"

namespace p3s::report {

std::string prediction_table(const ScalingPrediction& prediction);
std::string prediction_csv(const ScalingPrediction& prediction);
nlohmann::json prediction_json(const ScalingPrediction& prediction);  // "p3s-prediction 1"

// Writes `text` to `file`; throws std::runtime_error naming the file when it cannot.
void write_text(const std::filesystem::path& file, const std::string& text);

}  // namespace p3s::report
