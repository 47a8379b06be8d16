#include "report/whatif_plot.hpp"

#include <fmt/core.h>

#include "report/log_axis.hpp"
#include "report/log_plot.hpp"

namespace p3s::report {
namespace {

constexpr double kWidth = 1000, kHeight = 470;
// Distinct on white and for the common colour-vision deficiencies (Okabe and Ito's palette),
// then dashed when there are more variants than colours.
constexpr const char* kColours[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                    "#e69f00", "#56b4e9", "#000000", "#f0e442"};
constexpr std::size_t kColourCount = sizeof(kColours) / sizeof(kColours[0]);

}  // namespace

std::string whatif_plot_svg(const WhatifPrediction& p) {
  if (p.points.empty()) return "";
  std::vector<PlotSeries> series;
  for (std::size_t v = 0; v < p.variants.size(); ++v) {
    PlotSeries s{{}, kColours[v % kColourCount], p.variants[v].id + "  " + p.variants[v].name};
    s.dashed = v >= kColourCount;
    for (const std::int64_t n : p.ns) {
      if (const auto pet = p.pet(v, n)) s.points.emplace_back(static_cast<double>(n), *pet);
    }
    series.push_back(std::move(s));
  }
  std::string svg = svg_document_start(kWidth, kHeight,
                                       fmt::format("{}  -  what if ({} scaling, {})", p.application,
                                                   p.weak_scaling ? "weak" : "strong", p.mode));
  PlotFrame frame{90,
                  600,
                  70,
                  390,
                  "Predicted run time per platform variant",
                  "processes N (log scale)",
                  "PET (log scale)",
                  2,
                  10,
                  count_label,
                  seconds_label};
  frame.legend_left = 620;
  svg += log_plot_panel(frame, series);
  return svg + "</svg>\n";
}

}  // namespace p3s::report
