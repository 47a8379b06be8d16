#pragma once
// The validation of `p3s model --holdout`: every phase of the SLT instantiated at the hold-out
// run's n, on its own (one phase that cannot be instantiated there does not hide the others),
// and compared with its counterpart in that run: whether every rank's calls and peers are
// exact, the errors of volume, weight and compute in %, and whether the run lies inside the
// fits' predictive bands at its n (model/fit_band.hpp): truth the model did not see, which the
// bands can miss.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/logical_phases.hpp"
#include "model/slt.hpp"
#include "model/slt_builder.hpp"

namespace p3s::model {

// The level of the bands the hold-out is held against: predict's default (--interval-level).
inline constexpr double kHoldoutBandLevel = 0.9;

// A band as errors in % of the run's value: the run lies inside when low <= 0 <= high.
struct ErrorBand {
  double low = 0;
  double high = 0;
  bool holds() const;
};

struct HoldoutPhase {
  std::string name;
  std::optional<std::size_t> actual;  // the counterpart among the hold-out run's phases
  double share = 0;                   // of the hold-out run's time
  bool exact = false;                 // every rank's calls, peers and order as in the run
  // Not exact, but every rank makes the run's calls with the run's peers in another order: the
  // two neighbours of a dimension of extent 2 in every training run, whose order no run shows.
  bool reordered = false;
  std::string pattern;     // "exact", "reordered (rank 3)", "wrong (rank 3)", why not compared
  std::string difference;  // where a wrong pattern first differs, in words
  // Errors of the prediction in % of the run's value; absent when not compared.
  std::optional<double> volume_pct;
  // Bytes the model sends to a rank the run did not send them to, in % of the model's bytes.
  std::optional<double> misrouted_pct;
  std::optional<double> weight_pct;
  std::optional<double> compute_pct;          // mean over ranks of a repetition's CPU time
  std::optional<double> slowest_compute_pct;  // the rank with the most
  // The phase with every fit at the low and at the high end of its band at the hold-out's n
  // (model/slt_bounds.hpp); absent when its own fits have no band there (a fit that turns
  // back, say) or a bound cannot be instantiated, and `no_band` says why.
  std::optional<ErrorBand> compute_band;  // mean over ranks of a repetition's CPU time
  std::optional<ErrorBand> weight_band;
  std::string no_band;
};

struct HoldoutCheck {
  std::int64_t n = 0;
  std::vector<HoldoutPhase> phases;  // one per SLT phase
  std::string text() const;
};

// `counterparts[k]`: SLT phase k's counterpart in `holdout` (BuiltSlt::holdout_phase).
HoldoutCheck check_holdout(const Slt& slt, const LogicalRun& holdout,
                           const std::vector<std::optional<std::size_t>>& counterparts);

// Phases whose undecided rules (undecided_rules.hpp) the hold-out run settles: at its n the
// readings differ, and the chosen rules give its calls exactly, or the alternatives do (then
// they are taken, and `check` is updated). Their undecided slots are cleared, with a note.
void settle_by_holdout(BuiltSlt& built, HoldoutCheck& check);

}  // namespace p3s::model
