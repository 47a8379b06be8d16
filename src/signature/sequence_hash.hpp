#pragma once
// Hash of a sequence of small integers (token or symbol ids), for maps keyed by loop bodies.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace p3s::signature {

struct SequenceHash {
  std::size_t operator()(const std::vector<std::uint32_t>& v) const noexcept {
    std::uint64_t h = v.size();
    for (std::uint32_t s : v) h = (h ^ s) * 0x100000001b3ULL;  // FNV-1a step per element
    return static_cast<std::size_t>(h);
  }
};

}  // namespace p3s::signature
