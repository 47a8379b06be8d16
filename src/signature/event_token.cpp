#include "signature/event_token.hpp"

namespace p3s::signature {

std::int32_t relative_rank(std::int32_t peer, std::int32_t rank, std::int32_t nprocs) {
  if (peer < 0) return peer;
  // In 64 bits: peer - rank + nprocs passes 2^31 for runs of more than 2^30 ranks.
  return static_cast<std::int32_t>((std::int64_t{peer} - rank + nprocs) % nprocs);
}

std::size_t EventTokenHash::operator()(const EventToken& t) const noexcept {
  // Tokens are interned once per event, so this sits on the hot path: mix the fields with a
  // cheap multiplicative hash instead of hashing each one through std::hash.
  std::uint64_t h = static_cast<std::uint64_t>(t.op);
  auto mix = [&h](std::uint64_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
  mix(static_cast<std::uint32_t>(t.dst));
  mix(static_cast<std::uint32_t>(t.tag));
  mix(static_cast<std::uint64_t>(t.bytes));
  mix(static_cast<std::uint32_t>(t.src));
  mix(static_cast<std::uint32_t>(t.rtag));
  mix(static_cast<std::uint64_t>(t.rbytes));
  mix(static_cast<std::uint32_t>(t.comm));
  mix(static_cast<std::uint32_t>(t.root));
  mix(static_cast<std::uint32_t>(t.requests));
  return static_cast<std::size_t>(h * 0xff51afd7ed558ccdULL);
}

}  // namespace p3s::signature
