#include "signature/run_analysis.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <map>
#include <mutex>
#include <thread>

#include "core/format_error.hpp"
#include "core/run_dir.hpp"
#include "signature/phase_relation.hpp"

namespace p3s::signature {
namespace {

// The reason part of a FormatError's message, without the "FILE:LINE: " it starts with.
std::string reason_of(const core::FormatError& e) {
  std::string where = e.file();
  if (e.line() != 0) where += ":" + std::to_string(e.line());
  where += ": ";
  std::string message = e.what();
  return message.starts_with(where) ? message.substr(where.size()) : message;
}

bool all_count_instructions(const Signature& sig) {
  return !sig.ranks.empty() && std::all_of(sig.ranks.begin(), sig.ranks.end(),
                                           [](const RankPhases& r) { return r.instructions; });
}

}  // namespace

Signature analyse_run(const std::filesystem::path& run_dir, const AnalysisOptions& options) {
  Signature sig;
  sig.run_dir = run_dir.string();
  sig.run = core::read_run_info(run_dir);
  sig.threshold = options.phases.threshold;
  sig.size_tolerance = options.phases.size_tolerance;
  core::check_rank_files(run_dir, sig.run.nprocs);
  sig.ranks.resize(sig.run.nprocs);

  // Ranks are handed out in increasing order; after a failure the workers stop taking new
  // ones, and the lowest failing rank is the one reported, so errors do not depend on timing.
  std::atomic<int> next_rank{0};
  std::atomic<bool> failed{false};
  std::mutex errors_mutex;
  std::map<int, std::exception_ptr> errors;
  auto work = [&] {
    for (int rank = next_rank++; rank < sig.run.nprocs && !failed; rank = next_rank++) {
      try {
        const core::RankTrace trace = core::read_run_rank(run_dir, sig.run, rank, options.read);
        sig.ranks[rank] = detect_phases(trace, options.phases);
      } catch (const core::FormatError& e) {
        std::lock_guard lock(errors_mutex);
        errors[rank] = std::make_exception_ptr(core::FormatError(
            e.file(), e.line(), "rank " + std::to_string(rank) + ": " + reason_of(e)));
        failed = true;
      } catch (...) {
        std::lock_guard lock(errors_mutex);
        errors[rank] = std::current_exception();
        failed = true;
      }
    }
  };
  std::vector<std::thread> workers;
  for (int w = 1; w < std::min(std::max(1, options.workers), sig.run.nprocs); ++w) {
    workers.emplace_back(work);
  }
  work();
  for (std::thread& t : workers) t.join();
  if (!errors.empty()) std::rethrow_exception(errors.begin()->second);

  sig.compute = all_count_instructions(sig) ? ComputeMetric::Instructions : ComputeMetric::CpuTime;
  relate_phases(sig);
  return sig;
}

}  // namespace p3s::signature
