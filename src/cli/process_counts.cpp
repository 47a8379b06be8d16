#include "cli/process_counts.hpp"

#include <fmt/core.h>

#include <stdexcept>

#include "cli/commands.hpp"
#include "core/rank_list.hpp"

namespace p3s::cli {

std::vector<std::int64_t> parse_process_counts(const std::string& text, const std::string& flag) {
  std::vector<std::int32_t> counts;
  try {
    counts = core::parse_rank_list(text);
  } catch (const std::invalid_argument& e) {
    throw UsageError(
        fmt::format("{} '{}': {} (process counts, e.g. 64,256,1024)", flag, text, e.what()));
  }
  for (const std::int32_t n : counts) {
    if (n < 1) throw UsageError(fmt::format("{}: '{}' is not a process count", flag, n));
  }
  return {counts.begin(), counts.end()};
}

}  // namespace p3s::cli
