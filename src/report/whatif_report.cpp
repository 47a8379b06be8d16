#include "report/whatif_report.hpp"

#include <fmt/core.h>

#include <nlohmann/json.hpp>

namespace p3s::report {

std::vector<TimedCount> WhatifPrediction::curve(std::size_t variant) const {
  std::vector<TimedCount> out;
  for (const WhatifPoint& p : points) {
    if (p.variant == variant) out.push_back({p.n, p.pet_seconds});
  }
  return out;
}

std::optional<double> WhatifPrediction::pet(std::size_t variant, std::int64_t n) const {
  for (const WhatifPoint& p : points) {
    if (p.variant == variant && p.n == n) return p.pet_seconds;
  }
  return std::nullopt;
}

std::optional<double> WhatifPrediction::speedup_vs_first(std::size_t variant,
                                                         std::int64_t n) const {
  const auto first = pet(0, n), mine = pet(variant, n);
  if (!first || !mine) return std::nullopt;
  return *first / *mine;
}

std::optional<double> WhatifPrediction::efficiency(std::size_t variant, std::int64_t n) const {
  const auto mine = pet(variant, n);
  const auto best_of = best(variant);
  if (!mine || !best_of) return std::nullopt;
  const auto base = pet(variant, best_of->base_n);
  return parallel_efficiency({best_of->base_n, *base}, {n, *mine});
}

std::optional<BestN> WhatifPrediction::best(std::size_t variant) const {
  if (weak_scaling) return std::nullopt;
  return best_n(curve(variant), min_efficiency);
}

namespace {

std::string cell(const std::optional<double>& value, const char* format) {
  return value ? fmt::format(fmt::runtime(format), *value) : "-";
}

}  // namespace

std::string whatif_table(const WhatifPrediction& p) {
  std::string out =
      fmt::format("What if: {}\n({} simulation, {} engine, {} scaling)\n\nvariants:\n",
                  p.application, p.mode, p.engine, p.weak_scaling ? "weak" : "strong");
  for (const WhatifVariant& v : p.variants) out += fmt::format("  {:<4} {}\n", v.id, v.name);
  out += fmt::format("\n{:>7}", "N");
  for (const WhatifVariant& v : p.variants) {
    out += fmt::format(" {:>14} {:>8}", v.id + " PET (s)", "x " + p.variants.front().id);
  }
  out += "\n";
  for (const std::int64_t n : p.ns) {
    out += fmt::format("{:>7}", n);
    for (std::size_t v = 0; v < p.variants.size(); ++v) {
      out += fmt::format(" {:>14} {:>8}", cell(p.pet(v, n), "{:.6g}"),
                         cell(p.speedup_vs_first(v, n), "{:.3f}"));
    }
    out += "\n";
  }
  out += fmt::format(
      "\nx {0}: {0}'s PET over the variant's at the same N (above 1: the variant is faster).\n",
      p.variants.empty() ? "v1" : p.variants.front().id);
  if (p.weak_scaling) {
    out += "best N: not named under weak scaling (the PET grows with the problem)\n";
  } else {
    out += fmt::format("best N (strong scaling, efficiency at least {:g} %):\n",
                       100 * p.min_efficiency);
    for (std::size_t v = 0; v < p.variants.size(); ++v) {
      const auto best = p.best(v);
      out += fmt::format("  {:<4} {}\n", p.variants[v].id,
                         best ? best_n_text(*best, p.min_efficiency) : "nothing predicted");
    }
  }
  for (const std::string& line : p.warnings) out += fmt::format("WARNING: {}\n", line);
  return out;
}

std::string whatif_csv(const WhatifPrediction& p) {
  std::string out = "variant,n,pet_seconds,speedup_vs_first,efficiency\n";
  for (const WhatifPoint& pt : p.points) {
    const auto vs_first = p.speedup_vs_first(pt.variant, pt.n);
    const auto efficiency = p.efficiency(pt.variant, pt.n);
    out += fmt::format("{},{},{:.9g},{},{}\n", p.variants[pt.variant].id, pt.n, pt.pet_seconds,
                       vs_first ? fmt::format("{:.6g}", *vs_first) : "",
                       efficiency ? fmt::format("{:.6g}", *efficiency) : "");
  }
  return out;
}

nlohmann::json whatif_json(const WhatifPrediction& p) {
  nlohmann::json j = {{"format", "p3s-whatif 1"},
                      {"application", p.application},
                      {"scaling", p.weak_scaling ? "weak" : "strong"},
                      {"mode", p.mode},
                      {"engine", p.engine},
                      {"efficiency_threshold", p.min_efficiency},
                      {"n", p.ns},
                      {"variants", nlohmann::json::array()},
                      {"points", nlohmann::json::array()},
                      {"warnings", p.warnings}};
  for (std::size_t v = 0; v < p.variants.size(); ++v) {
    const WhatifVariant& var = p.variants[v];
    nlohmann::json variant = {{"id", var.id},
                              {"name", var.name},
                              {"base_platform", var.base_platform},
                              {"platform", var.platform},
                              {"topology", var.topology},
                              {"bandwidth_factor", var.bandwidth_factor},
                              {"latency_factor", var.latency_factor},
                              {"cpu_speedup", var.cpu_speedup}};
    if (const auto best = p.best(v)) variant["best_n"] = best_n_json(*best);
    j["variants"].push_back(variant);
  }
  for (const WhatifPoint& pt : p.points) {
    nlohmann::json point = {{"variant", p.variants[pt.variant].id},
                            {"n", pt.n},
                            {"pet_seconds", pt.pet_seconds},
                            {"simulated_events", pt.events},
                            {"simulation_wall_seconds", pt.sim_wall_seconds}};
    if (const auto s = p.speedup_vs_first(pt.variant, pt.n)) point["speedup_vs_first"] = *s;
    if (const auto e = p.efficiency(pt.variant, pt.n)) point["efficiency"] = *e;
    j["points"].push_back(point);
  }
  return j;
}

}  // namespace p3s::report
