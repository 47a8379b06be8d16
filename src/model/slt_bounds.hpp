#pragma once
// The SLT at the edges of its own uncertainty: every weight, volume and compute fit moved by
// its relative error, all down (the low instantiation) or all up (the high one). Simulating
// both brackets the PET between what the fits still allow, without sampling: the PET grows
// with every one of these quantities (more repetitions, more bytes, more compute never make a
// phase faster), so the two extremes of the fits give the two extremes of the PET.
#include "model/slt.hpp"

namespace p3s::model {

enum class FitBound : std::uint8_t { Low, High };

// A fit's relative uncertainty (a fraction): the largest of its leave-one-out error, its
// largest error at the training runs and the scatter its data were allowed (the search takes
// the simplest form within that scatter, so the form is no better known than it).
double fit_uncertainty(const FitQuality& quality);

// The fit multiplied by 1 - u (Low, not below 0) or 1 + u (High), u its uncertainty.
ScalingFit fit_at_bound(const ScalingFit& fit, FitBound bound);

// The SLT with every phase's weight, every slot's bytes and every instruction group's compute
// at `bound`; rules, layouts and everything else unchanged.
Slt slt_at_bound(const Slt& slt, FitBound bound);

}  // namespace p3s::model
