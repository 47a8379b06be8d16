#include "sim/link_sharing.hpp"

#include <fmt/core.h>

#include <optional>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <stdexcept>
#include <string>

#include "sim/platform_spec.hpp"

namespace p3s::sim {

void apply_link_sharing(simgrid::s4u::Engine& engine) {
  std::optional<LinkSharing> asked;
  std::string asked_by;
  for (const simgrid::s4u::Host* host : engine.get_all_hosts()) {
    const char* value = host->get_property(kLinkSharing);
    LinkSharing sharing = LinkSharing::MaxMin;
    try {
      sharing = link_sharing_from_name(value != nullptr ? value : "max-min");
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(
          fmt::format("host {}: property {}: {}", host->get_name(), kLinkSharing, e.what()));
    }
    if (asked && *asked != sharing) {
      throw std::runtime_error(fmt::format(
          "hosts {} and {} ask for different link sharing ({} and {}): a platform's links are "
          "either all shared or none",
          asked_by, host->get_name(), link_sharing_name(*asked), link_sharing_name(sharing)));
    }
    asked = sharing;
    asked_by = host->get_name();
  }
  if (asked != LinkSharing::None) return;
  using Policy = simgrid::s4u::Link::SharingPolicy;
  for (simgrid::s4u::Link* link : engine.get_all_links()) {
    const Policy policy = link->get_sharing_policy();
    if (policy == Policy::SHARED || policy == Policy::SPLITDUPLEX)
      link->set_sharing_policy(Policy::FATPIPE);
  }
}

}  // namespace p3s::sim
