#include "report/scaling_plot.hpp"

#include <fmt/core.h>

#include <algorithm>

#include "report/log_axis.hpp"
#include "report/log_plot.hpp"

namespace p3s::report {
namespace {

constexpr double kWidth = 1000, kHeight = 470;
constexpr double kTop = 70, kBottom = 390;
constexpr const char* kPredicted = "#1f5fbf";
constexpr const char* kMeasured = "#d9731a";
constexpr const char* kIdeal = "#777777";
constexpr const char* kReplayed = "#2a9d4b";
constexpr const char* kFlagged = "#d62728";

using Series = PlotSeries;

// One panel: N on a log2 axis against `y_title`.
std::string panel(double left, double right, const std::string& title, const std::string& y_title,
                  const std::vector<Series>& series, double y_base,
                  std::string (*y_label)(double)) {
  return log_plot_panel({left, right, kTop, kBottom, title, "processes N (log scale)", y_title, 2,
                         y_base, count_label, y_label},
                        series);
}

}  // namespace

std::string scaling_plot_svg(const ScalingPrediction& p) {
  Series pet{{}, kPredicted, "predicted PET (SimGrid)"};
  Series measured{{}, kMeasured, "measured AET of the traced runs", false, false, true};
  Series speedup{{}, kPredicted, p.weak_scaling ? "predicted scaled speedup" : "predicted speedup"};
  Series measured_speedup{{}, kMeasured, "measured speedup", false, false, true};
  Series ideal{{}, kIdeal, "ideal speedup (N / n0)", true, true};
  Series band{{}, kPredicted, "PET interval (the model's fits at the ends of their bands)"};
  Series replayed{{}, kReplayed, "replayed PET (Synthetic Signature)"};
  Series replayed_band{{}, kReplayed, "replayed PET over its measured repetitions"};
  Series flagged{
      {},    kFlagged, fmt::format("a phase differs by more than {:g} %", 100 * p.tolerance),
      false, false,    true};
  if (p.points.empty()) return "";
  const double n0 = static_cast<double>(p.points.front().n);
  for (const PredictedPoint& pt : p.points) {
    const auto n = static_cast<double>(pt.n);
    pet.points.emplace_back(n, pt.pet_seconds);
    if (pt.pet_interval) {
      band.points.emplace_back(n, pt.pet_interval->low);
      band.upper.emplace_back(n, pt.pet_interval->high);
    }
    speedup.points.emplace_back(n, p.speedup(pt));
    ideal.points.emplace_back(n, n / n0);
    if (pt.replay_pet_seconds) replayed.points.emplace_back(n, *pt.replay_pet_seconds);
    if (pt.replay_interval) {
      replayed_band.points.emplace_back(n, pt.replay_interval->low);
      replayed_band.upper.emplace_back(n, pt.replay_interval->high);
    }
    if (std::any_of(pt.phase_checks.begin(), pt.phase_checks.end(),
                    [](const PhaseCheck& c) { return c.flagged; })) {
      flagged.points.emplace_back(n, pt.replay_pet_seconds.value_or(pt.pet_seconds));
    }
  }
  for (const MeasuredRun& m : p.measured) {
    measured.points.emplace_back(static_cast<double>(m.n), m.aet_seconds);
    if (const auto observed = p.measured_speedup(m)) {
      measured_speedup.points.emplace_back(static_cast<double>(m.n), *observed);
    }
  }
  std::string svg =
      svg_document_start(kWidth, kHeight,
                         fmt::format("{}  -  {} scaling on {} ({})", p.application,
                                     p.weak_scaling ? "weak" : "strong", p.platform, p.mode));
  svg += panel(90, 470, "Predicted run time", "run time (log scale)",
               {band, pet, measured, replayed_band, replayed, flagged}, 10, seconds_label);
  svg += panel(600, 980,
               fmt::format("{} over N = {}", p.weak_scaling ? "Scaled speedup" : "Speedup",
                           p.points.front().n),
               "speedup (log scale)", {ideal, speedup, measured_speedup}, 2, count_label);
  if (!p.measured.empty()) {
    svg += fmt::format(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\" fill=\"#555\">"
        "measured: each traced run's AET on the machine it ran on (oversubscribed runs are "
        "slower than their real machine)</text>\n",
        kWidth / 2, kHeight - 12);
  }
  return svg + "</svg>\n";
}

}  // namespace p3s::report
