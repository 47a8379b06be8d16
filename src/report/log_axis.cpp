#include "report/log_axis.hpp"

#include <fmt/core.h>

#include <cmath>

namespace p3s::report {

LogAxis::LogAxis(double lo, double hi, double from, double to, double base)
    : from_(from), to_(to), base_(base) {
  const double l = std::floor(std::log(lo) / std::log(base) + 1e-9);
  double h = std::ceil(std::log(hi) / std::log(base) - 1e-9);
  if (h <= l) h = l + 1;
  lo_ = std::pow(base, l);
  hi_ = std::pow(base, h);
}

double LogAxis::pixel(double value) const {
  const double t = std::log(value / lo_) / std::log(hi_ / lo_);
  return from_ + t * (to_ - from_);
}

std::vector<Tick> LogAxis::ticks(std::string (*label)(double)) const {
  std::vector<Tick> out;
  const int steps = static_cast<int>(std::lround(std::log(hi_ / lo_) / std::log(base_)));
  const int stride = steps > 8 ? 2 : 1;
  for (int i = 0; i <= steps; i += stride) {
    const double v = lo_ * std::pow(base_, i);
    out.push_back({v, label(v)});
    if (base_ == 10 && steps <= 2 && i < steps) {
      for (double m : {2.0, 5.0}) out.push_back({v * m, label(v * m)});
    }
  }
  return out;
}

std::string count_label(double v) {
  // Powers of two from 2^17 on, the ticks of a process-count axis, in binary multiples as
  // process counts are usually said: 131072 -> 128k, 1048576 -> 1M.
  const double exponent = std::log2(v);
  if (v >= 131072 && exponent == std::floor(exponent)) {
    return v >= 1048576 ? fmt::format("{:g}M", v / 1048576) : fmt::format("{:g}k", v / 1024);
  }
  if (v >= 1e6) return fmt::format("{:g}M", v / 1e6);
  if (v >= 1e5) return fmt::format("{:g}k", v / 1e3);
  return fmt::format("{:g}", v);
}

std::string seconds_label(double v) {
  if (v >= 1) return fmt::format("{:g} s", v);
  if (v >= 1e-3) return fmt::format("{:g} ms", std::round(v * 1e6) / 1e3);
  if (v >= 1e-6) return fmt::format("{:g} \u00b5s", std::round(v * 1e9) / 1e3);
  return fmt::format("{:g} ns", v * 1e9);
}

std::string bytes_label(double v) {
  if (v >= 1048576) return fmt::format("{:g} MiB", v / 1048576);
  if (v >= 1024) return fmt::format("{:g} KiB", v / 1024);
  return fmt::format("{:g} B", v);
}

}  // namespace p3s::report
