#pragma once
// The SLT at the edges of its predictive uncertainty at one N: every weight, volume and compute
// fit at the low end of its band at N (model/fit_band.hpp), or every one at the high end.
// Simulating both brackets the PET without sampling: the PET grows with every one of these
// quantities (more repetitions, more bytes, more compute never make a phase faster), so the
// fits' joint extremes give the PET's. Joint extremes are wider than the PET's own interval at
// the fits' level when the fits' errors are independent, so the PET's coverage is measured
// (README), never taken to be that level.
#include <optional>
#include <string>
#include <vector>

#include "model/slt.hpp"

namespace p3s::model {

enum class FitBound : std::uint8_t { Low, High };

// The fit moved, by a constant, to the low or high end of its band at n (only its value at n
// is meant to be used). Nothing when the fit has no band there (fit_band).
std::optional<ScalingFit> fit_at_bound(const ScalingFit& fit, FitBound bound, double n,
                                       double level);

// The SLT with every phase's weight, every slot's bytes and every instruction group's compute
// at `bound` at n; rules, layouts and everything else unchanged. Fits without a band are named
// in `unbounded` ("phase 2 weight") and left as they are.
Slt slt_at_bound(const Slt& slt, FitBound bound, double n, double level,
                 std::vector<std::string>& unbounded);

}  // namespace p3s::model
