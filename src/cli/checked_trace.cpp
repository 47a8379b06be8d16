#include "cli/checked_trace.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "model/trace_consistency.hpp"

namespace p3s::cli {

std::unique_ptr<model::SltScaledTrace> checked_trace(
    const model::Slt& slt, std::int64_t n, bool carry_nearest, std::vector<std::string>& warnings,
    const std::function<void(const std::string&)>& progress) {
  std::unique_ptr<model::SltScaledTrace> trace;
  try {
    trace = std::make_unique<model::SltScaledTrace>(
        slt, static_cast<int>(n),
        model::InstantiateOptions{.carry_nearest = carry_nearest, .omit_unavailable = true});
  } catch (const std::domain_error& e) {
    warnings.push_back(fmt::format("N = {} not predicted: {}", n, e.what()));
    progress(fmt::format("refused: {}", e.what()));
    return nullptr;
  }
  for (const std::string& w : trace->warnings())
    warnings.push_back(fmt::format("N = {}: {}", n, w));
  if (trace->phases().empty()) {
    warnings.push_back(
        fmt::format("N = {} not predicted: no phase of the model can be instantiated there", n));
    progress("refused: no phase can be instantiated");
    return nullptr;
  }
  progress("generating and checking the ST4NP");
  const model::ConsistencyReport consistency = model::check_consistency(*trace);
  if (!consistency.consistent()) {
    warnings.push_back(fmt::format("N = {} not predicted: the ST4NP is inconsistent ({})", n,
                                   consistency.problems.front()));
    progress(fmt::format("INCONSISTENT: {}", consistency.problems.front()));
    return nullptr;
  }
  return trace;
}

std::optional<std::string> unusable_pet(const sim::SimResult& result,
                                        const model::SltScaledTrace& trace) {
  if (result.pet > 0 && std::isfinite(result.pet)) return std::nullopt;
  std::vector<double> weights;
  for (const core::ScaledPhase& p : trace.phases()) weights.push_back(p.weight);
  return fmt::format(
      "N = {} not predicted: the simulation gives PET = {} (the phases' weights at N: {})",
      trace.nprocs(), result.pet, fmt::join(weights, ", "));
}

}  // namespace p3s::cli
