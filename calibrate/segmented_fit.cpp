#include "calibrate/segmented_fit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace p3s::calibrate {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

struct Line {
  double intercept = 0, slope = 0, residual = kInfinity;
};

double residual_of(const std::vector<FitPoint>& p, std::size_t first, std::size_t last, double a,
                   double b) {
  double r = 0;
  for (std::size_t i = first; i <= last; ++i) {
    const double e = p[i].y - (a + b * p[i].x);
    r += p[i].weight * e * e;
  }
  return r;
}

// Weighted least squares of one line over points first..last, centred for precision (sizes
// reach 1e7 and times 1e-6), with the intercept and the slope kept >= 0.
Line fit_line(const std::vector<FitPoint>& p, std::size_t first, std::size_t last) {
  double sw = 0, sx = 0, sy = 0;
  for (std::size_t i = first; i <= last; ++i) {
    sw += p[i].weight;
    sx += p[i].weight * p[i].x;
    sy += p[i].weight * p[i].y;
  }
  if (!(sw > 0)) return {};
  const double xm = sx / sw, ym = sy / sw;
  double sxx = 0, sxy = 0;
  for (std::size_t i = first; i <= last; ++i) {
    sxx += p[i].weight * (p[i].x - xm) * (p[i].x - xm);
    sxy += p[i].weight * (p[i].x - xm) * (p[i].y - ym);
  }
  Line l;
  l.slope = sxx > 0 ? sxy / sxx : 0;
  l.intercept = ym - l.slope * xm;
  if (l.slope < 0) {
    // Flat: the best constant.
    l.slope = 0;
    l.intercept = ym;
  }
  if (l.intercept < 0) {
    // Through the origin: slope = sum(w x y) / sum(w x^2).
    double xy = 0, xx = 0;
    for (std::size_t i = first; i <= last; ++i) {
      xy += p[i].weight * p[i].x * p[i].y;
      xx += p[i].weight * p[i].x * p[i].x;
    }
    l.intercept = 0;
    l.slope = xx > 0 ? std::max(0.0, xy / xx) : 0;
  }
  l.intercept = std::max(0.0, l.intercept);
  l.residual = residual_of(p, first, last, l.intercept, l.slope);
  return l;
}

// line[i][j]: the best line over points i..j, for the spans of at least `min_points` points
// that reach `min_span` in x (when positive); the others have an infinite residual.
std::vector<std::vector<Line>> lines_over_spans(const std::vector<FitPoint>& points,
                                                std::size_t min_points, double min_span) {
  const std::size_t n = points.size();
  std::vector<std::vector<Line>> line(n, std::vector<Line>(n));
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + min_points - 1; j < n; ++j) {
      if (min_span <= 0 || points[j].x >= min_span * points[i].x) {
        line[i][j] = fit_line(points, i, j);
      }
    }
  }
  return line;
}

}  // namespace

SegmentedFit fit_segments(const std::vector<FitPoint>& points, std::size_t segments,
                          std::size_t min_points, double min_span) {
  const std::size_t n = points.size();
  min_points = std::max<std::size_t>(min_points, 1);
  if (segments == 0 || n < segments * min_points) {
    throw std::invalid_argument("too few points for the segments asked");
  }
  for (std::size_t i = 1; i < n; ++i) {
    if (!(points[i].x > points[i - 1].x)) {
      throw std::invalid_argument("points must be sorted by increasing x");
    }
  }
  const std::vector<std::vector<Line>> line = lines_over_spans(points, min_points, min_span);
  // best[k][j]: the smallest residual of points 0..j-1 in k segments; cut[k][j] where the last
  // of them starts.
  std::vector<std::vector<double>> best(segments + 1, std::vector<double>(n + 1, kInfinity));
  std::vector<std::vector<std::size_t>> cut(segments + 1, std::vector<std::size_t>(n + 1, 0));
  best[0][0] = 0;
  for (std::size_t k = 1; k <= segments; ++k) {
    for (std::size_t j = k * min_points; j <= n; ++j) {
      for (std::size_t i = (k - 1) * min_points; i + min_points <= j; ++i) {
        if (best[k - 1][i] == kInfinity) continue;
        const double r = best[k - 1][i] + line[i][j - 1].residual;
        if (r < best[k][j]) best[k][j] = r, cut[k][j] = i;
      }
    }
  }
  SegmentedFit fit;
  fit.residual = best[segments][n];
  if (fit.residual == kInfinity) return fit;
  for (std::size_t k = segments, j = n; k > 0; --k) {
    const std::size_t i = cut[k][j];
    const Line& l = line[i][j - 1];
    fit.segments.push_back({i, j - 1, l.intercept, l.slope});
    j = i;
  }
  std::reverse(fit.segments.begin(), fit.segments.end());
  return fit;
}

SegmentedFit fit_segments_auto(const std::vector<FitPoint>& points, std::size_t max_segments,
                               std::size_t min_points, double noise_floor, double min_span) {
  const std::size_t n = points.size();
  const double floor = noise_floor * noise_floor;
  SegmentedFit chosen;
  double chosen_score = kInfinity;
  const double penalty = 3 * std::log(static_cast<double>(n));  // intercept, slope, breakpoint
  for (std::size_t k = 1; k <= max_segments && k * std::max<std::size_t>(min_points, 1) <= n; ++k) {
    SegmentedFit fit = fit_segments(points, k, min_points, min_span);
    if (fit.segments.empty()) continue;
    const double per_point = std::max(fit.residual / static_cast<double>(n), floor);
    const double score =
        static_cast<double>(n) * std::log(per_point) + penalty * static_cast<double>(k);
    if (score < chosen_score - 1e-9) chosen = std::move(fit), chosen_score = score;
  }
  if (chosen.segments.empty()) throw std::invalid_argument("too few points to fit a line");
  return chosen;
}

}  // namespace p3s::calibrate
