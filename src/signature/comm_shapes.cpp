#include "signature/comm_shapes.hpp"

#include <algorithm>

#include "signature/event_token.hpp"

namespace p3s::signature {

CommShapes::CommShapes(const core::RankTrace& trace) {
  auto shape_index = [this](CommShape shape) {
    auto it = std::find(shapes_.begin(), shapes_.end(), shape);
    if (it != shapes_.end()) return static_cast<std::int32_t>(it - shapes_.begin());
    shapes_.push_back(std::move(shape));
    return static_cast<std::int32_t>(shapes_.size() - 1);
  };
  CommShape world;
  for (std::int32_t r = 0; r < trace.nprocs; ++r) {
    world.members.push_back(relative_rank(r, trace.rank, trace.nprocs));
  }
  shape_index(std::move(world));
  // Programs create few communicators, so a linear search per definition is enough.
  for (const core::Communicator& comm : trace.comms) {
    CommShape shape;
    for (std::int32_t member : comm.members) {
      shape.members.push_back(relative_rank(member, trace.rank, trace.nprocs));
    }
    by_id_[comm.id] = shape_index(std::move(shape));
  }
}

}  // namespace p3s::signature
