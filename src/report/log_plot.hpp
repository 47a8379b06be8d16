#pragma once
// One panel of an SVG picture on log-log axes: frame, ticks, grid, axis titles, series of
// points (lines, dots or squares) and their legend. The scaling curve and the calibration
// report draw with it.
#include <string>
#include <utility>
#include <vector>

namespace p3s::report {

struct PlotSeries {
  std::vector<std::pair<double, double>> points;  // (x, y), both positive
  const char* colour;
  std::string name;
  bool line = true;
  bool dashed = false;
  bool squares = false;
  // A band: `points` its lower edge and this its upper edge at the same x, drawn as a shaded
  // area (no line, no markers) when not empty.
  std::vector<std::pair<double, double>> upper = {};
};

struct PlotFrame {
  double left = 0, right = 0, top = 0, bottom = 0;  // pixels
  std::string title, x_title, y_title;
  double x_base = 2, y_base = 10;
  std::string (*x_label)(double) = nullptr;
  std::string (*y_label)(double) = nullptr;
  // Where the legend's symbols start (pixels): 0 puts it inside the frame, at its top left.
  double legend_left = 0;
};

// An SVG picture's opening: the root element, a white background and `title` on top; the
// panels follow, then "</svg>".
std::string svg_document_start(double width, double height, const std::string& title);

// The panel's SVG elements ("" when no series has a positive point).
std::string log_plot_panel(const PlotFrame& frame, const std::vector<PlotSeries>& series);

}  // namespace p3s::report
