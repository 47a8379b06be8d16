#pragma once
// Slots in a vector reused through a list of free ones (flows, groups, transfers of the fluid
// engine): their ids stay small and their state in place.
#include <cstdint>
#include <vector>

namespace p3s::sim {

// The id of a free slot of `slots`, taken from `free` or added (default-constructed).
template <class T>
std::uint32_t take_slot(std::vector<T>& slots, std::vector<std::uint32_t>& free) {
  if (free.empty()) {
    slots.emplace_back();
    return static_cast<std::uint32_t>(slots.size() - 1);
  }
  const std::uint32_t id = free.back();
  free.pop_back();
  return id;
}

}  // namespace p3s::sim
