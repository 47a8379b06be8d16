#include "cli/platform_variant_flags.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string_view>

#include "cli/commands.hpp"

namespace p3s::cli {
namespace {

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::string_view rest = text;
  for (;;) {
    const std::size_t at = rest.find(',');
    items.emplace_back(rest.substr(0, at));
    if (at == std::string_view::npos) return items;
    rest.remove_prefix(at + 1);
  }
}

bool positive_number(std::string_view text, double& value) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return !text.empty() && ec == std::errc() && end == text.data() + text.size() &&
         std::isfinite(value) && value > 0;
}

}  // namespace

std::vector<predict::ScaleFactor> parse_scale_factors(const std::string& text,
                                                      const std::string& flag) {
  std::vector<predict::ScaleFactor> out;
  for (const std::string& item : split_list(text)) {
    const char op = item.empty() ? '\0' : item.front();
    double value = 0;
    if ((op != 'x' && op != '*' && op != '/') ||
        !positive_number(std::string_view(item).substr(1), value)) {
      throw UsageError(fmt::format(
          "{} '{}': '{}' is not a factor: write x2 or *2 (times 2) or /2 (divided by 2)", flag,
          text, item));
    }
    const double factor = op == '/' ? 1 / value : value;
    for (const predict::ScaleFactor& f : out) {
      if (predict::same_factor(f.factor, factor)) {
        throw UsageError(
            fmt::format("{} '{}': {} and {} are the same factor", flag, text, f.text, item));
      }
    }
    out.push_back({item, factor});
  }
  return out;
}

std::vector<double> parse_cpu_speedups(const std::string& text) {
  std::vector<double> out;
  for (const std::string& item : split_list(text)) {
    double value = 0;
    if (!positive_number(item, value)) {
      throw UsageError(
          fmt::format("--cpu-speedup '{}': '{}' is not a positive number", text, item));
    }
    for (const double v : out) {
      if (predict::same_factor(v, value)) {
        throw UsageError(fmt::format("--cpu-speedup '{}': {} is given twice", text, item));
      }
    }
    out.push_back(value);
  }
  return out;
}

std::vector<sim::Topology> parse_topologies(const std::string& text) {
  std::vector<sim::Topology> out;
  for (const std::string& item : split_list(text)) {
    sim::Topology t{};
    try {
      t = sim::topology_from_name(item);
    } catch (const std::invalid_argument& e) {
      throw UsageError(fmt::format("--topology '{}': {}", text, e.what()));
    }
    if (std::find(out.begin(), out.end(), t) != out.end()) {
      throw UsageError(fmt::format("--topology '{}': {} is given twice", text, item));
    }
    out.push_back(t);
  }
  return out;
}

}  // namespace p3s::cli
