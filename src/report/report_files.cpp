#include "report/report_files.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/text_file.hpp"

namespace p3s::report {

namespace {

// An interval's bounds as text with `digits` significant digits, or `absent` twice.
std::pair<std::string, std::string> bounds_text(const std::optional<Interval>& interval,
                                                const std::string& absent, int digits) {
  if (!interval) return {absent, absent};
  return {fmt::format("{:.{}g}", interval->low, digits),
          fmt::format("{:.{}g}", interval->high, digits)};
}

// What the low and high columns are, and what they are not: the fits' level is stated, the
// PET's is not (it is measured, in README).
std::string interval_note(double level) {
  return fmt::format(
      "low, high: the PET with every weight, volume and compute fit of the model at the low and "
      "at the high\nend of its {:g} % predictive band at that N (its parameters' uncertainty, "
      "which grows away from the\ntraining runs, and every form the runs support almost as "
      "well); width: high - low over the PET.\nThe {:g} % is each fit's, not the PET's: how "
      "often such intervals hold runs the model did not\nsee is measured in README. The "
      "platform's own error is not in them.\n",
      100 * level, 100 * level);
}

// The phases the cross-check compared at any point, in order of first appearance.
std::vector<std::string> checked_phases(const ScalingPrediction& p) {
  std::vector<std::string> names;
  for (const PredictedPoint& pt : p.points) {
    for (const PhaseCheck& c : pt.phase_checks) {
      if (std::find(names.begin(), names.end(), c.name) == names.end()) names.push_back(c.name);
    }
  }
  return names;
}

// A phase's name as a CSV column's prefix: "phase 0" -> "phase_0".
std::string column_prefix(std::string name) {
  std::replace_if(
      name.begin(), name.end(), [](char c) { return c == ' ' || c == ','; }, '_');
  return name;
}

// One point's row of the prediction table.
std::string point_row(const ScalingPrediction& p, const PredictedPoint& pt) {
  std::string measured = "-", difference = "-";
  if (const MeasuredRun* m = p.measured_at(pt.n)) measured = fmt::format("{:.6g}", m->aet_seconds);
  if (const auto d = p.difference_pct(pt)) difference = fmt::format("{:+.1f} %", *d);
  const auto [low, high] = bounds_text(pt.pet_interval, "-", 6);
  const std::string width =
      pt.pet_interval ? fmt::format("{:.1f}%", pt.pet_interval->width_pct(pt.pet_seconds)) : "-";
  return fmt::format(
      "{:>7} {:>14.6g} {:>12} {:>12} {:>7} {:>9.3f} {:>10.1f}% {:>14} {:>10} {:>6.1f}%  {}\n", pt.n,
      pt.pet_seconds, low, high, width, p.speedup(pt), 100 * p.efficiency(pt), measured, difference,
      100 * pt.covered, pt.traced ? "(traced n)" : "");
}

// The replayed PETs beside the simulated ones, each point's phases indented below it.
std::string replay_table(const ScalingPrediction& p) {
  std::string out = fmt::format(
      "\nSynthetic Signature (replay_mpi on the real machine) beside the simulator:\n"
      "  {:>7} {:>14} {:>14} {:>10} {:>12} {:>12}\n",
      "N", "simulated (s)", "replayed (s)", "difference", "low (s)", "high (s)");
  for (const PredictedPoint& pt : p.points) {
    if (!pt.replay_pet_seconds) continue;
    const auto [low, high] = bounds_text(pt.replay_interval, "-", 6);
    out += fmt::format("  {:>7} {:>14.6g} {:>14.6g} {:>+9.1f}% {:>12} {:>12}\n", pt.n,
                       pt.pet_seconds, *pt.replay_pet_seconds,
                       100 * (*pt.replay_pet_seconds - pt.pet_seconds) / pt.pet_seconds, low, high);
    for (const PhaseCheck& c : pt.phase_checks) {
      out += fmt::format("          {:<14.14} {:>14.6g} {:>14.6g} {:>+9.1f}%  {}\n", c.name,
                         c.simulated_seconds, c.replayed_seconds, c.difference_pct(),
                         c.flagged ? "FLAGGED: " + c.cause : "");
    }
  }
  out += fmt::format(
      "  (indented: each phase's PhaseET; FLAGGED when they differ by more than {:g} %; low, "
      "high: the replayed\n  PET with every phase at its fastest and at its slowest measured "
      "repetition)\n",
      100 * p.tolerance);
  return out;
}

// One point of the prediction's JSON, with its phases' cross-check when the replay ran.
nlohmann::json point_json(const ScalingPrediction& p, const PredictedPoint& pt) {
  nlohmann::json point = {{"n", pt.n},
                          {"pet_seconds", pt.pet_seconds},
                          {"speedup", p.speedup(pt)},
                          {"efficiency", p.efficiency(pt)},
                          {"traced", pt.traced},
                          {"simulated_events", pt.events},
                          {"simulation_wall_seconds", pt.sim_wall_seconds},
                          {"covered", pt.covered},
                          {"omitted", pt.omitted}};
  if (const auto d = p.difference_pct(pt)) point["difference_from_measured_pct"] = *d;
  if (pt.pet_interval) {
    point["pet_low_seconds"] = pt.pet_interval->low;
    point["pet_high_seconds"] = pt.pet_interval->high;
  }
  if (pt.replay_pet_seconds) point["replay_pet_seconds"] = *pt.replay_pet_seconds;
  if (pt.replay_interval) {
    point["replay_pet_low_seconds"] = pt.replay_interval->low;
    point["replay_pet_high_seconds"] = pt.replay_interval->high;
  }
  if (!pt.phase_checks.empty()) {
    point["phase_checks"] = nlohmann::json::array();
    for (const PhaseCheck& c : pt.phase_checks) {
      nlohmann::json check = {{"name", c.name},
                              {"weight", c.weight},
                              {"simulated_phase_et_seconds", c.simulated_seconds},
                              {"replayed_phase_et_seconds", c.replayed_seconds},
                              {"difference_pct", c.difference_pct()},
                              {"flagged", c.flagged}};
      if (c.flagged) {
        check["causes"] = c.causes;
        check["cause"] = c.cause;
      }
      point["phase_checks"].push_back(check);
    }
  }
  return point;
}

}  // namespace

std::string prediction_table(const ScalingPrediction& p) {
  std::string out =
      fmt::format("Predicted {} scaling of: {}\non platform {} ({} simulation, {} engine)\n\n",
                  p.weak_scaling ? "weak" : "strong", p.application, p.platform, p.mode, p.engine);
  out += fmt::format("{:>7} {:>14} {:>12} {:>12} {:>7} {:>9} {:>11} {:>14} {:>10} {:>7}  {}\n", "N",
                     "PET (s)", "low (s)", "high (s)", "width", "speedup", "efficiency",
                     "measured (s)", "pred-meas", "covers", "");
  for (const PredictedPoint& pt : p.points) out += point_row(p, pt);
  out += fmt::format(
      "\n{} and efficiency against the smallest N above, on the same platform.\n"
      "covers: the share of the run's time the predicted phases stand for (in the traced run "
      "at that n, else\nin the largest); what they leave out is listed below and not in the "
      "PET.\n"
      "measured: the traced run's AET on the machine it ran on. pred-meas compares the platform "
      "with that machine,\nnot only the model: runs with more ranks than cores are slowed by "
      "sharing them.\n{}\nmodel fit at the training runs (largest error, %):\n",
      p.weak_scaling ? "scaled speedup (N/n0 x PET(n0)/PET(N))" : "speedup (PET(n0)/PET(N))",
      p.interval.empty() ? "" : interval_note(p.interval_level));
  out += fmt::format("  {:<12} {:>8} {:>8} {:>8}  {}\n", "phase", "weight", "volume", "compute",
                     "pattern; weight");
  for (const PhaseFit& f : p.fits) {
    out += fmt::format("  {:<12} {:>8.2f} {:>8} {:>8.2f}  {}; W = {}\n", f.name, f.weight_error_pct,
                       f.volume_error_pct ? fmt::format("{:.2f}", *f.volume_error_pct) : "-",
                       f.compute_error_pct, f.pattern, f.weight_equation);
  }
  if (std::any_of(p.points.begin(), p.points.end(),
                  [](const PredictedPoint& pt) { return pt.replay_pet_seconds.has_value(); })) {
    out += replay_table(p);
  }
  if (p.weak_scaling) {
    out += "\nbest N: not named under weak scaling (the PET grows with the problem)\n";
  } else {
    out += "\n";
    for (const auto& [what, best] :
         {std::pair{"simulated", p.best_simulated()}, std::pair{"replayed", p.best_replayed()}}) {
      if (best) out += fmt::format("best N ({}): {}\n", what, best_n_text(*best, p.min_efficiency));
    }
  }
  for (const std::string& line : p.coverage) out += fmt::format("coverage: {}\n", line);
  for (const std::string& line : p.not_modelled) out += fmt::format("not modelled: {}\n", line);
  for (const std::string& line : p.warnings) out += fmt::format("WARNING: {}\n", line);
  return out;
}

std::string prediction_csv(const ScalingPrediction& p) {
  const std::vector<std::string> phases = checked_phases(p);
  const bool replayed = std::any_of(p.points.begin(), p.points.end(), [](const PredictedPoint& pt) {
    return pt.replay_pet_seconds.has_value();
  });
  std::string out =
      "n,pet_seconds,speedup,efficiency,traced,measured_aet_seconds,covered,pet_low_seconds,"
      "pet_high_seconds";
  if (replayed) out += ",replay_pet_seconds,replay_pet_low_seconds,replay_pet_high_seconds";
  for (const std::string& name : phases) {
    const std::string c = column_prefix(name);
    out += fmt::format(
        ",{0}_simulated_seconds,{0}_replayed_seconds,{0}_difference_pct,{0}_flagged,{0}_cause", c);
  }
  out += "\n";
  for (const PredictedPoint& pt : p.points) {
    std::string measured;
    if (const MeasuredRun* m = p.measured_at(pt.n))
      measured = fmt::format("{:.9g}", m->aet_seconds);
    const auto [low, high] = bounds_text(pt.pet_interval, "", 9);
    out += fmt::format("{},{:.9g},{:.6g},{:.6g},{},{},{:.6g},{},{}", pt.n, pt.pet_seconds,
                       p.speedup(pt), p.efficiency(pt), pt.traced ? 1 : 0, measured, pt.covered,
                       low, high);
    if (replayed) {
      std::string replay;
      if (pt.replay_pet_seconds) replay = fmt::format("{:.9g}", *pt.replay_pet_seconds);
      const auto [replay_low, replay_high] = bounds_text(pt.replay_interval, "", 9);
      out += fmt::format(",{},{},{}", replay, replay_low, replay_high);
    }
    for (const std::string& name : phases) {
      const auto c = std::find_if(pt.phase_checks.begin(), pt.phase_checks.end(),
                                  [&](const PhaseCheck& check) { return check.name == name; });
      if (c == pt.phase_checks.end()) {
        out += ",,,,,";
        continue;
      }
      // The cause is words with commas; the CSV has no quoted fields, so they become ';'.
      std::string cause = c->flagged ? c->cause : "";
      std::replace(cause.begin(), cause.end(), ',', ';');
      out += fmt::format(",{:.9g},{:.9g},{:.6g},{},{}", c->simulated_seconds, c->replayed_seconds,
                         c->difference_pct(), c->flagged ? 1 : 0, cause);
    }
    out += "\n";
  }
  return out;
}

nlohmann::json prediction_json(const ScalingPrediction& p) {
  nlohmann::json j = {{"format", "p3s-prediction 1"},
                      {"application", p.application},
                      {"scaling", p.weak_scaling ? "weak" : "strong"},
                      {"platform", p.platform},
                      {"mode", p.mode},
                      {"engine", p.engine},
                      {"points", nlohmann::json::array()},
                      {"measured", nlohmann::json::array()},
                      {"phases", nlohmann::json::array()},
                      {"coverage", p.coverage},
                      {"not_modelled", p.not_modelled},
                      {"warnings", p.warnings}};
  for (const PredictedPoint& pt : p.points) j["points"].push_back(point_json(p, pt));
  if (std::any_of(p.points.begin(), p.points.end(),
                  [](const PredictedPoint& pt) { return !pt.phase_checks.empty(); })) {
    j["tolerance"] = p.tolerance;
  }
  if (!p.interval.empty()) {
    j["interval"] = p.interval;
    j["interval_fit_level"] = p.interval_level;
  }
  if (!p.weak_scaling) {
    nlohmann::json best = {{"efficiency_threshold", p.min_efficiency}};
    if (const auto b = p.best_simulated()) best["simulated"] = best_n_json(*b);
    if (const auto b = p.best_replayed()) best["replayed"] = best_n_json(*b);
    j["best_n"] = best;
  }
  for (const MeasuredRun& m : p.measured) {
    j["measured"].push_back({{"n", m.n}, {"aet_seconds", m.aet_seconds}, {"run", m.run}});
  }
  for (const PhaseFit& f : p.fits) {
    nlohmann::json phase = {{"name", f.name},
                            {"pattern_modelled", f.pattern_modelled},
                            {"pattern", f.pattern},
                            {"weight", f.weight_equation},
                            {"weight_error_pct", f.weight_error_pct},
                            {"compute_error_pct", f.compute_error_pct}};
    if (f.volume_error_pct) phase["volume_error_pct"] = *f.volume_error_pct;
    j["phases"].push_back(phase);
  }
  return j;
}

void write_text(const std::filesystem::path& file, const std::string& text) {
  core::write_text_file(file, text);
}

}  // namespace p3s::report
