#include "report/best_n.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace p3s::report {

double parallel_efficiency(const TimedCount& base, const TimedCount& p) {
  return base.seconds * static_cast<double>(base.n) / (p.seconds * static_cast<double>(p.n));
}

std::optional<BestN> best_n(std::vector<TimedCount> points, double min_efficiency) {
  if (!(min_efficiency > 0 && min_efficiency <= 1)) {
    throw std::invalid_argument(
        fmt::format("efficiency threshold {} is not in (0, 1]", min_efficiency));
  }
  if (points.empty()) return std::nullopt;
  std::sort(points.begin(), points.end(),
            [](const TimedCount& a, const TimedCount& b) { return a.n < b.n; });
  const TimedCount& base = points.front();
  BestN best{base.n, base, base, 1.0};
  bool efficient = true;
  for (const TimedCount& p : points) {
    if (p.seconds < best.fastest.seconds) best.fastest = p;
    const double e = parallel_efficiency(base, p);
    efficient = efficient && e >= min_efficiency;
    if (efficient) best.largest_efficient = p, best.efficiency = e;
  }
  return best;
}

std::string best_n_text(const BestN& best, double min_efficiency) {
  return fmt::format(
      "fastest at N = {} ({:.6g} s); efficiency >= {:g} % up to N = {} (E = {:.2f}, against "
      "n0 = {})",
      best.fastest.n, best.fastest.seconds, 100 * min_efficiency, best.largest_efficient.n,
      best.efficiency, best.base_n);
}

nlohmann::json best_n_json(const BestN& best) {
  return {{"base_n", best.base_n},
          {"fastest_n", best.fastest.n},
          {"fastest_pet_seconds", best.fastest.seconds},
          {"largest_efficient_n", best.largest_efficient.n},
          {"largest_efficient_pet_seconds", best.largest_efficient.seconds},
          {"efficiency", best.efficiency}};
}

}  // namespace p3s::report
