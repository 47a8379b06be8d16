#include "sim/simulate.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "core/process_pool.hpp"
#include "sim/simgrid_session.hpp"

namespace p3s::sim {
namespace {

void check(const core::ScaledTrace& trace, const SimOptions& o) {
  if (trace.nprocs() < 1) throw std::invalid_argument("the trace has no ranks");
  if (!std::filesystem::is_regular_file(o.platform)) {
    throw std::invalid_argument("no platform file " + o.platform.string());
  }
  if (o.ranks_per_host < 1) throw std::invalid_argument("ranks per host must be at least 1");
  if (o.measured_repetitions < 1) throw std::invalid_argument("measure at least one repetition");
  if (!(o.cpu_speedup > 0) || !std::isfinite(o.cpu_speedup)) {
    throw std::invalid_argument("the CPU speedup must be a positive number");
  }
  if (o.eager_threshold && *o.eager_threshold < 0)
    throw std::invalid_argument("the eager threshold cannot be negative");
  for (const std::string& a : o.simgrid_args) {
    if (a.rfind("--cfg=", 0) != 0 && a.rfind("--log=", 0) != 0) {
      throw std::invalid_argument("SimGrid argument '" + a +
                                  "' is neither --cfg=... nor --log=...");
    }
  }
}

struct SessionRun {
  SessionOutput output;
  std::int64_t peak_rss_kib = 0;
};

// One SimGrid session in a child process of its own: its result as text, the child's peak
// memory in front ("KIB OUTPUT"), as a task of run_in_processes hands it back.
std::string run_forked(const core::ScaledTrace& trace, const SimOptions& options,
                       const core::SessionPlan& plan) {
  const core::ChildOutput child =
      core::run_in_child([&] { return run_session(trace, options, plan).encode(); },
                         "the simulation process", "see SimGrid's messages above");
  return std::to_string(child.peak_rss_kib) + " " + child.result;
}

SessionRun session_run_of(const std::string& text) {
  const std::size_t space = text.find(' ');
  return {SessionOutput::decode(text.substr(space + 1)), std::stoll(text.substr(0, space))};
}

// Every phase on its own (a warm-up repetition, then the measured ones), options.phase_jobs
// side by side; by phase.
std::vector<SessionRun> run_phases(const core::ScaledTrace& trace, const SimOptions& options) {
  const std::vector<core::ScaledPhase>& phases = trace.phases();
  const std::vector<std::string> texts =
      core::run_in_processes(phases.size(), options.phase_jobs, [&](std::size_t p) {
        if (options.progress) {
          options.progress(fmt::format("phase {}/{} ({}): {} ranks, 1 warm-up + {} measured", p + 1,
                                       phases.size(), phases[p].name, trace.nprocs(),
                                       options.measured_repetitions));
        }
        return run_forked(trace, options,
                          core::phase_plan(static_cast<int>(p), options.measured_repetitions));
      });
  std::vector<SessionRun> runs(texts.size());
  std::transform(texts.begin(), texts.end(), runs.begin(), session_run_of);
  return runs;
}

void account(SimResult& result, const SessionRun& run) {
  result.cost.events += run.output.events;
  result.cost.engine_seconds += run.output.engine_seconds;
  result.cost.peak_rss_kib = std::max(result.cost.peak_rss_kib, run.peak_rss_kib);
}

}  // namespace

SimResult simulate(const core::ScaledTrace& trace, const SimOptions& options) {
  check(trace, options);
  SimResult result;
  result.nprocs = trace.nprocs();
  result.mode = options.mode;
  result.engine = options.engine;
  result.platform = options.platform.string();
  result.ranks_per_host = options.ranks_per_host;
  result.mapping = options.mapping;
  result.cpu_speedup = options.cpu_speedup;
  const auto started = std::chrono::steady_clock::now();
  const std::vector<core::ScaledPhase>& phases = trace.phases();

  if (options.mode == SimMode::PerPhase) {
    result.measured_repetitions = options.measured_repetitions;
    const std::vector<SessionRun> runs = run_phases(trace, options);
    for (std::size_t p = 0; p < phases.size(); ++p) {
      const SessionRun& run = runs[p];
      account(result, run);
      std::vector<double> per_rank(run.output.end.size());
      for (std::size_t r = 0; r < per_rank.size(); ++r) {
        per_rank[r] =
            (run.output.end[r] - run.output.measure_start[r]) / options.measured_repetitions;
      }
      PhaseTime t;
      t.name = phases[p].name;
      t.weight = phases[p].weight;
      t.per_rank = core::spread_of(per_rank);
      t.phase_et = t.per_rank.max;
      const double first =
          *std::max_element(run.output.measure_start.begin(), run.output.measure_start.end()) -
          *std::min_element(run.output.first_start.begin(), run.output.first_start.end());
      t.fill = t.weight >= 1 ? std::max(0.0, first - t.phase_et) : 0.0;
      result.pet += t.phase_et * t.weight + t.fill;
      result.phases.push_back(t);
    }
  } else {
    const core::SessionPlan plan = core::full_plan(trace);
    if (options.progress) {
      options.progress(fmt::format("full run: {} ranks, {} phases with their weights",
                                   trace.nprocs(), phases.size()));
    }
    const SessionRun run = session_run_of(run_forked(trace, options, plan));
    account(result, run);
    result.rank_end = core::spread_of(run.output.end);
    // The run starts when measuring starts on the last rank to get there (after communicator
    // creation, if any).
    const double start =
        *std::max_element(run.output.measure_start.begin(), run.output.measure_start.end());
    result.pet = result.rank_end.max - start;
  }

  result.cost.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  result.cost.events_per_second =
      result.cost.wall_seconds > 0
          ? static_cast<double>(result.cost.events) / result.cost.wall_seconds
          : 0;
  return result;
}

}  // namespace p3s::sim
