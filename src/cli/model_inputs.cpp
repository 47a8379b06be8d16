#include "cli/model_inputs.hpp"

#include <fmt/core.h>

#include <filesystem>
#include <stdexcept>

#include "cli/commands.hpp"
#include "model/logical_phases.hpp"
#include "model/slt_builder.hpp"
#include "signature/run_analysis.hpp"
#include "signature/signature_json.hpp"

namespace p3s::cli {

signature::Signature signature_of(const std::string& run) {
  const std::filesystem::path file = std::filesystem::path(run) / signature::kSignatureFile;
  if (std::filesystem::exists(file)) {
    signature::Signature sig = signature::read_signature(file);
    if (sig.threshold == 0) return sig;
  }
  signature::AnalysisOptions options;
  options.phases.threshold = 0;
  return signature::analyse_run(run, options);
}

model::Slt build_model(const std::vector<signature::Signature>& training,
                       const std::vector<signature::Signature>& measurable, double threshold) {
  std::vector<model::LogicalRun> logical;
  for (const signature::Signature& sig : training) logical.push_back(model::logical_phases(sig));
  std::vector<model::LogicalRun> points;
  for (const signature::Signature& sig : measurable) points.push_back(model::logical_phases(sig));
  model::Slt slt;
  try {
    slt = model::build_slt(logical, points, threshold);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  if (!training.empty()) {
    for (const std::string& word : training.front().run.command) {
      slt.application += (slt.application.empty() ? "" : " ") + word;
    }
  }
  return slt;
}

std::unique_ptr<model::SltScaledTrace> instantiate(const model::Slt& slt, int nprocs,
                                                   bool carry_nearest, std::string_view command) {
  std::unique_ptr<model::SltScaledTrace> trace;
  try {
    trace = std::make_unique<model::SltScaledTrace>(
        slt, nprocs, model::InstantiateOptions{.carry_nearest = carry_nearest});
  } catch (const std::domain_error& e) {
    fmt::print(stderr, "p3s {}: refused: {}\n", command, e.what());
    return nullptr;
  }
  for (const std::string& w : trace->warnings()) fmt::print(stderr, "WARNING: {}\n", w);
  return trace;
}

}  // namespace p3s::cli
