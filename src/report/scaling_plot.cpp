#include "report/scaling_plot.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <limits>

#include "core/xml_escape.hpp"
#include "report/log_axis.hpp"

namespace p3s::report {
namespace {

constexpr double kWidth = 1000, kHeight = 470;
constexpr double kTop = 70, kBottom = 390;
constexpr const char* kPredicted = "#1f5fbf";
constexpr const char* kMeasured = "#d9731a";
constexpr const char* kIdeal = "#777777";

struct Series {
  std::vector<std::pair<double, double>> points;  // (N, value)
  const char* colour;
  std::string name;
  bool line = true;
  bool dashed = false;
  bool squares = false;
};

// One panel: frame, ticks, grid, axis titles, series and legend.
std::string panel(double left, double right, const std::string& title, const std::string& y_title,
                  const std::vector<Series>& series, double y_base,
                  std::string (*y_label)(double)) {
  double xlo = std::numeric_limits<double>::max(), xhi = 0;
  double ylo = std::numeric_limits<double>::max(), yhi = 0;
  for (const Series& s : series) {
    for (const auto& [x, y] : s.points) {
      if (x <= 0 || y <= 0) continue;
      xlo = std::min(xlo, x), xhi = std::max(xhi, x);
      ylo = std::min(ylo, y), yhi = std::max(yhi, y);
    }
  }
  if (xhi == 0) return "";
  const LogAxis xa(xlo, xhi, left, right, 2);
  const LogAxis ya(ylo, yhi, kBottom, kTop, y_base);
  std::string out = fmt::format(
      "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" font-size=\"15\" "
      "font-weight=\"bold\">{}</text>\n",
      (left + right) / 2, kTop - 12, core::xml_escaped(title));
  for (const Tick& t : xa.ticks(count_label)) {
    const double x = xa.pixel(t.value);
    out += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#e4e4e4\"/>\n"
        "<text x=\"{0:.1f}\" y=\"{3}\" text-anchor=\"middle\" font-size=\"12\">{4}</text>\n",
        x, kTop, kBottom, kBottom + 18, t.label);
  }
  for (const Tick& t : ya.ticks(y_label)) {
    const double y = ya.pixel(t.value);
    out += fmt::format(
        "<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#e4e4e4\"/>\n"
        "<text x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\" font-size=\"12\">{5}</text>\n",
        left, y, right, left - 6, y + 4, t.label);
  }
  out += fmt::format(
      "<rect x=\"{0}\" y=\"{1}\" width=\"{2}\" height=\"{3}\" fill=\"none\" stroke=\"#333\"/>\n"
      "<text x=\"{4:.1f}\" y=\"{5}\" text-anchor=\"middle\" font-size=\"13\">processes N "
      "(log scale)</text>\n"
      "<text x=\"{6}\" y=\"{7:.1f}\" text-anchor=\"middle\" font-size=\"13\" "
      "transform=\"rotate(-90 {6} {7:.1f})\">{8}</text>\n",
      left, kTop, right - left, kBottom - kTop, (left + right) / 2, kBottom + 40, left - 62,
      (kTop + kBottom) / 2, core::xml_escaped(y_title));
  double legend_y = kTop + 18;
  for (const Series& s : series) {
    if (s.points.empty()) continue;
    std::string path;
    for (const auto& [x, y] : s.points) {
      path += fmt::format("{}{:.1f},{:.1f}", path.empty() ? "M" : " L", xa.pixel(x), ya.pixel(y));
    }
    if (s.line) {
      out += fmt::format("<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{}/>\n",
                         path, s.colour, s.dashed ? " stroke-dasharray=\"6 4\"" : "");
    }
    for (const auto& [x, y] : s.points) {
      if (s.dashed) break;
      out += s.squares ? fmt::format(
                             "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"9\" height=\"9\" "
                             "fill=\"{}\"/>\n",
                             xa.pixel(x) - 4.5, ya.pixel(y) - 4.5, s.colour)
                       : fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4\" fill=\"{}\"/>\n",
                                     xa.pixel(x), ya.pixel(y), s.colour);
    }
    if (s.line) {
      out += fmt::format(
          "<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"{3}\" "
          "stroke-width=\"2\"{4}/>\n",
          left + 10, legend_y, left + 34, s.colour, s.dashed ? " stroke-dasharray=\"6 4\"" : "");
    }
    if (s.squares) {
      out += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"9\" height=\"9\" fill=\"{}\"/>\n",
                         left + 17.5, legend_y - 4.5, s.colour);
    } else if (!s.dashed) {
      out += fmt::format("<circle cx=\"{}\" cy=\"{:.1f}\" r=\"4\" fill=\"{}\"/>\n", left + 22,
                         legend_y, s.colour);
    }
    out += fmt::format("<text x=\"{}\" y=\"{:.1f}\" font-size=\"12\">{}</text>\n", left + 40,
                       legend_y + 4, core::xml_escaped(s.name));
    legend_y += 17;
  }
  return out;
}

}  // namespace

std::string scaling_plot_svg(const ScalingPrediction& p) {
  Series pet{{}, kPredicted, "predicted PET (SimGrid)"};
  Series measured{{}, kMeasured, "measured AET of the traced runs", false, false, true};
  Series speedup{{}, kPredicted, p.weak_scaling ? "predicted scaled speedup" : "predicted speedup"};
  Series measured_speedup{{}, kMeasured, "measured speedup", false, false, true};
  Series ideal{{}, kIdeal, "ideal speedup (N / n0)", true, true};
  if (p.points.empty()) return "";
  const double n0 = static_cast<double>(p.points.front().n);
  for (const PredictedPoint& pt : p.points) {
    const auto n = static_cast<double>(pt.n);
    pet.points.emplace_back(n, pt.pet_seconds);
    speedup.points.emplace_back(n, p.speedup(pt));
    ideal.points.emplace_back(n, n / n0);
  }
  for (const MeasuredRun& m : p.measured) {
    measured.points.emplace_back(static_cast<double>(m.n), m.aet_seconds);
    if (const auto observed = p.measured_speedup(m)) {
      measured_speedup.points.emplace_back(static_cast<double>(m.n), *observed);
    }
  }
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"{2}\" y=\"24\" text-anchor=\"middle\" font-size=\"14\">{3}</text>\n",
      kWidth, kHeight, kWidth / 2,
      core::xml_escaped(fmt::format("{}  -  {} scaling on {} ({})", p.application,
                                    p.weak_scaling ? "weak" : "strong", p.platform, p.mode)));
  svg += panel(90, 470, "Predicted run time", "run time (log scale)", {pet, measured}, 10,
               seconds_label);
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
