#pragma once
// What `p3s predict` found: the predicted PET at every N (and at the traced n, to set them
// against the runs), the runs' measured times, and how well the model fits.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "report/best_n.hpp"

namespace p3s::report {

// One phase at one N by both predictors (p3s predict --replay-launcher, per-phase mode).
struct PhaseCheck {
  std::string name;
  double weight = 0;
  double simulated_seconds = 0;  // PhaseET in SimGrid
  double replayed_seconds = 0;   // PhaseET of the Synthetic Signature
  bool flagged = false;          // |difference| above the tolerance
  // For a flagged phase: the branches the evidence names ("compute", "point-to-point",
  // "collective"), the largest first, and what they rest on in words (predict/phase_cross_check).
  std::vector<std::string> causes;
  std::string cause;

  // (replayed - simulated) / simulated, in %.
  double difference_pct() const;
};

// A prediction's low and high bound (seconds).
struct Interval {
  double low = 0;
  double high = 0;
  bool contains(double t) const { return low <= t && t <= high; }
  // high - low relative to `centre`, in %.
  double width_pct(double centre) const { return 100 * (high - low) / centre; }
};

struct PredictedPoint {
  std::int64_t n = 0;
  bool traced = false;  // a training run's n: the prediction can be held against the run
  double pet_seconds = 0;
  // What simulating it cost.
  std::int64_t events = 0;
  double sim_wall_seconds = 0;
  // Share of the run's time the simulated phases stand for (in the traced run at this n, or
  // in the largest training run), and the SLT's phases left out at this n, with why.
  double covered = 1;
  std::vector<std::string> omitted;
  // The Synthetic Signature's PET on the real machine (p3s predict --replay-launcher), beside
  // the simulator's.
  std::optional<double> replay_pet_seconds;
  std::vector<PhaseCheck> phase_checks = {};  // per phase, when replayed in per-phase mode
  // The PET's bounds from the model's own uncertainty: the SLT's low and high instantiations
  // simulated alike (absent with --interval none, or when a bound could not be simulated).
  std::optional<Interval> pet_interval = {};
  // The replayed PET's spread over the replay's measured repetitions.
  std::optional<Interval> replay_interval = {};
};

// A traced run: its AET (the longest traced time of any rank) on the machine it ran on.
struct MeasuredRun {
  std::int64_t n = 0;
  double aet_seconds = 0;
  std::string run;
};

// One phase of the model in numbers: how exactly its pattern and fits hold at the training n.
struct PhaseFit {
  std::string name;
  bool pattern_modelled = false;
  std::string pattern;  // "exact (grid rule, 10 slots)" or why not
  std::string weight_equation;
  double weight_error_pct = 0;
  std::optional<double> volume_error_pct;  // largest over its slots; none without messages
  double compute_error_pct = 0;            // largest over its instruction groups
};

struct ScalingPrediction {
  std::string application;
  std::string platform;
  std::string mode;                // per-phase or full
  std::string engine = "simgrid";  // simgrid or fluid (sim::SimEngine)
  // Strong scaling: the same problem on more processes. Weak: the problem grows with N (fixed
  // work per process), and the speedup is the scaled speedup.
  bool weak_scaling = false;
  // The parallel efficiency the best N keeps (p3s predict --efficiency).
  double min_efficiency = 0.5;
  // The relative difference between the predictors' PhaseETs above which a phase is flagged
  // (p3s predict --tolerance).
  double tolerance = 0.10;
  // How the PETs' intervals were made: "fits" (every fit of the model at the low, then the high
  // end of its predictive band at N), or empty; and the two-sided level of each fit's band,
  // which is not the PET interval's coverage (that is measured on held-out runs, README).
  std::string interval;
  double interval_level = 0.9;
  std::vector<PredictedPoint> points;  // by n
  std::vector<MeasuredRun> measured;   // by n
  std::vector<PhaseFit> fits;
  std::vector<std::string> coverage;      // each training run's modelled share, in words
  std::vector<std::string> not_modelled;  // phases and notes, in words
  std::vector<std::string> warnings;

  // Speedup against the smallest predicted n0: PET(n0) / PET(N), times N / n0 for weak
  // scaling; the parallel efficiency is speedup x n0 / N (the ideal speedup is N / n0).
  double speedup(const PredictedPoint& p) const;
  double efficiency(const PredictedPoint& p) const;
  // Relative difference (%) between the prediction at a traced n and that run's AET, when a
  // run at that n was measured.
  std::optional<double> difference_pct(const PredictedPoint& p) const;
  // The traced run at n, if one was measured.
  const MeasuredRun* measured_at(std::int64_t n) const;
  // The speedup the traced runs show at `m`, against the measured run at the first predicted
  // n0 (none without one), defined as speedup() is.
  std::optional<double> measured_speedup(const MeasuredRun& m) const;
  // The best N of the simulated PETs and of the replayed ones (over the points replayed),
  // under strong scaling only: nothing for weak scaling or without points.
  std::optional<BestN> best_simulated() const;
  std::optional<BestN> best_replayed() const;

 private:
  // `ratio` = time(n0) / time(n) as speedup: times n / n0 for weak scaling.
  double speedup_from(double ratio, std::int64_t n) const;
};

}  // namespace p3s::report
