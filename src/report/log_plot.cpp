#include "report/log_plot.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <limits>

#include "core/xml_escape.hpp"
#include "report/log_axis.hpp"

namespace p3s::report {

std::string svg_document_start(double width, double height, const std::string& title) {
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"{2}\" y=\"24\" text-anchor=\"middle\" font-size=\"14\">{3}</text>\n",
      width, height, width / 2, core::xml_escaped(title));
}

namespace {

// The smallest and largest positive coordinates of every series (lower and upper edges).
struct DataRange {
  double xlo = std::numeric_limits<double>::max(), xhi = 0;
  double ylo = std::numeric_limits<double>::max(), yhi = 0;
};

DataRange data_range(const std::vector<PlotSeries>& series) {
  DataRange r;
  for (const PlotSeries& s : series) {
    for (const auto* edge : {&s.points, &s.upper}) {
      for (const auto& [x, y] : *edge) {
        if (x <= 0 || y <= 0) continue;
        r.xlo = std::min(r.xlo, x), r.xhi = std::max(r.xhi, x);
        r.ylo = std::min(r.ylo, y), r.yhi = std::max(r.yhi, y);
      }
    }
  }
  return r;
}

// The panel's title, grid lines with their tick labels, frame and axis titles.
std::string frame_svg(const PlotFrame& f, const LogAxis& xa, const LogAxis& ya) {
  const double left = f.left, right = f.right, top = f.top, bottom = f.bottom;
  std::string out = fmt::format(
      "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" font-size=\"15\" "
      "font-weight=\"bold\">{}</text>\n",
      (left + right) / 2, top - 12, core::xml_escaped(f.title));
  for (const Tick& t : xa.ticks(f.x_label)) {
    const double x = xa.pixel(t.value);
    out += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#e4e4e4\"/>\n"
        "<text x=\"{0:.1f}\" y=\"{3}\" text-anchor=\"middle\" font-size=\"12\">{4}</text>\n",
        x, top, bottom, bottom + 18, t.label);
  }
  for (const Tick& t : ya.ticks(f.y_label)) {
    const double y = ya.pixel(t.value);
    out += fmt::format(
        "<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#e4e4e4\"/>\n"
        "<text x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\" font-size=\"12\">{5}</text>\n",
        left, y, right, left - 6, y + 4, t.label);
  }
  out += fmt::format(
      "<rect x=\"{0}\" y=\"{1}\" width=\"{2}\" height=\"{3}\" fill=\"none\" stroke=\"#333\"/>\n"
      "<text x=\"{4:.1f}\" y=\"{5}\" text-anchor=\"middle\" font-size=\"13\">{9}</text>\n"
      "<text x=\"{6}\" y=\"{7:.1f}\" text-anchor=\"middle\" font-size=\"13\" "
      "transform=\"rotate(-90 {6} {7:.1f})\">{8}</text>\n",
      left, top, right - left, bottom - top, (left + right) / 2, bottom + 40, left - 62,
      (top + bottom) / 2, core::xml_escaped(f.y_title), core::xml_escaped(f.x_title));
  return out;
}

// Where a series' legend entry goes: its swatch at x = left, its line's middle at y.
struct LegendEntry {
  double left = 0, y = 0;
};

// A band between `points` and `upper`, filled, with its legend entry.
std::string band_svg(const PlotSeries& s, const LogAxis& xa, const LogAxis& ya,
                     const LegendEntry& legend) {
  std::string area;
  for (const auto& [x, y] : s.points) {
    area += fmt::format("{}{:.1f},{:.1f}", area.empty() ? "M" : " L", xa.pixel(x), ya.pixel(y));
  }
  for (auto it = s.upper.rbegin(); it != s.upper.rend(); ++it) {
    area += fmt::format(" L{:.1f},{:.1f}", xa.pixel(it->first), ya.pixel(it->second));
  }
  return fmt::format(
      "<path d=\"{} Z\" fill=\"{}\" fill-opacity=\"0.2\" stroke=\"none\"/>\n"
      "<rect x=\"{}\" y=\"{:.1f}\" width=\"24\" height=\"10\" fill=\"{}\" "
      "fill-opacity=\"0.2\"/>\n"
      "<text x=\"{}\" y=\"{:.1f}\" font-size=\"12\">{}</text>\n",
      area, s.colour, legend.left, legend.y - 5, s.colour, legend.left + 30, legend.y + 4,
      core::xml_escaped(s.name));
}

// A curve: its line (when it has one), its markers (unless dashed).
std::string curve_svg(const PlotSeries& s, const LogAxis& xa, const LogAxis& ya) {
  std::string out;
  std::string path;
  for (const auto& [x, y] : s.points) {
    path += fmt::format("{}{:.1f},{:.1f}", path.empty() ? "M" : " L", xa.pixel(x), ya.pixel(y));
  }
  if (s.line) {
    out += fmt::format("<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{}/>\n", path,
                       s.colour, s.dashed ? " stroke-dasharray=\"6 4\"" : "");
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
  return out;
}

// A curve's legend entry: its line and marker as drawn, and its name.
std::string curve_legend_svg(const PlotSeries& s, const LegendEntry& legend) {
  std::string out;
  if (s.line) {
    out += fmt::format(
        "<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"{3}\" "
        "stroke-width=\"2\"{4}/>\n",
        legend.left, legend.y, legend.left + 24, s.colour,
        s.dashed ? " stroke-dasharray=\"6 4\"" : "");
  }
  if (s.squares) {
    out += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"9\" height=\"9\" fill=\"{}\"/>\n",
                       legend.left + 7.5, legend.y - 4.5, s.colour);
  } else if (!s.dashed) {
    out += fmt::format("<circle cx=\"{}\" cy=\"{:.1f}\" r=\"4\" fill=\"{}\"/>\n", legend.left + 12,
                       legend.y, s.colour);
  }
  out += fmt::format("<text x=\"{}\" y=\"{:.1f}\" font-size=\"12\">{}</text>\n", legend.left + 30,
                     legend.y + 4, core::xml_escaped(s.name));
  return out;
}

}  // namespace

std::string log_plot_panel(const PlotFrame& f, const std::vector<PlotSeries>& series) {
  const DataRange range = data_range(series);
  if (range.xhi == 0) return "";
  const LogAxis xa(range.xlo, range.xhi, f.left, f.right, f.x_base);
  const LogAxis ya(range.ylo, range.yhi, f.bottom, f.top, f.y_base);
  std::string out = frame_svg(f, xa, ya);
  LegendEntry legend{f.legend_left > 0 ? f.legend_left : f.left + 10, f.top + 18};
  for (const PlotSeries& s : series) {
    if (s.points.empty()) continue;
    if (!s.upper.empty()) {
      out += band_svg(s, xa, ya, legend);
    } else {
      out += curve_svg(s, xa, ya) + curve_legend_svg(s, legend);
    }
    legend.y += 17;
  }
  return out;
}

}  // namespace p3s::report
