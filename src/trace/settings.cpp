#include "trace/settings.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <string>
#include <string_view>

#include "trace/warning.hpp"

namespace p3s::trace {
namespace {

// The non-negative integer in environment variable `name`, or `fallback` when it is unset or
// not such a number.
std::int64_t integer_from_environment(const char* name, std::int64_t fallback, bool report) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  std::string_view value(text);
  std::int64_t parsed = 0;
  auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), parsed);
  if (error != std::errc() || end != value.data() + value.size() || parsed < 0) {
    if (report) {
      print_warning(std::string(name) + "='" + std::string(value) +
                    "' is not a non-negative integer; using " + std::to_string(fallback));
    }
    return fallback;
  }
  return parsed;
}

}  // namespace

std::optional<Settings> settings_from_environment(bool report) {
  const char* directory = std::getenv("P3S_TRACE_DIR");
  if (directory == nullptr || *directory == '\0') return std::nullopt;
  Settings settings;
  settings.directory = directory;
  auto buffer = integer_from_environment("P3S_TRACE_BUFFER",
                                         static_cast<std::int64_t>(kDefaultBufferBytes), report);
  if (static_cast<std::uint64_t>(buffer) > kMaxBufferBytes) {
    if (report) {
      print_warning("P3S_TRACE_BUFFER=" + std::to_string(buffer) + " is more than " +
                    std::to_string(kMaxBufferBytes) + " bytes per rank; using " +
                    std::to_string(kDefaultBufferBytes));
    }
    buffer = static_cast<std::int64_t>(kDefaultBufferBytes);
  }
  settings.buffer_bytes = std::max(static_cast<std::size_t>(buffer), kMinBufferBytes);
  settings.cpu_min_ns = integer_from_environment("P3S_CPU_MIN_NS", kDefaultCpuMinNs, report);
  return settings;
}

}  // namespace p3s::trace
