#pragma once
// Exact integer helpers shared by the peer rules: they must never round, because a rank that
// is off by one is a different rank.
#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>

namespace p3s::model {

// r with r^degree == n exactly (n >= 0), else nothing.
inline std::optional<std::int64_t> exact_root(std::int64_t n, int degree) {
  if (n < 0) return std::nullopt;
  const double guess =
      degree == 2 ? std::sqrt(static_cast<double>(n)) : std::cbrt(static_cast<double>(n));
  const auto near = static_cast<std::int64_t>(std::llround(guess));
  // The floating root can be off by one for large n; look at both neighbours.
  for (std::int64_t r = near - 1; r <= near + 1; ++r) {
    if (r < 0) continue;
    std::int64_t power = 1;
    for (int i = 0; i < degree; ++i) power *= r;
    if (power == n) return r;
  }
  return std::nullopt;
}

// log2(n) when n is a power of two, else nothing.
inline std::optional<std::int64_t> exact_log2(std::int64_t n) {
  if (n < 1 || !std::has_single_bit(static_cast<std::uint64_t>(n))) return std::nullopt;
  return std::countr_zero(static_cast<std::uint64_t>(n));
}

// Mathematical modulo: the result is in [0, m) for m > 0.
inline std::int64_t floor_mod(std::int64_t a, std::int64_t m) {
  const std::int64_t r = a % m;
  return r < 0 ? r + m : r;
}

}  // namespace p3s::model
