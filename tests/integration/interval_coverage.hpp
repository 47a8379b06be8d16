#pragma once
// How honest the PET's interval is, against truth the model did not see: SMPI runs of a test
// app at small n train the model (p3s predict), and smpirun's own time at larger N, which no
// training run saw, is held against [pet_low, pet_high] there.
#include <cstdint>
#include <string>
#include <vector>

#include "integration/smpi_truth.hpp"

namespace p3s::testing {

struct CoverageCase {
  std::string app;
  std::vector<std::string> args;
  std::vector<int> training;
  std::vector<int> held_out;
};

// One held-out N of one case.
struct CoveragePoint {
  std::string name;  // app and arguments
  std::int64_t n = 0;
  double truth = 0;
  double pet = 0;
  double low = 0;
  double high = 0;
  bool inside() const { return low <= truth && truth <= high; }
  double width_pct() const { return 100 * (high - low) / pet; }
};

// Trains, predicts and runs the truth of every held-out N of `c` with the app's compute as
// `compute` says, appending one point per held-out N. A held-out N that p3s does not predict
// with an interval fails the test (fatally): every point counts.
void cover(const CoverageCase& c, const SmpiCompute& compute, std::vector<CoveragePoint>& out);

// Prints every point, then the share inside and the median width per app and over all; returns
// the share inside over all.
double print_coverage(const std::vector<CoveragePoint>& points, double level);

// The median of the points' widths (%).
double median_width_pct(const std::vector<CoveragePoint>& points);

}  // namespace p3s::testing
