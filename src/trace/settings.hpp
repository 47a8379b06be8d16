#pragma once
// What the tracer is told through the environment.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace p3s::trace {

inline constexpr std::size_t kDefaultBufferBytes = std::size_t{4} << 20;
// The smallest buffer still holds any event line with room to spare.
inline constexpr std::size_t kMinBufferBytes = std::size_t{64} << 10;
// A larger buffer gains nothing (a write per 1 GiB of trace is already rare) and every rank of
// a node allocates its own: above it, the default is used, with a warning.
inline constexpr std::size_t kMaxBufferBytes = std::size_t{1} << 30;
inline constexpr std::int64_t kDefaultCpuMinNs = 2000;

struct Settings {
  std::string directory;                           // P3S_TRACE_DIR: where the rank files go
  std::size_t buffer_bytes = kDefaultBufferBytes;  // P3S_TRACE_BUFFER
  std::int64_t cpu_min_ns = kDefaultCpuMinNs;      // P3S_CPU_MIN_NS (see BoundaryClock)
};

// nullopt when P3S_TRACE_DIR is unset or empty: the tracer then passes every call through.
// Malformed numbers fall back to their defaults, with a warning when `report` is set (rank 0
// reports, so a run of many ranks prints it once).
std::optional<Settings> settings_from_environment(bool report);

}  // namespace p3s::trace
