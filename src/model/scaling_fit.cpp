#include "model/scaling_fit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

namespace p3s::model {
namespace {

constexpr std::array<std::string_view, 5> kFormNames = {"constant", "normal_form", "power_law",
                                                        "displacement", "face"};

}  // namespace

std::string_view scaling_form_name(ScalingForm form) {
  return kFormNames[static_cast<std::size_t>(form)];
}

ScalingForm scaling_form_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kFormNames.size(); ++i) {
    if (kFormNames[i] == name) return static_cast<ScalingForm>(i);
  }
  throw std::invalid_argument("unknown scaling form '" + std::string(name) + "'");
}

double GridFace::at(double n) const {
  const auto count = static_cast<std::int64_t>(std::llround(n));
  if (static_cast<double>(count) != n) return std::nan("");
  const std::optional<std::vector<std::int64_t>> extent = grid_extent(shape, count);
  if (!extent) return std::nan("");
  double share = 1;
  for (std::size_t e = 0; e < extent->size(); ++e) {
    if (static_cast<int>(e) == dimension) continue;
    const std::int64_t ranks = (*extent)[e];
    share /= static_cast<double>(planes > 0 ? std::min<std::int64_t>(ranks, planes) : ranks);
  }
  return share;
}

std::string GridFace::symbol() const {
  std::string out;
  for (int e = 0; e < grid_dimensions(shape); ++e) {
    if (e == dimension) continue;
    const char coordinate = "ijk"[e];
    out += fmt::format("{}{}", out.empty() ? "" : " ",
                       planes > 0 ? fmt::format("min(p_{}, {})", coordinate, planes)
                                  : fmt::format("p_{}", coordinate));
  }
  // The grid named: the same dimension's face differs between shapes.
  return fmt::format("1/({}) [{}]", out, grid_shape_name(shape));
}

double ScalingFit::at(double n) const {
  double value = constant;
  for (const FittedTerm& t : terms) {
    const double x = t.term.variable == TermVariable::Index  ? family.index_of(n)
                     : t.term.variable == TermVariable::Face ? face.at(n)
                                                             : n;
    value += t.coefficient * t.term.at(x);
  }
  return value;
}

std::string ScalingFit::equation() const {
  std::string out;
  auto append = [&out](double value, const std::string& factor) {
    const std::string magnitude = number_text(std::abs(value));
    const std::string body = factor.empty() ? magnitude : magnitude + " * " + factor;
    if (out.empty()) {
      out = value < 0 ? "-" + body : body;
    } else {
      out += (value < 0 ? " - " : " + ") + body;
    }
  };
  for (const FittedTerm& t : terms) {
    const std::string symbol = t.term.variable == TermVariable::Index
                                   ? std::string(family.index_symbol())
                               : t.term.variable == TermVariable::Face ? face.symbol()
                                                                       : std::string("n");
    append(t.coefficient, t.term.text(symbol));
  }
  if (constant != 0.0 || out.empty()) append(constant, "");
  return out;
}

std::string number_text(double value) {
  // A coefficient that least squares returned as 999999.9999999 reads better as the integer
  // it is; below 2^53 every integer is exact in a double, so it can be printed in full.
  const double whole = std::round(value);
  if (std::abs(value - whole) <= 1e-9 * std::max(1.0, std::abs(value)) &&
      std::abs(whole) < 9.007199254740992e15) {
    return fmt::format("{:.0f}", whole);
  }
  return fmt::format("{:.6g}", value);
}

}  // namespace p3s::model
