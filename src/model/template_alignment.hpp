#pragma once
// Matching a phase's calls to its slots the paper's way (001 sec. 3.2.1, Fig. 5): the ranks of
// the largest run give the template, every call of every rank of every run is matched to a
// template slot by its operation, its tags, its distance vector on the process grid and its
// order, and the slots a rank lacks are its null communications.
//
// The distance vector is what stays the same for a neighbour from one n to another: on a
// 3 x 3 x 3 cube the neighbour across (+1, -1, 0) is r - 2, on a 2 x 2 x 2 one r - 1, which is
// also where -x leads from another rank. Each run's grid is a factorisation of its n (the first
// dimension varying fastest), found as the one under which its calls fit the template; no
// grid family is assumed, so a grid the application lays out itself is found like
// MPI_Dims_create's. A call matches a slot when the slot's vector leads to the call's peer at
// that n: where a grid is 1 or 2 wide, both sides of a dimension are one rank, and the order
// the template gives them is what places a call.
//
// A rank makes its calls in the template's order less its null slots, so a border rank needs
// no order of its own. Completions follow their requests: a wait is the slot of the wait for
// the call it completes, so a border rank's missing irecv takes its wait with it; a waitall is
// the k-th waitall, and completes what its calls posted. Where border ranks skip waitalls so
// that no one order holds the k-th ones (a pipeline's wait for its last sends, made only where
// the rank sends next: `if (down >= 0)`), a waitall is keyed by the posts after it instead, two
// posts one waitall is made for on some rank making one key.
#include <span>

#include "model/phase_alignment.hpp"

namespace p3s::model {

// The alignment on grids of `dimensions` (1 to 3) dimensions; failure says why not, naming the
// run and rank.
Alignment align_to_template(std::span<const PhaseRun> runs, int dimensions);

}  // namespace p3s::model
