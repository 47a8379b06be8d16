#include "core/value_spread.hpp"

#include <algorithm>
#include <numeric>

namespace p3s::core {

ValueSpread spread_of(const std::vector<double>& values) {
  ValueSpread s;
  if (values.empty()) return s;
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  s.min = *lo, s.max = *hi;
  s.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  return s;
}

}  // namespace p3s::core
