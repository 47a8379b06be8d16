#include "cli/share_option.hpp"

#include <fmt/core.h>

#include <charconv>
#include <string_view>

#include "cli/commands.hpp"

namespace p3s::cli {

double parse_share(const std::string& text, const char* flag) {
  std::string_view number = text;
  double scale = 1.0;
  if (number.ends_with('%')) {
    number.remove_suffix(1);
    scale = 0.01;
  }
  double value = 0;
  auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (number.empty() || ec != std::errc() || end != number.data() + number.size()) {
    throw UsageError(fmt::format("{} '{}' is not a number or a percentage", flag, text));
  }
  value *= scale;
  if (!(value >= 0 && value <= 1)) {
    throw UsageError(fmt::format("{} '{}' must lie between 0 and 1 (0 % and 100 %)", flag, text));
  }
  return value;
}

}  // namespace p3s::cli
