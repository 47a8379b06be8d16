#pragma once
// The communicators of one rank, described by who is in them relative to that rank. Trace ids
// of communicators are local to a rank's file and change when a program frees and recreates a
// communicator; the shape does not, so tokens use it.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/event.hpp"

namespace p3s::signature {

struct CommShape {
  // relative_rank of each member, in communicator rank order.
  std::vector<std::int32_t> members;
  bool operator==(const CommShape&) const = default;
};

class CommShapes {
 public:
  // Shape 0 is always MPI_COMM_WORLD.
  explicit CommShapes(const core::RankTrace& trace);

  // Index of the shape of communicator `comm_id` (a trace id); throws std::out_of_range for an
  // id the trace never defined (the reader already rejects those).
  std::int32_t shape_of(std::int32_t comm_id) const { return by_id_.at(comm_id); }
  const std::vector<CommShape>& shapes() const { return shapes_; }

 private:
  std::vector<CommShape> shapes_;
  std::unordered_map<std::int32_t, std::int32_t> by_id_;
};

}  // namespace p3s::signature
