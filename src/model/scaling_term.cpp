#include "model/scaling_term.hpp"

#include <fmt/format.h>

#include <cmath>

namespace p3s::model {

double ScalingTerm::at(double x) const {
  double value = exponent == 0.0 ? 1.0 : std::pow(x, exponent);
  if (log2_power != 0) value *= std::pow(std::log2(x), log2_power);
  return value;
}

std::string ScalingTerm::text(std::string_view symbol) const {
  // A symbol such as sqrt(n) reads unambiguously with a power after it; only a bare name
  // could be misread, and n is the only bare name used.
  std::string out;
  if (exponent != 0.0) {
    out = symbol;
    if (exponent != 1.0) out += "^" + exponent_text(exponent);
  }
  if (log2_power != 0) {
    if (!out.empty()) out += " * ";
    out += fmt::format("log2({})", symbol);
    if (log2_power != 1) out += fmt::format("^{}", log2_power);
  }
  return out.empty() ? "1" : out;
}

std::vector<double> default_exponents() {
  return {-1.0,    -2.0 / 3, -0.5, -1.0 / 3, 0.0,     0.25, 1.0 / 3, 0.5,
          2.0 / 3, 0.75,     1.0,  5.0 / 4,  4.0 / 3, 1.5,  2.0};
}

std::string exponent_text(double exponent) {
  for (int den = 1; den <= 4; ++den) {
    const double num = exponent * den;
    if (std::abs(num - std::round(num)) < 1e-9) {
      const auto whole = static_cast<long>(std::lround(num));
      return den == 1 ? fmt::format("{}", whole) : fmt::format("{}/{}", whole, den);
    }
  }
  return fmt::format("{:.4g}", exponent);
}

}  // namespace p3s::model
