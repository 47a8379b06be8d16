#pragma once
// One term of the performance model normal form: x^i * log2(x)^j, where x is the process
// count n or, for the displacement model, n's index in its process count family.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace p3s::model {

// The term's x: n, n's index in its process count family, or a grid face (scaling_fit.hpp).
enum class TermVariable : std::uint8_t { N, Index, Face };

struct ScalingTerm {
  TermVariable variable = TermVariable::N;
  double exponent = 0.0;
  int log2_power = 0;

  double at(double x) const;
  // With x written as `symbol`: "n^-1/2", "log2(n)^2", "sqrt(n)".
  std::string text(std::string_view symbol) const;

  bool operator==(const ScalingTerm&) const = default;
};

// The exponents the search tries: the usual Extra-P set plus the negative ones that per-rank
// quantities take under strong scaling (n^-1 volume, n^-1/2 2D halo, n^-2/3 3D face).
std::vector<double> default_exponents();

// "1/2", "-2/3", "2" for small fractions; otherwise a short decimal such as "-0.482".
std::string exponent_text(double exponent);

}  // namespace p3s::model
