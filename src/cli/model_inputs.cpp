#include "cli/model_inputs.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <filesystem>
#include <stdexcept>

#include "cli/commands.hpp"
#include "model/logical_phases.hpp"
#include "model/slt_builder.hpp"
#include "signature/run_analysis.hpp"

namespace p3s::cli {

signature::Signature signature_of(const std::string& run) {
  signature::AnalysisOptions options;
  options.phases.threshold = 0;
  // Ranks a failing job cut short are read as such: whether an incomplete run may be modelled
  // is build_model's one decision (--allow-incomplete), whichever rank's file stopped first.
  options.read.allow_truncated = true;
  return signature::analyse_run(run, options);
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
  for (const signature::Signature& sig : request.training) {
    inputs.runs.push_back(model::logical_phases(sig));
  }
  for (const signature::Signature& sig : request.measurable) {
    inputs.measurable.push_back(model::logical_phases(sig));
  }
  if (request.holdout) inputs.holdout = model::logical_phases(*request.holdout);
  inputs.threshold = request.threshold;
  inputs.scaling = request.scaling;
  model::BuiltSlt built;
  try {
    built = model::build_slt(inputs);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
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
