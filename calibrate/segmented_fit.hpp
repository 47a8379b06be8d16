#pragma once
// Piecewise-linear least squares with breakpoints found by search: the points, sorted by x, are
// cut into consecutive segments, each fitted by its own line y = intercept + slope x, the cuts
// chosen by dynamic programming over every place between two points so that the weighted
// residual is smallest; how many segments is decided by the data (see fit_segments_auto).
#include <cstddef>
#include <vector>

namespace p3s::calibrate {

struct FitPoint {
  double x = 0;
  double y = 0;
  double weight = 1;  // e.g. 1 / y^2 for relative errors
};

struct LineSegment {
  std::size_t first = 0, last = 0;  // indices of its first and last point (inclusive)
  double intercept = 0, slope = 0;
};

struct SegmentedFit {
  std::vector<LineSegment> segments;  // in x order, covering every point once
  double residual = 0;                // weighted sum of squared residuals
};

// Both the intercept and the slope of every line are kept >= 0 (times and per-byte costs
// cannot be negative). Points must be sorted by strictly increasing x.
//
// The best fit with exactly `segments` lines of at least `min_points` points each, and when
// `min_span` > 0, each reaching from x to at least min_span x (message sizes: a segment of 16
// to 19 bytes is noise, not a protocol). No segments and an infinite residual when no such cut
// exists.
SegmentedFit fit_segments(const std::vector<FitPoint>& points, std::size_t segments,
                          std::size_t min_points, double min_span = 0);

// The number of segments (1 to `max_segments`) by the Bayesian information criterion, with the
// weighted residual per point floored at `noise_floor`^2 so that a fit already within the
// noise gains nothing from more breakpoints (with weights 1 / y^2, the floor is a relative
// error).
SegmentedFit fit_segments_auto(const std::vector<FitPoint>& points, std::size_t max_segments,
                               std::size_t min_points, double noise_floor, double min_span = 0);

}  // namespace p3s::calibrate
