#include "model/instruction_groups.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

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

namespace {

constexpr std::int64_t kLargestModulus = 8;

bool similar(double a, double b, const GroupSimilarity& similarity) {
  const double low = std::min(a, b), high = std::max(a, b);
  return high - low <= similarity.floor || (high > 0 && low / high >= similarity.ratio);
}

// The classes of residues mod m in one run: residues whose ranks' values are similar, in order
// of their first residue; nullopt when a residue's own ranks differ.
std::optional<std::vector<std::vector<std::int64_t>>> residue_classes(
    const std::vector<double>& values, std::int64_t m, const GroupSimilarity& similarity) {
  std::vector<double> low(static_cast<std::size_t>(m), 0), high(static_cast<std::size_t>(m), 0);
  for (std::size_t r = 0; r < values.size(); ++r) {
    const auto c = static_cast<std::size_t>(static_cast<std::int64_t>(r) % m);
    if (r < static_cast<std::size_t>(m)) {
      low[c] = high[c] = values[r];
    } else {
      low[c] = std::min(low[c], values[r]);
      high[c] = std::max(high[c], values[r]);
    }
    if (!similar(low[c], high[c], similarity)) return std::nullopt;
  }
  std::vector<std::vector<std::int64_t>> classes;
  std::vector<double> class_value;
  for (std::int64_t c = 0; c < m; ++c) {
    const double v = (low[static_cast<std::size_t>(c)] + high[static_cast<std::size_t>(c)]) / 2;
    std::size_t k = 0;
    while (k < classes.size() && !similar(class_value[k], v, similarity)) ++k;
    if (k == classes.size()) {
      classes.emplace_back();
      class_value.push_back(v);
    }
    classes[k].push_back(c);
  }
  return classes;
}

}  // namespace

std::optional<RankClasses> common_rank_classes(std::span<const std::vector<double>> runs,
                                               const GroupSimilarity& similarity) {
  for (std::int64_t m = 2; m <= kLargestModulus; ++m) {
    std::optional<std::vector<std::vector<std::int64_t>>> agreed;
    bool holds = true;
    bool seen = false;
    for (const std::vector<double>& run : runs) {
      if (static_cast<std::int64_t>(run.size()) < m) continue;
      const auto classes = residue_classes(run, m, similarity);
      if (!classes || (agreed && *classes != *agreed)) {
        holds = false;
        break;
      }
      agreed = classes;
      seen = true;
    }
    if (holds && seen && agreed->size() >= 2) return RankClasses{m, *agreed};
  }
  return std::nullopt;
}

std::pair<std::int64_t, std::int64_t> group_ranks(double first_share, double end_share,
                                                  std::int64_t n) {
  const double count = static_cast<double>(n);
  return {std::llround(first_share * count), std::llround(end_share * count)};
}

}  // namespace p3s::model
