#include "model/instruction_groups.hpp"

#include <algorithm>
#include <cmath>

namespace p3s::model {

std::vector<std::int64_t> group_starts(std::span<const double> values,
                                       const GroupSimilarity& similarity) {
  std::vector<std::int64_t> starts;
  double low = 0;
  double high = 0;
  for (std::size_t r = 0; r < values.size(); ++r) {
    const double v = values[r];
    const double new_low = std::min(low, v);
    const double new_high = std::max(high, v);
    const bool similar = new_high - new_low <= similarity.floor ||
                         (new_high > 0 && new_low / new_high >= similarity.ratio);
    if (starts.empty() || !similar) {
      starts.push_back(static_cast<std::int64_t>(r));
      low = high = v;
    } else {
      low = new_low;
      high = new_high;
    }
  }
  return starts;
}

std::optional<std::vector<double>> common_group_shares(std::span<const RunGroups> runs) {
  if (runs.empty()) return std::nullopt;
  const RunGroups& largest = *std::max_element(
      runs.begin(), runs.end(), [](const RunGroups& a, const RunGroups& b) { return a.n < b.n; });
  std::vector<double> shares;
  for (std::int64_t start : largest.starts) {
    shares.push_back(static_cast<double>(start) / static_cast<double>(largest.n));
  }
  for (const RunGroups& run : runs) {
    if (run.starts.size() != shares.size()) return std::nullopt;
    for (std::size_t j = 0; j < shares.size(); ++j) {
      if (run.starts[j] != group_ranks(shares[j], 1.0, run.n).first) return std::nullopt;
    }
  }
  shares.push_back(1.0);
  return shares;
}

std::pair<std::int64_t, std::int64_t> group_ranks(double first_share, double end_share,
                                                  std::int64_t n) {
  const double count = static_cast<double>(n);
  return {std::llround(first_share * count), std::llround(end_share * count)};
}

}  // namespace p3s::model
