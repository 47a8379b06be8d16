#pragma once
// A collective's time at N from measurements on P <= R processes. The Synthetic Signature
// cannot load all N members of a collective at once, so it runs the collective itself (the
// target MPI's own algorithm, at the message size the ST4NP gives) on communicators of several
// sizes P and fits T(P) = a + b P + c floor(log2 P): linear algorithms (a
// root receiving from every member) grow with P, trees and recursive doubling with log2 P (a
// binomial tree of P members is floor(log2 P) deep, whatever its root sends first). Of
// the fits with the constant and any of the two terms, all coefficients but the constant
// non-negative, the simplest is kept that lies within a collective's own scatter (2 %) of every
// point, or within 1.5 times the closest fit's largest error when none does: a term that only
// explains noise would grow it over N / R (SMPI's recursive doubling at P = 2..16 rises by
// 0.5 % within a level of log2 P, which a term in P took for growth, +8 % at P = 256).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace p3s::replay {

struct CollectiveFit {
  double a = 0, b = 0, c = 0;
  double at(double p) const;
  // Largest |fit - measured| / measured over the points (0 for a perfect fit).
  double max_relative_residual = 0;
  // Whether the fit lies within kFollowsPoints of every point it was made from. When it does
  // not, the MPI most likely changes algorithm with P (real MPIs choose by communicator and
  // message size), and T(N) extrapolates none of the laws measured.
  static constexpr double kFollowsPoints = 0.10;
  bool follows_points() const { return max_relative_residual <= kFollowsPoints; }
  std::string equation() const;
};

// `sizes` and `seconds` pair up; at least one point. Throws std::invalid_argument otherwise.
CollectiveFit fit_collective(const std::vector<int>& sizes, const std::vector<double>& seconds);

// The sizes to fit a collective of `members` from: those of the same kind, powers of two or
// not, when at least three were measured, else all. Recursive doubling (MPI's usual allreduce
// and allgather for short messages) takes log2 P rounds at a power of two, and two more
// elsewhere to fold the ranks beyond the largest power of two in and out: fitted over both
// kinds, SMPI's took 37.3 us at P = 256 from P <= 32 where it takes 32.4 us, and a halo
// phase whose allreduce it is came out 6 % long. Algorithms that do not care keep their law.
std::vector<std::size_t> fit_points(const std::vector<int>& sizes, std::int64_t members);

// The communicator sizes to measure with R processes: every size up to 16, then steps of about
// 25 % up to R (R itself included).
std::vector<int> sample_sizes(int processes);

}  // namespace p3s::replay
