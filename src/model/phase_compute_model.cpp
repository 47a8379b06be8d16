#include "model/phase_compute_model.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "model/instruction_groups.hpp"
#include "model/instruction_prediction.hpp"
#include "model/scaling_model_search.hpp"

namespace p3s::model {
namespace {

// Below these, two ranks' compute differ by measurement noise only (the signature's floors).
constexpr double kCpuNoiseNs = 20'000;
constexpr double kInstructionNoise = 50'000;

// CPU time of the same work spreads by a quarter on a shared node: only a gap of half as much
// again tells different work apart.
GroupSimilarity cpu_similarity() {
  return {.ratio = 1 / 1.5, .floor = kCpuNoiseNs};
}

bool counted(const PhaseComputeRun& run) {
  return !run.instructions.empty();
}

// The ranks of `group` at n.
std::vector<std::int64_t> members(const InstructionGroup& group, std::int64_t n) {
  const auto [a, b] = group_ranks(group.first, group.end, n);
  std::vector<std::int64_t> out;
  for (std::int64_t r = a; r < b; ++r) {
    if (std::find(group.residues.begin(), group.residues.end(), r % group.modulus) !=
        group.residues.end()) {
      out.push_back(r);
    }
  }
  return out;
}

// How far ranks doing the same work spread in one run (%), over the group's ranks at each of
// their levels: the scatter its CRM must tolerate.
double spread_pct(const InstructionGroup& group, std::span<const double> values, std::int64_t n,
                  const GroupSimilarity& similarity) {
  const std::vector<std::int32_t> level = compute_levels(values, similarity);
  struct Range {
    double low = 0, high = 0, sum = 0;
    std::size_t count = 0;
  };
  std::map<std::int32_t, Range> ranges;
  for (std::int64_t r : members(group, n)) {
    const double v = values[static_cast<std::size_t>(r)];
    Range& range = ranges[level[static_cast<std::size_t>(r)]];
    range.low = range.count == 0 ? v : std::min(range.low, v);
    range.high = range.count == 0 ? v : std::max(range.high, v);
    range.sum += v;
    ++range.count;
  }
  double widest = 0;
  for (const auto& [l, range] : ranges) {
    if (range.count < 2 || range.sum <= 0) continue;
    widest = std::max(widest, 100 * (range.high - range.low) / 2 /
                                  (range.sum / static_cast<double>(range.count)));
  }
  return widest;
}

// The group's value in one run: its slowest rank's. A synchronised phase goes at the pace of
// its slowest rank (PhaseET), and the ranks of one group differ by noise that the real run at
// N has too; their mean would predict a phase faster than any run makes it.
double statistic(const InstructionGroup& group, std::span<const double> values, std::int64_t n) {
  double largest = 0;
  for (std::int64_t r : members(group, n)) {
    largest = std::max(largest, values[static_cast<std::size_t>(r)]);
  }
  return largest;
}

ComputePoint point_of(const PhaseComputeRun& run, const InstructionGroup& group, double n,
                      bool measurable) {
  ComputePoint p;
  p.n = n;
  p.cpu_ns = statistic(group, run.cpu_ns, run.n);
  if (counted(run)) p.instructions = statistic(group, run.instructions, run.n);
  p.n_measured = run.n;
  p.workload = run.workload;
  p.measurable = measurable;
  return p;
}

// The group's instructions over its ranks and repetitions in one run.
double group_total(const PhaseComputeRun& run, const InstructionGroup& group) {
  double total = 0;
  for (std::int64_t r : members(group, run.n)) {
    const auto i = static_cast<std::size_t>(r);
    total += run.instructions[i] * static_cast<double>(run.weight[i]);
  }
  return total;
}

// The groups of ranks, without their models: blocks of ranks that are the same shares of n in
// every run, else classes of ranks by r mod m that are the same in every run, else one group.
// Ranks are told apart by levels (instruction_groups.hpp): counted instructions repeat within a
// few percent, so 5 % apart is a different amount of work; CPU time needs a wider gap.
std::vector<InstructionGroup> group_layout(std::span<const PhaseComputeRun> training, bool counters,
                                           std::vector<std::string>& notes) {
  const GroupSimilarity similarity =
      counters ? GroupSimilarity{.ratio = 0.95, .floor = kInstructionNoise} : cpu_similarity();
  std::vector<RunGroups> runs;
  std::vector<std::vector<double>> values;
  bool several = false;
  std::string counts;
  for (const PhaseComputeRun& run : training) {
    values.push_back(counters ? run.instructions : run.cpu_ns);
    runs.push_back({run.n, group_starts(values.back(), similarity)});
    several |= runs.back().starts.size() > 1;
    counts +=
        fmt::format("{}{} at n = {}", counts.empty() ? "" : ", ", runs.back().starts.size(), run.n);
  }
  std::vector<InstructionGroup> groups;
  if (const auto shares = common_group_shares(runs)) {
    for (std::size_t j = 0; j + 1 < shares->size(); ++j) {
      InstructionGroup g;
      g.first = (*shares)[j];
      g.end = (*shares)[j + 1];
      groups.push_back(std::move(g));
    }
    return groups;
  }
  if (const auto classes = common_rank_classes(values, similarity)) {
    for (const std::vector<std::int64_t>& residues : classes->residues) {
      InstructionGroup g;
      g.modulus = classes->modulus;
      g.residues = residues;
      groups.push_back(std::move(g));
    }
    return groups;
  }
  InstructionGroup all;
  all.slowest = several;
  if (several) {
    notes.push_back(fmt::format(
        "ranks' {} differ ({} block(s) of ranks at different levels: {}), but neither as the "
        "same blocks of ranks nor as the same classes of r mod m in every run: every rank is "
        "given the slowest rank's compute, which sets the pace",
        counters ? "instructions" : "CPU times", runs.back().starts.size(), counts));
  }
  groups.push_back(std::move(all));
  return groups;
}

// The IPT of one group when its total is practically constant; a note when it is not.
std::optional<InstructionPrediction> prediction_table(std::span<const PhaseComputeRun> training,
                                                      const InstructionGroup& group,
                                                      const ComputeModelOptions& options,
                                                      std::vector<std::string>& notes) {
  std::vector<double> totals;
  for (const PhaseComputeRun& run : training) totals.push_back(group_total(run, group));
  const double mean =
      std::accumulate(totals.begin(), totals.end(), 0.0) / static_cast<double>(totals.size());
  const auto [low, high] = std::minmax_element(totals.begin(), totals.end());
  if (mean <= 0 || (*high - *low) / mean > options.constant_total_spread) {
    notes.push_back(fmt::format(
        "ranks {:.3g}-{:.3g} of n: total instructions are not constant ({:.4g} to {:.4g}, "
        "{:.1f} %): the phase does not scale strongly, so the IPT does not apply and "
        "measurable points cannot be placed by instructions",
        group.first, group.end, *low, *high, 100 * (*high - *low) / mean));
    return std::nullopt;
  }
  const double share = (group.end - group.first) * static_cast<double>(group.residues.size()) /
                       static_cast<double>(group.modulus);
  return InstructionPrediction{mean, share};
}

// Where a measurable run's group belongs on the original workload's n, or why it does not.
std::optional<double> place(const PhaseComputeRun& run, const ComputePoint& measured,
                            const std::optional<InstructionPrediction>& table,
                            const ScalingFit& weight, std::optional<double> workload,
                            std::vector<std::string>& notes) {
  if (table && measured.instructions) {
    if (auto n = table->n_for(*measured.instructions, weight)) return n;
    notes.push_back(fmt::format(
        "measurable run at n = {}: {:.4g} instructions per rank match no process count of "
        "the original workload; point dropped",
        run.n, *measured.instructions));
    return std::nullopt;
  }
  if (!workload || !run.workload || *run.workload <= 0) {
    notes.push_back(fmt::format(
        "measurable run at n = {}: no counters and no declared workload size to place it by; "
        "point dropped",
        run.n));
    return std::nullopt;
  }
  const double n = static_cast<double>(run.n) * *workload / *run.workload;
  if (n < 1) {
    notes.push_back(fmt::format(
        "measurable run at n = {}: its workload ({}) gives each rank more work than the "
        "original at one process; point dropped",
        run.n, *run.workload));
    return std::nullopt;
  }
  return n;
}

// Compute per unit of work, which strong scaling keeps constant until the cache regime
// changes: ns per instruction with counters, else CPU time x n (work per rank ~ 1 / n).
void report_regime_changes(std::vector<ComputePoint> points, bool counters,
                           const ComputeModelOptions& options, std::vector<std::string>& notes) {
  std::sort(points.begin(), points.end(),
            [](const ComputePoint& a, const ComputePoint& b) { return a.n < b.n; });
  auto efficiency = [&](const ComputePoint& p) {
    return counters && p.instructions && *p.instructions > 0 ? p.cpu_ns / *p.instructions
                                                             : p.cpu_ns * p.n;
  };
  for (std::size_t i = 1; i < points.size(); ++i) {
    const double before = efficiency(points[i - 1]);
    const double after = efficiency(points[i]);
    if (before <= 0 || after <= 0) continue;
    if (std::abs(after - before) / std::min(before, after) <= options.regime_change) continue;
    notes.push_back(fmt::format(
        "{} changes regime between n = {:.4g} and n = {:.4g} ({:.4g} to {:.4g}): cache "
        "effects; a fit over the small runs alone would miss it",
        counters ? "CPU time per instruction (ns)" : "CPU time per unit of work (ns x n)",
        points[i - 1].n, points[i].n, before, after));
  }
}

}  // namespace

PhaseCompute model_phase_compute(std::span<const PhaseComputeRun> training,
                                 std::span<const PhaseComputeRun> measurable,
                                 const ScalingFit& weight, std::optional<double> workload,
                                 const ComputeModelOptions& options) {
  PhaseCompute compute;
  const bool counters = std::all_of(training.begin(), training.end(), counted);
  for (InstructionGroup& group : group_layout(training, counters, compute.notes)) {
    for (const PhaseComputeRun& run : training) {
      group.points.push_back(point_of(run, group, static_cast<double>(run.n), false));
    }
    std::optional<InstructionPrediction> table;
    if (counters) table = prediction_table(training, group, options, compute.notes);
    if (table) group.total_instructions = table->total;
    for (const PhaseComputeRun& run : measurable) {
      ComputePoint p = point_of(run, group, 0, true);
      const auto n = place(run, p, table, weight, workload, compute.notes);
      if (!n) continue;
      p.n = *n;
      group.points.push_back(p);
    }
    std::vector<ScalingPoint> fit_points;
    for (const ComputePoint& p : group.points) fit_points.push_back({p.n, p.cpu_ns});
    double noise = options.least_noise_pct;
    for (const PhaseComputeRun& run : training) {
      noise = std::max(noise, spread_pct(group, run.cpu_ns, run.n, cpu_similarity()));
    }
    group.per_rank_ns = fit_scaling_model(fit_points, compute_fit_options(options.scaling, noise));
    if (counters || workload) report_regime_changes(group.points, counters, options, compute.notes);
    compute.groups.push_back(std::move(group));
  }
  return compute;
}

}  // namespace p3s::model
