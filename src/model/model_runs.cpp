#include "model/model_runs.hpp"

#include <fmt/core.h>

#include <algorithm>

#include "signature/reference_cut.hpp"
#include "signature/run_analysis.hpp"

namespace p3s::model {
namespace {

LogicalRun cut_like(const signature::Signature& sig, const signature::ReferenceCut& reference,
                    std::vector<std::string>& notes) {
  if (sig.run_dir == reference.run) return logical_phases(sig);
  signature::AnalysisOptions options;
  options.phases.threshold = 0;
  options.phases.reference = &reference;
  options.read.allow_truncated = true;
  try {
    return logical_phases(signature::analyse_run(sig.run_dir, options));
  } catch (const signature::ReferenceCutMismatch& e) {
    notes.push_back(
        fmt::format("{} (n = {}) keeps its own phases: it does not read like the run "
                    "at n = {}: {}",
                    sig.run_dir, sig.run.nprocs, reference.n, e.what()));
    return logical_phases(sig);
  }
}

LogicalRun run_like(const signature::Signature& sig, const signature::ReferenceCut& reference,
                    std::vector<std::string>& notes) {
  LogicalRun run = cut_like(sig, reference, notes);
  if (run.untimed) {
    notes.push_back(fmt::format(
        "{} (n = {}) has no time (a communication-only trace, as SMPI writes with "
        "smpi/simulate-computation:no): its phases' shares are shares of its calls, and it says "
        "nothing of compute",
        sig.run_dir, sig.run.nprocs));
  }
  return run;
}

}  // namespace

RunsForModel runs_for_model(const std::vector<signature::Signature>& training,
                            const std::vector<signature::Signature>& measurable,
                            const std::optional<signature::Signature>& holdout) {
  RunsForModel out;
  if (training.empty()) return out;
  const auto largest =
      std::max_element(training.begin(), training.end(),
                       [](const auto& a, const auto& b) { return a.run.nprocs < b.run.nprocs; });
  const signature::ReferenceCut reference = signature::reference_cut_of(*largest);
  for (const signature::Signature& sig : training) {
    out.training.push_back(run_like(sig, reference, out.notes));
  }
  for (const signature::Signature& sig : measurable) {
    out.measurable.push_back(run_like(sig, reference, out.notes));
  }
  if (holdout) out.holdout = run_like(*holdout, reference, out.notes);
  return out;
}

}  // namespace p3s::model
