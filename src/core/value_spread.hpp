#pragma once
// One number per rank (a phase's time per repetition, an end time), summarised: what the
// simulator and the Synthetic Signature report as a phase's spread over ranks.
#include <vector>

namespace p3s::core {

struct ValueSpread {
  double min = 0;
  double mean = 0;
  double max = 0;
};

// All zero for no values.
ValueSpread spread_of(const std::vector<double>& values);

}  // namespace p3s::core
