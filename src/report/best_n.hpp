#pragma once
// The best process count of a strong-scaling curve: where the run is fastest, and how far it
// can grow while using its processes well.
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace p3s::report {

struct TimedCount {
  std::int64_t n = 0;
  double seconds = 0;  // positive
};

struct BestN {
  std::int64_t base_n = 0;  // n0: the efficiency's reference, the smallest n of the curve
  TimedCount fastest;       // the lowest time; the smaller n on a tie
  // The largest n up to which the parallel efficiency E(n) = T(n0) n0 / (T(n) n) stays at or
  // above the threshold: every n from n0 to it has E >= threshold (n0 itself has E = 1).
  TimedCount largest_efficient;
  double efficiency = 1;  // E at largest_efficient
};

// Strong scaling's parallel efficiency of `p` against the base point: T(n0) n0 / (T(n) n).
double parallel_efficiency(const TimedCount& base, const TimedCount& p);

// Of a strong-scaling curve, `points` in any order with distinct n and positive times; nothing
// when it is empty. Throws std::invalid_argument when `min_efficiency` is not in (0, 1].
std::optional<BestN> best_n(std::vector<TimedCount> points, double min_efficiency);

// "fastest at N = 256 (0.0123 s); efficiency >= 50 % up to N = 64 (E = 0.61, against n0 = 4)".
std::string best_n_text(const BestN& best, double min_efficiency);
// {"base_n", "fastest_n", "fastest_pet_seconds", "largest_efficient_n",
//  "largest_efficient_pet_seconds", "efficiency"}
nlohmann::json best_n_json(const BestN& best);

}  // namespace p3s::report
