#pragma once
// A logarithmic axis for the report's plots: maps values to pixels and picks readable ticks.
#include <string>
#include <vector>

namespace p3s::report {

struct Tick {
  double value = 0;
  std::string label;
};

class LogAxis {
 public:
  // Spans [lo, hi] (positive), widened to whole ticks, onto pixels [from, to].
  LogAxis(double lo, double hi, double from, double to, double base);
  double pixel(double value) const;
  double lo() const { return lo_; }
  double hi() const { return hi_; }
  // Powers of the base inside the span (with 2 and 5 between decades when base 10 spans few).
  std::vector<Tick> ticks(std::string (*label)(double)) const;

 private:
  double lo_, hi_, from_, to_, base_;
};

// Tick labels: 4096, 150k, 128k (2^17); 100 us, 2 ms, 3 s; 64 B, 16 KiB, 4 MiB.
std::string count_label(double value);
std::string seconds_label(double value);
std::string bytes_label(double value);

}  // namespace p3s::report
