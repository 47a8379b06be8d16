#include "cli/model_inputs.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "cli/commands.hpp"
#include "model/logical_phases.hpp"
#include "model/slt_builder.hpp"
#include "signature/reference_cut.hpp"
#include "signature/run_analysis.hpp"

namespace p3s::cli {

namespace {

signature::AnalysisOptions model_analysis() {
  signature::AnalysisOptions options;
  options.phases.threshold = 0;
  // Ranks a failing job cut short are read as such: whether an incomplete run may be modelled
  // is build_model's one decision (--allow-incomplete), whichever rank's file stopped first.
  options.read.allow_truncated = true;
  return options;
}

// The run's phases as the model relates them: cut like the reference run (the largest
// training run) where every rank reads like it, so that a phase is the same stretch of the
// program at every n; else its own cut, with a note saying why.
model::LogicalRun logical_run_like(const signature::Signature& sig,
                                   const signature::ReferenceCut& reference,
                                   std::vector<std::string>& notes) {
  if (sig.run_dir == reference.run) return model::logical_phases(sig);
  signature::AnalysisOptions options = model_analysis();
  options.phases.reference = &reference;
  try {
    return model::logical_phases(signature::analyse_run(sig.run_dir, options));
  } catch (const signature::ReferenceCutMismatch& e) {
    notes.push_back(fmt::format("{} (n = {}) keeps its own phases: it does not read like the run "
                                "at n = {}: {}",
                                sig.run_dir, sig.run.nprocs, reference.n, e.what()));
    return model::logical_phases(sig);
  }
}

}  // namespace

signature::Signature signature_of(const std::string& run) {
  return signature::analyse_run(run, model_analysis());
}

namespace {

// A run whose ranks did not all reach MPI_Finalize: why, in words, or nothing when complete.
std::optional<std::string> incompleteness(const signature::Signature& sig) {
  std::vector<std::string> ends;
  for (const signature::RankPhases& r : sig.ranks) {
    if (r.end != core::TraceEnd::Complete && ends.size() < 4) {
      ends.push_back(fmt::format("rank {} {}", r.rank,
                                 r.end == core::TraceEnd::Aborted     ? "aborted"
                                 : r.end == core::TraceEnd::Signalled ? "was killed by a signal"
                                                                      : "was cut short"));
    }
  }
  if (sig.run.complete && ends.empty()) return std::nullopt;
  return fmt::format("{} is incomplete ({}; exit status {})", sig.run_dir,
                     ends.empty() ? "run.json says so" : fmt::format("{}", fmt::join(ends, ", ")),
                     sig.run.exit_code);
}

}  // namespace

model::BuiltSlt build_model(const ModelRequest& request) {
  std::vector<const signature::Signature*> all;
  for (const signature::Signature& sig : request.training) all.push_back(&sig);
  for (const signature::Signature& sig : request.measurable) all.push_back(&sig);
  if (request.holdout) all.push_back(&*request.holdout);
  for (const signature::Signature* sig : all) {
    const std::optional<std::string> why = incompleteness(*sig);
    if (!why) continue;
    if (!request.allow_incomplete) {
      throw UsageError(*why +
                       ": its phases and weights stop where it stopped; trace it again, or give "
                       "--allow-incomplete to model it anyway");
    }
    fmt::print(stderr, "WARNING: {}: modelled anyway (--allow-incomplete)\n", *why);
  }
  model::SltInputs inputs;
  std::vector<std::string> notes;
  if (!request.training.empty()) {
    const auto largest = std::max_element(
        request.training.begin(), request.training.end(),
        [](const auto& a, const auto& b) { return a.run.nprocs < b.run.nprocs; });
    const signature::ReferenceCut reference = signature::reference_cut_of(*largest);
    for (const signature::Signature& sig : request.training) {
      inputs.runs.push_back(logical_run_like(sig, reference, notes));
    }
    for (const signature::Signature& sig : request.measurable) {
      inputs.measurable.push_back(logical_run_like(sig, reference, notes));
    }
    if (request.holdout) inputs.holdout = logical_run_like(*request.holdout, reference, notes);
  }
  inputs.threshold = request.threshold;
  inputs.scaling = request.scaling;
  model::BuiltSlt built;
  try {
    built = model::build_slt(inputs);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  built.slt.notes.insert(built.slt.notes.end(), notes.begin(), notes.end());
  if (!request.training.empty()) {
    for (const std::string& word : request.training.front().run.command) {
      built.slt.application += (built.slt.application.empty() ? "" : " ") + word;
    }
  }
  if (request.holdout) built.slt.holdout_n = request.holdout->run.nprocs;
  return built;
}

std::string coverage_text(const model::Slt& slt, double minimum) {
  std::string out = "coverage (share of each training run's time in exactly modelled phases):\n";
  for (const model::RunCoverage& c : slt.coverage) {
    const bool short_of = c.modelled < minimum;
    out += fmt::format("  n = {:<6} {:6.1f} %  {}{}\n", c.n, 100 * c.modelled, c.run,
                       short_of ? "   BELOW " + fmt::format("{:.0f} %", 100 * minimum) : "");
    if (!short_of) continue;
    for (const model::RunCoverage::Missing& m : c.missing) {
      out += fmt::format("      {:5.1f} %  {}: {}\n", 100 * m.share, m.phase, m.why);
    }
  }
  return out;
}

std::unique_ptr<model::SltScaledTrace> instantiate(const model::Slt& slt, int nprocs,
                                                   const model::InstantiateOptions& options,
                                                   std::string_view command) {
  std::unique_ptr<model::SltScaledTrace> trace;
  try {
    trace = std::make_unique<model::SltScaledTrace>(slt, nprocs, options);
  } catch (const std::domain_error& e) {
    fmt::print(stderr, "p3s {}: refused: {} (--partial leaves out what cannot be instantiated)\n",
               command, e.what());
    return nullptr;
  }
  for (const std::string& w : trace->warnings()) fmt::print(stderr, "WARNING: {}\n", w);
  double left_out = 0;
  for (const model::OmittedPhase& o : trace->omitted()) {
    double share = 0;
    for (const model::PhaseModel& p : slt.phases) {
      if (p.name == o.name && !p.runs_n.empty() && p.runs_n.back() == slt.runs.back()) {
        share = p.shares.back();
      }
    }
    left_out += share;
    fmt::print(stderr, "WARNING: LEFT OUT {} ({:.1f} % of the largest training run): {}\n", o.name,
               100 * share, o.reason);
  }
  if (!trace->omitted().empty()) {
    fmt::print(stderr,
               "WARNING: the ST4NP at N = {} leaves out {} phase(s), {:.1f} % of the largest "
               "training run's time\n",
               nprocs, trace->omitted().size(), 100 * left_out);
  }
  return trace;
}

}  // namespace p3s::cli
