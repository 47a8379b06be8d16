#pragma once
// Arithmetic on values read from files: a sum or product that does not fit is reported, never
// wrapped (signed overflow is undefined behaviour, and a wrapped byte count is a wrong answer).
#include <cstdint>
#include <optional>

namespace p3s::core {

inline std::optional<std::int64_t> checked_add(std::int64_t a, std::int64_t b) {
  std::int64_t out = 0;
  if (__builtin_add_overflow(a, b, &out)) return std::nullopt;
  return out;
}

inline std::optional<std::int64_t> checked_mul(std::int64_t a, std::int64_t b) {
  std::int64_t out = 0;
  if (__builtin_mul_overflow(a, b, &out)) return std::nullopt;
  return out;
}

// |value| without overflow (std::llabs(INT64_MIN) is undefined).
inline std::uint64_t magnitude(std::int64_t value) {
  return value < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(value)
                   : static_cast<std::uint64_t>(value);
}

// The largest message or collective volume a file may state: 2^50 bytes (1 PiB), far above
// anything one MPI call moves, and small enough that sums over millions of calls stay in range.
inline constexpr std::int64_t kMaxBytes = std::int64_t{1} << 50;

}  // namespace p3s::core
