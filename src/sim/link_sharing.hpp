#pragma once
// A platform's hosts may ask that no link be shared (kLinkSharing = "none", platform_spec.hpp):
// a network without contention, where every message takes each link's whole bandwidth.
// SimGrid's cluster element builds no such host links, so p3s's engines make them so once the
// platform is loaded; both then see the same links (the fluid engine reads SimGrid's).
namespace simgrid::s4u {
class Engine;
}

namespace p3s::sim {

// Makes every shared link of the loaded platform a FATPIPE one when its hosts ask for it.
// Throws std::runtime_error naming a host whose kLinkSharing is neither max-min nor none, or
// two hosts that ask for different sharing.
void apply_link_sharing(simgrid::s4u::Engine& engine);

}  // namespace p3s::sim
