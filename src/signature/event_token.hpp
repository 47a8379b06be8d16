#pragma once
// An event as the phase analysis compares it: what was done and with whom, written relative to
// the rank that did it, so the same call of the same loop is equal on every rank and every n.
#include <cstddef>
#include <cstdint>

#include "core/event.hpp"
#include "core/op.hpp"

namespace p3s::signature {

// Peer `peer` seen from `rank` among `nprocs`: (peer - rank) mod nprocs; the sentinels
// core::kNone and core::kAnySource pass through unchanged.
std::int32_t relative_rank(std::int32_t peer, std::int32_t rank, std::int32_t nprocs);

struct EventToken {
  core::Op op = core::Op::Barrier;
  std::int32_t dst = core::kNone;  // relative to the rank (relative_rank)
  std::int32_t tag = core::kNone;
  std::int64_t bytes = 0;
  std::int32_t src = core::kNone;  // relative, or core::kAnySource when never resolved
  std::int32_t rtag = core::kNone;
  std::int64_t rbytes = 0;
  std::int32_t comm = 0;            // index of the communicator's shape in the rank's CommShapes
  std::int32_t root = core::kNone;  // relative
  // Requests a completion or start acted on, for the calls where that count is part of the
  // program's structure (wait, waitall, startall); core::kNone for the others, whose count
  // depends on timing (waitsome, test...) and would break every repeat.
  std::int32_t requests = core::kNone;

  bool operator==(const EventToken&) const = default;
};

struct EventTokenHash {
  std::size_t operator()(const EventToken& t) const noexcept;
};

}  // namespace p3s::signature
