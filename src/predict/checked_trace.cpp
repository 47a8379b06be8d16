#include "predict/checked_trace.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "model/trace_consistency.hpp"

namespace p3s::predict {

std::unique_ptr<model::SltScaledTrace> checked_trace(
    const model::Slt& slt, std::int64_t n, const generate::Policy& policy,
    std::vector<std::string>& warnings, const std::function<void(const std::string&)>& progress) {
  generate::Instantiation inst;
  try {
    inst = generate::instantiate(slt, n, policy);
  } catch (const generate::Refusal& e) {
    warnings.push_back(fmt::format("N = {} not predicted: {}", n, e.what()));
    progress(fmt::format("refused: {}", e.what()));
    return nullptr;
  }
  for (const std::string& w : inst.warnings) warnings.push_back(fmt::format("N = {}: {}", n, w));
  for (const generate::LeftOut& l : inst.left_out) {
    warnings.push_back(fmt::format("N = {}: {} {} ({:.1f} % of the largest training run): {}", n,
                                   l.relevant ? "LEFT OUT" : "left out (too small to model)",
                                   l.what, 100 * l.share, l.why));
  }
  std::unique_ptr<model::SltScaledTrace> trace = std::move(inst.trace);
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

}  // namespace p3s::predict
