#include "predict/build_model.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "core/request_error.hpp"
#include "model/logical_phases.hpp"
#include "model/model_runs.hpp"
#include "model/slt_builder.hpp"
#include "signature/run_analysis.hpp"

namespace p3s::predict {

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

// A command word with every run of digits as '#': what stays when only numbers change (the
// process count, a process grid given as arguments, a log file named after its run).
std::string word_shape(const std::string& word) {
  std::string shape;
  for (char c : word) {
    const bool digit = c >= '0' && c <= '9';
    if (!digit) {
      shape += c;
    } else if (shape.empty() || shape.back() != '#') {
      shape += '#';
    }
  }
  return shape;
}

// Whether two traced runs ran one program: their commands word for word the same but for
// numbers. Runs imported from SimGrid name only their trace.
bool same_program(const signature::Signature& a, const signature::Signature& b) {
  if (a.run.source != "p3s-trace" || b.run.source != "p3s-trace") return true;
  const std::vector<std::string>& x = a.run.command;
  const std::vector<std::string>& y = b.run.command;
  return std::equal(
      x.begin(), x.end(), y.begin(), y.end(),
      [](const std::string& u, const std::string& v) { return word_shape(u) == word_shape(v); });
}

// Runs that are not one program cannot be one model: the same run directory given twice, or
// training and hold-out runs of different commands (another executable, another input file,
// other options; numbers may differ). Measurable runs are only checked for the directory.
void check_runs_belong_together(const ModelRequest& request) {
  std::vector<const signature::Signature*> all;
  for (const signature::Signature& sig : request.training) all.push_back(&sig);
  if (request.holdout) all.push_back(&*request.holdout);
  const std::size_t compared = all.size();
  for (const signature::Signature& sig : request.measurable) all.push_back(&sig);
  std::vector<std::filesystem::path> seen;
  for (const signature::Signature* sig : all) {
    std::error_code ec;
    std::filesystem::path dir = std::filesystem::weakly_canonical(sig->run_dir, ec);
    if (ec) dir = sig->run_dir;
    if (std::find(seen.begin(), seen.end(), dir) != seen.end()) {
      throw core::RequestError(
          fmt::format("{} is given twice: each run counts once", sig->run_dir));
    }
    seen.push_back(dir);
  }
  for (std::size_t i = 1; i < compared; ++i) {
    const signature::Signature* first = all.front();
    if (!same_program(*first, *all[i])) {
      throw core::RequestError(fmt::format(
          "the runs are not one program: {} ran `{}`, {} ran `{}` (their commands may differ in "
          "numbers only: the process count, a grid, a size; runs of a smaller workload go after "
          "--measurable)",
          first->run_dir, fmt::join(first->run.command, " "), all[i]->run_dir,
          fmt::join(all[i]->run.command, " ")));
    }
  }
}

}  // namespace

model::BuiltSlt build_model(const ModelRequest& request) {
  check_runs_belong_together(request);
  std::vector<const signature::Signature*> all;
  for (const signature::Signature& sig : request.training) all.push_back(&sig);
  for (const signature::Signature& sig : request.measurable) all.push_back(&sig);
  if (request.holdout) all.push_back(&*request.holdout);
  for (const signature::Signature* sig : all) {
    const std::optional<std::string> why = incompleteness(*sig);
    if (!why) continue;
    if (!request.allow_incomplete) {
      throw core::RequestError(
          *why +
          ": its phases and weights stop where it stopped; trace it again, or give "
          "--allow-incomplete to model it anyway");
    }
    if (request.warning) request.warning(*why + ": modelled anyway (--allow-incomplete)");
  }
  model::RunsForModel runs =
      model::runs_for_model(request.training, request.measurable, request.holdout);
  model::SltInputs inputs;
  inputs.runs = std::move(runs.training);
  inputs.measurable = std::move(runs.measurable);
  inputs.holdout = std::move(runs.holdout);
  inputs.threshold = request.threshold;
  inputs.scaling = request.scaling;
  model::BuiltSlt built;
  try {
    built = model::build_slt(inputs);
  } catch (const std::invalid_argument& e) {
    throw core::RequestError(e.what());
  }
  built.slt.notes.insert(built.slt.notes.end(), runs.notes.begin(), runs.notes.end());
  if (!request.training.empty()) {
    for (const std::string& word : request.training.front().run.command) {
      built.slt.application += (built.slt.application.empty() ? "" : " ") + word;
    }
  }
  if (request.holdout) built.slt.holdout_n = request.holdout->run.nprocs;
  return built;
}

}  // namespace p3s::predict
