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

// Ranks with a phase of another weight than the run's, or one not every rank has.
std::vector<int> ranks_disagreeing(const Signature& sig) {
  std::vector<int> out;
  const auto nprocs = static_cast<std::int32_t>(sig.ranks.size());
  for (const RankPhases& rank : sig.ranks) {
    const bool disagrees =
        std::any_of(rank.phases.begin(), rank.phases.end(), [&](const RankPhase& p) {
          const RunPhase& run = sig.phases.at(static_cast<std::size_t>(p.id));
          return run.ranks < nprocs || p.weight != run.weight;
        });
    if (disagrees) out.push_back(rank.rank);
  }
  return out;
}

// The run phases numbered again over those some rank still has, in order, and summarised.
void renumber_phases(Signature& sig) {
  std::vector<std::int32_t> new_id(sig.phases.size(), -1);
  for (const RankPhases& rank : sig.ranks) {
    for (const RankPhase& p : rank.phases) new_id.at(static_cast<std::size_t>(p.id)) = 0;
  }
  std::int32_t next = 0;
  for (std::int32_t& id : new_id) {
    if (id == 0) id = next++;
  }
  for (RankPhases& rank : sig.ranks) {
    for (RankPhase& p : rank.phases) p.id = new_id[static_cast<std::size_t>(p.id)];
  }
  adopt_reference_phases(sig, static_cast<std::size_t>(next));
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
  // Every phase is kept until the ranks agree on them; relevance is applied last.
  PhaseOptions every = options.phases;
  every.threshold = 0;
  for_each_rank(ranks, options.workers, [&](int rank) { analyse(rank, every, &records[rank]); });
  PhaseOptions agreed = every;
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

  // A rank whose own cut disagrees with the run's (a phase of another weight, or one only some
  // ranks have: the diagonal ranks of a grid that skip a transpose find a shorter period) is
  // read again like the rank with the most events, where it reads like it.
  const std::vector<int> disagreeing = ranks_disagreeing(sig);
  if (!disagreeing.empty()) {
    ReferenceCut fullest = reference_cut_of(sig);
    fullest.program_rank = fullest.fullest_rank;
    PhaseOptions like = every;
    like.reference = &fullest;
    for_each_rank(disagreeing, options.workers, [&](int rank) {
      if (static_cast<std::size_t>(rank) == fullest.fullest_rank) return;
      try {
        const core::RankTrace trace = core::read_run_rank(run_dir, sig.run, rank, options.read);
        sig.ranks[rank] = detect_phases(trace, like);
      } catch (const ReferenceCutMismatch&) {
        // It keeps its own cut: it is not the same program as the fullest rank there.
      }
    });
  }
  for (RankPhases& rank : sig.ranks) keep_relevant(rank, options.phases.threshold);
  renumber_phases(sig);
  return sig;
}

}  // namespace p3s::signature
