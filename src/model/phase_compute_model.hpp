#pragma once
// The compute model of one phase (001 sec. 3.3, 000 sec. 3): its instruction groups, each with
// a computation regression model (CRM) in n fitted to the training runs and to the measurable
// points, runs of a smaller workload placed at the n of the original workload that gives each
// rank the same work.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "model/scaling_fit.hpp"
#include "model/scaling_model_search.hpp"
#include "model/slt.hpp"

namespace p3s::model {

// One run's view of one phase.
struct PhaseComputeRun {
  std::int64_t n = 0;
  std::optional<double> workload;    // declared size (p3s trace --workload LABEL=SIZE)
  std::vector<double> cpu_ns;        // per rank: CPU time of one repetition
  std::vector<double> instructions;  // per rank, one repetition; empty without counters
  std::vector<std::int64_t> weight;  // per rank
};

// How measurable points are placed and what counts as a regime change.
struct ComputeModelOptions {
  // Totals of the IPT within this relative spread (of their mean) are "practically constant".
  double constant_total_spread = 0.05;
  // Consecutive points (by n) whose compute per unit of work differs by more than this
  // (relative) are reported as a change of regime: cache effects, which a CRM fitted over
  // small n alone cannot foresee.
  double regime_change = 0.25;
  // What the user declared (p3s model --scaling): narrows the CRM's forms.
  WorkScaling scaling = WorkScaling::Unknown;
  // CPU time of the same work differs from run to run by at least this much (%), whatever the
  // ranks of one run say: frequency, caches, what else the node runs.
  double least_noise_pct = 5.0;
};

// `training` runs share the original workload (`workload`, its declared size, if any);
// `measurable` runs were made with smaller workloads. With counters in every training run,
// groups are by instructions and measurable points are placed by the IPT (equal instructions
// per rank); otherwise groups are by CPU time and points by equal work per rank, assuming
// the declared size is proportional to the total work: a run of size w at n_m does the work
// per rank of the original size W at n = n_m * W / w. What could not be done is in notes.
PhaseCompute model_phase_compute(std::span<const PhaseComputeRun> training,
                                 std::span<const PhaseComputeRun> measurable,
                                 const ScalingFit& weight, std::optional<double> workload,
                                 const ComputeModelOptions& options = {});

}  // namespace p3s::model
