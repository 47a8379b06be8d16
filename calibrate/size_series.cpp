#include "calibrate/size_series.hpp"

#include <algorithm>
#include <map>

namespace p3s::calibrate {
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

SizeSeries::SizeSeries(const std::vector<MessageSample>& samples, Test test, LinkKind link,
                       int pairs) {
  std::map<std::int64_t, std::vector<double>> by_size;
  for (const MessageSample& s : samples) {
    if (s.test == test && s.link == link && s.pairs == pairs) by_size[s.bytes].push_back(s.seconds);
  }
  for (auto& [bytes, values] : by_size) {
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    points_.push_back({bytes, *lo, *lo, *hi, values.size()});
  }
}

std::optional<double> SizeSeries::at(std::int64_t bytes) const {
  const auto it = std::lower_bound(points_.begin(), points_.end(), bytes,
                                   [](const SizePoint& p, std::int64_t b) { return p.bytes < b; });
  if (it == points_.end() || it->bytes != bytes) return std::nullopt;
  return it->seconds;
}

double SizeSeries::relative_spread() const {
  std::vector<double> spreads;
  for (const SizePoint& p : points_) {
    if (p.count > 1 && p.seconds > 0) spreads.push_back(0.5 * (p.high - p.low) / p.seconds);
  }
  return spreads.empty() ? 0 : median(spreads);
}

}  // namespace p3s::calibrate
