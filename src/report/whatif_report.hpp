#pragma once
// What `p3s whatif` found: one model simulated at every N on every platform variant (other
// platforms, faster or slower links, other topologies, a faster CPU), as a table a person
// reads, CSV and JSON a program reads.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "report/best_n.hpp"

namespace p3s::report {

struct WhatifVariant {
  std::string id;             // "v1", "v2", ...: the first is the reference
  std::string name;           // "default.xml, bandwidth x2, cpu x2"
  std::string base_platform;  // the --platform file it varies
  std::string platform;       // the file simulated (the base itself, or one written from it)
  std::string topology;       // flat, fat-tree, torus, dragonfly; "as given" when not read
  double bandwidth_factor = 1;
  double latency_factor = 1;
  double cpu_speedup = 1;
};

struct WhatifPoint {
  std::size_t variant = 0;  // index into variants
  std::int64_t n = 0;
  double pet_seconds = 0;
  std::int64_t events = 0;
  double sim_wall_seconds = 0;
};

struct WhatifPrediction {
  std::string application;
  std::string mode;                // per-phase or full
  std::string engine = "simgrid";  // simgrid or fluid (sim::SimEngine)
  bool weak_scaling = false;
  double min_efficiency = 0.5;
  std::vector<std::int64_t> ns;  // asked, ascending
  std::vector<WhatifVariant> variants;
  std::vector<WhatifPoint> points;
  std::vector<std::string> warnings;

  std::optional<double> pet(std::size_t variant, std::int64_t n) const;
  // The first variant's PET over this one's at the same N: above 1, this variant is faster.
  std::optional<double> speedup_vs_first(std::size_t variant, std::int64_t n) const;
  // Strong scaling's parallel efficiency within the variant, against its smallest N predicted.
  std::optional<double> efficiency(std::size_t variant, std::int64_t n) const;
  // The best N of the variant's curve (strong scaling only).
  std::optional<BestN> best(std::size_t variant) const;

 private:
  std::vector<TimedCount> curve(std::size_t variant) const;
};

std::string whatif_table(const WhatifPrediction& prediction);
std::string whatif_csv(const WhatifPrediction& prediction);
nlohmann::json whatif_json(const WhatifPrediction& prediction);  // "p3s-whatif 1"

}  // namespace p3s::report
