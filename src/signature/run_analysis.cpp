#include "signature/run_analysis.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <map>
#include <mutex>
#include <numeric>
#include <set>
#include <thread>

#include "core/format_error.hpp"
#include "core/run_dir.hpp"
#include "signature/phase_relation.hpp"
#include "signature/reference_cut.hpp"

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

// Runs `analyse(rank)` for every rank of `ranks` on `workers` threads. Ranks are handed out
// in increasing order; after a failure the workers stop taking new ones, and the lowest failing
// rank is the one reported, so errors do not depend on timing.
template <class Analyse>
void for_each_rank(const std::vector<int>& ranks, int workers, Analyse analyse) {
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex errors_mutex;
  std::map<int, std::exception_ptr> errors;
  auto work = [&] {
    for (std::size_t k = next++; k < ranks.size() && !failed; k = next++) {
      const int rank = ranks[k];
      try {
        analyse(rank);
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
  std::vector<std::thread> threads;
  const int count = static_cast<int>(ranks.size());
  for (int w = 1; w < std::min(std::max(1, workers), count); ++w) threads.emplace_back(work);
  work();
  for (std::thread& t : threads) t.join();
  if (!errors.empty()) std::rethrow_exception(errors.begin()->second);
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

  // Whether a short loop is a phase of its own may rest on its share of a rank's time, which
  // differs from rank to rank (the ranks that wait for the one writing output). A rank's phases
  // must be the same code on every rank, so the run decides once: a loop one rank cuts out for
  // its time is cut out on every rank, and the ranks that left it in their one-off stretches
  // are analysed again with that decision.
  std::vector<ExtractionRecord> records(sig.ranks.size());
  auto analyse = [&](int rank, const PhaseOptions& phases, ExtractionRecord* record) {
    const core::RankTrace trace = core::read_run_rank(run_dir, sig.run, rank, options.read);
    sig.ranks[rank] = detect_phases(trace, phases, record);
  };
  std::vector<int> ranks(sig.ranks.size());
  std::iota(ranks.begin(), ranks.end(), 0);
  if (options.phases.reference) {
    for_each_rank(ranks, options.workers,
                  [&](int rank) { analyse(rank, options.phases, nullptr); });
    sig.compute =
        all_count_instructions(sig) ? ComputeMetric::Instructions : ComputeMetric::CpuTime;
    sig.cut_like_run = options.phases.reference->run;
    sig.cut_like_n = options.phases.reference->n;
    adopt_reference_phases(sig, options.phases.reference->phases.size());
    return sig;
  }
  for_each_rank(ranks, options.workers,
                [&](int rank) { analyse(rank, options.phases, &records[rank]); });
  PhaseOptions agreed = options.phases;
  for (const ExtractionRecord& r : records) {
    agreed.bodies.cut_anyway.insert(r.cut_for_time.begin(), r.cut_for_time.end());
  }
  std::vector<int> again;
  for (int rank : ranks) {
    const std::set<BodyShape>& left = records[rank].left_for_share;
    if (std::any_of(left.begin(), left.end(),
                    [&](const BodyShape& b) { return agreed.bodies.cut_anyway.contains(b); })) {
      again.push_back(rank);
    }
  }
  for_each_rank(again, options.workers, [&](int rank) { analyse(rank, agreed, nullptr); });

  sig.compute = all_count_instructions(sig) ? ComputeMetric::Instructions : ComputeMetric::CpuTime;
  relate_phases(sig);
  return sig;
}

}  // namespace p3s::signature
