#pragma once
// Where receivers mark the eager sends they have taken. SimGrid keeps a send in its sender's
// list of activities until the sender waits for it, and searches that list linearly at every
// completion, so an eager sender must still wait for its sends once they are over; with this
// board it knows when without asking SimGrid (a simcall each time).
#include <cstdint>
#include <vector>

namespace p3s::sim {

class EagerSendBoard {
 public:
  using Slot = std::uint32_t;

  Slot post() {
    if (free_.empty()) {
      taken_.push_back(0);
      return static_cast<Slot>(taken_.size() - 1);
    }
    const Slot slot = free_.back();
    free_.pop_back();
    taken_[slot] = 0;
    return slot;
  }
  void mark_taken(Slot slot) { taken_[slot] = 1; }
  bool taken(Slot slot) const { return taken_[slot] != 0; }
  // Only once taken: the receiver writes nothing afterwards.
  void release(Slot slot) { free_.push_back(slot); }

 private:
  std::vector<std::uint8_t> taken_;
  std::vector<Slot> free_;
};

}  // namespace p3s::sim
