#pragma once
// The ST4NP as text ("p3s-st4np 1", core/FORMATS.md): a header with the phases and weights,
// then one section per rank, written rank by rank so memory does not grow with N.
#include <ostream>

#include "core/scaled_trace.hpp"

namespace p3s::generate {

// Ranks first..last inclusive (0-based, within 0..nprocs-1).
void write_st4np(const core::ScaledTrace& trace, std::ostream& out, int first, int last);

}  // namespace p3s::generate
