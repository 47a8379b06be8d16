#include "sim/fluid_platform.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <sstream>
#include <stdexcept>
#include <xbt/config.hpp>

namespace p3s::sim {
namespace {

// SimGrid's crosstraffic: acknowledgements take this share of a flow's rate on the way back.
constexpr double kCrosstrafficShare = 0.05;

double parse_number(const std::string& text, const std::string& spec) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    throw std::invalid_argument("bad number '" + text + "' in the SMPI factor '" + spec + "'");
  }
  return value;
}

template <typename T>
T config_or(const char* key, T fallback) {
  try {
    return simgrid::config::get_value<T>(key);
  } catch (const std::exception&) {
    return fallback;
  }
}

}  // namespace

SmpiFactor::SmpiFactor(const std::string& spec) {
  std::stringstream in(spec);
  for (std::string chunk; std::getline(in, chunk, ';');) {
    if (chunk.empty()) continue;
    const std::size_t colon = chunk.find(':');
    if (colon == std::string::npos) {
      throw std::invalid_argument(
          fmt::format("'{}' in the SMPI factor '{}' is not SIZE:VALUE", chunk, spec));
    }
    const std::size_t next = chunk.find(':', colon + 1);
    steps_.emplace_back(parse_number(chunk.substr(0, colon), spec),
                        parse_number(chunk.substr(colon + 1, next - colon - 1), spec));
  }
  std::stable_sort(steps_.begin(), steps_.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
}

double SmpiFactor::at(double bytes) const {
  double current = 1.0;
  for (const auto& [size, value] : steps_) {
    if (bytes <= size) return current;
    current = value;
  }
  return current;
}

std::size_t FluidPlatform::PairHash::operator()(
    const std::pair<const void*, const void*>& p) const {
  const auto a = reinterpret_cast<std::uintptr_t>(p.first);
  const auto b = reinterpret_cast<std::uintptr_t>(p.second);
  return std::hash<std::uintptr_t>()(a * 0x9e3779b97f4a7c15ULL ^ b);
}

FluidPlatform::FluidPlatform(FluidSharing& sharing)
    : sharing_(sharing),
      bandwidth_factor_(config_or<std::string>("smpi/bw-factor", "")),
      latency_factor_(config_or<std::string>("smpi/lat-factor", "")),
      tcp_gamma_(config_or<double>("network/TCP-gamma", 4194304.0)),
      weight_s_(config_or<double>("network/weight-S", 0.0)),
      crosstraffic_(config_or<bool>("network/crosstraffic", true)) {}

FluidSharing::Resource FluidPlatform::resource_of(const simgrid::s4u::Link* link) {
  const auto it = resources_.find(link);
  if (it != resources_.end()) return it->second;
  using Policy = simgrid::s4u::Link::SharingPolicy;
  const Policy policy = link->get_sharing_policy();
  if (policy == Policy::WIFI) {
    throw std::runtime_error("link " + link->get_name() +
                             " is a Wi-Fi link, which the fluid engine does not model");
  }
  // Under network/model:SMPI a link's capacity is its bandwidth (network/bandwidth-factor is
  // CM02's; SMPI's factors are by size, in each flow's bound).
  const FluidSharing::Resource r =
      sharing_.add_resource(link->get_bandwidth(), policy != Policy::FATPIPE);
  resources_.emplace(link, r);
  return r;
}

const FluidRoute& FluidPlatform::route(const simgrid::s4u::Host* src,
                                       const simgrid::s4u::Host* dst) {
  const auto key = std::make_pair(static_cast<const void*>(src), static_cast<const void*>(dst));
  const auto found = routes_.find(key);
  if (found != routes_.end()) return found->second;
  FluidRoute route;
  std::vector<simgrid::s4u::Link*> links;
  src->route_to(dst, links, &route.latency);
  if (links.empty() && route.latency <= 0) {
    throw std::runtime_error(
        fmt::format("no route from host {} to host {}", src->get_name(), dst->get_name()));
  }
  for (const simgrid::s4u::Link* l : links) {
    add_use(route.uses, resource_of(l), 1.0);
    if (weight_s_ > 0) route.penalty_links += weight_s_ / l->get_bandwidth();
  }
  if (crosstraffic_) {
    std::vector<simgrid::s4u::Link*> back;
    dst->route_to(src, back, nullptr);
    for (const simgrid::s4u::Link* l : back)
      add_use(route.uses, resource_of(l), kCrosstrafficShare);
  }
  return routes_.emplace(key, std::move(route)).first->second;
}

// A link the route crosses both ways (a loopback) is one use, as SimGrid keeps one element
// per link in a flow's constraint: both shares added on a shared link, the larger one on a
// FATPIPE link (its maximum).
void FluidPlatform::add_use(std::vector<FluidSharing::Use>& uses, FluidSharing::Resource r,
                            double coefficient) const {
  const auto same = std::find_if(uses.begin(), uses.end(),
                                 [r](const FluidSharing::Use& u) { return u.resource == r; });
  if (same == uses.end()) {
    uses.push_back({r, coefficient});
  } else if (sharing_.shared(r)) {
    same->coefficient += coefficient;
  } else {
    same->coefficient = std::max(same->coefficient, coefficient);
  }
}

FluidTransfer FluidPlatform::transfer(const FluidRoute& route, double bytes) const {
  FluidTransfer t;
  // SimGrid 3.32's SMPI model scales what a message costs every link by its bandwidth factor:
  // alone it flows at factor x bandwidth, and a two-way exchange with cross-traffic shares
  // the same 1.05 x its cost as a lone flow's (both measured against SimGrid, see the tests).
  t.amount = bytes / bandwidth_factor_.at(bytes);
  t.bound = route.latency > 0 ? tcp_gamma_ / (2.0 * route.latency) : -1;
  t.latency = route.latency * latency_factor_.at(bytes);
  // SimGrid shares by latency plus weight-S / bandwidth, once the latency is paid; a flow
  // without latency shares with penalty 1.
  t.penalty = t.latency > 0 ? route.latency + route.penalty_links : 1.0;
  return t;
}

}  // namespace p3s::sim
