#include "model/instruction_groups.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

namespace p3s::model {

namespace {

// Two values are apart when their gap exceeds the noise floor and their ratio the similarity.
bool apart(double low, double high, const GroupSimilarity& similarity) {
  return high - low > similarity.floor && !(high > 0 && low / high >= similarity.ratio);
}

}  // namespace

std::vector<std::int32_t> compute_levels(std::span<const double> values,
                                         const GroupSimilarity& similarity) {
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
  std::vector<std::int32_t> level(values.size(), 0);
  std::int32_t current = 0;
  for (std::size_t k = 1; k < order.size(); ++k) {
    if (apart(values[order[k - 1]], values[order[k]], similarity)) ++current;
    level[order[k]] = current;
  }
  return level;
}

std::vector<std::int64_t> group_starts(std::span<const double> values,
                                       const GroupSimilarity& similarity) {
  const std::vector<std::int32_t> level = compute_levels(values, similarity);
  std::vector<std::int64_t> starts;
  for (std::size_t r = 0; r < level.size(); ++r) {
    if (r == 0 || level[r] != level[r - 1]) starts.push_back(static_cast<std::int64_t>(r));
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
// A class rule is believed when this many runs show every residue on two ranks at least.
constexpr std::size_t kConfirmingRuns = 2;

// The classes of residues mod m in one run: residues whose ranks are at one level, grouped by
// that level, in order of their first residue; nullopt when a residue's own ranks differ.
std::optional<std::vector<std::vector<std::int64_t>>> residue_classes(
    const std::vector<double>& values, std::int64_t m, const GroupSimilarity& similarity) {
  const std::vector<std::int32_t> level = compute_levels(values, similarity);
  std::vector<std::int32_t> of_residue(static_cast<std::size_t>(m), -1);
  for (std::size_t r = 0; r < values.size(); ++r) {
    std::int32_t& l = of_residue[r % static_cast<std::size_t>(m)];
    if (l >= 0 && l != level[r]) return std::nullopt;
    l = level[r];
  }
  std::vector<std::vector<std::int64_t>> classes;
  std::vector<std::int32_t> class_level;
  for (std::int64_t c = 0; c < m; ++c) {
    const std::int32_t l = of_residue[static_cast<std::size_t>(c)];
    const auto it = std::find(class_level.begin(), class_level.end(), l);
    if (it == class_level.end()) {
      classes.push_back({c});
      class_level.push_back(l);
    } else {
      classes[static_cast<std::size_t>(it - class_level.begin())].push_back(c);
    }
  }
  return classes;
}

}  // namespace

std::optional<RankClasses> common_rank_classes(std::span<const std::vector<double>> runs,
                                               const GroupSimilarity& similarity) {
  for (std::int64_t m = 2; m <= kLargestModulus; ++m) {
    std::optional<std::vector<std::vector<std::int64_t>>> agreed;
    bool holds = true;
    std::size_t confirming = 0;
    for (const std::vector<double>& run : runs) {
      if (static_cast<std::int64_t>(run.size()) < m) continue;
      const auto classes = residue_classes(run, m, similarity);
      if (!classes || (agreed && *classes != *agreed)) {
        holds = false;
        break;
      }
      agreed = classes;
      if (static_cast<std::int64_t>(run.size()) >= 2 * m) ++confirming;
    }
    if (holds && confirming >= kConfirmingRuns && agreed->size() >= 2) {
      return RankClasses{m, *agreed};
    }
  }
  return std::nullopt;
}

std::pair<std::int64_t, std::int64_t> group_ranks(double first_share, double end_share,
                                                  std::int64_t n) {
  const double count = static_cast<double>(n);
  return {std::llround(first_share * count), std::llround(end_share * count)};
}

}  // namespace p3s::model
