#include "ti/ti_requests.hpp"

#include "ti/ti_action.hpp"

namespace p3s::ti {

std::optional<std::size_t> TiPendingRequests::find(const TiRequestKey& key) const {
  // User tags are never negative; SMPI tags the requests of its collectives with negative ones.
  const bool collective = key.tag < 0 && key.tag != kTiAnyTag;
  for (std::size_t i = 0; i < pending_.size(); ++i) {
    const TiPendingRequest& p = pending_[i];
    if (p.collective != collective) continue;
    if (collective) return i;
    if (p.key.dst == key.dst && p.key.tag == key.tag &&
        (p.source_unknown || p.key.src == key.src)) {
      return i;
    }
  }
  return std::nullopt;
}

TiPendingRequest TiPendingRequests::take(std::size_t index) {
  TiPendingRequest taken = pending_.at(index);
  pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(index));
  return taken;
}

std::vector<TiPendingRequest> TiPendingRequests::take_all() {
  std::vector<TiPendingRequest> all;
  all.swap(pending_);
  return all;
}

}  // namespace p3s::ti
