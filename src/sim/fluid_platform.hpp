#pragma once
// The platform as the fluid engine sees it, read from SimGrid once the platform is loaded: for
// each pair of hosts the links a message crosses (and, with cross-traffic, those its
// acknowledgements cross back), and a message's latency, bandwidth bound and sharing penalty
// as SimGrid's SMPI network model computes them (network/model:SMPI: smpi/lat-factor and
// smpi/bw-factor by size, network/TCP-gamma, network/weight-S, network/crosstraffic).
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/fluid_sharing.hpp"

namespace simgrid::s4u {
class Host;
class Link;
}  // namespace simgrid::s4u

namespace p3s::sim {

// SMPI's size-dependent factor ("SIZE:VALUE;SIZE:VALUE;..."): 1 up to the first size, then
// the value of the last size a message exceeds.
class SmpiFactor {
 public:
  explicit SmpiFactor(const std::string& spec);
  double at(double bytes) const;

 private:
  std::vector<std::pair<double, double>> steps_;  // (size, value), by size
};

struct FluidRoute {
  std::vector<FluidSharing::Use> uses;  // the links there, then (cross-traffic) those back
  double latency = 0;                   // sum over the links there, seconds
  double penalty_links = 0;             // sum of weight-S / bandwidth over the links there
};

struct FluidTransfer {
  double amount = 0;   // what the message costs the links: its bytes over SMPI's bw-factor
  double latency = 0;  // before the bytes flow
  double bound = -1;   // on the rate of `amount` (TCP's window over the round trip); -1: none
  double penalty = 1;
};

class FluidPlatform {
 public:
  // Reads SimGrid's configuration (after load_platform); links become resources of `sharing`.
  explicit FluidPlatform(FluidSharing& sharing);

  // Throws std::runtime_error naming the hosts if no route joins them or a link is Wi-Fi.
  const FluidRoute& route(const simgrid::s4u::Host* src, const simgrid::s4u::Host* dst);
  // A message of `bytes` (SMPI's envelope included) on `route`.
  FluidTransfer transfer(const FluidRoute& route, double bytes) const;

 private:
  FluidSharing::Resource resource_of(const simgrid::s4u::Link* link);
  void add_use(std::vector<FluidSharing::Use>& uses, FluidSharing::Resource r,
               double coefficient) const;

  struct PairHash {
    std::size_t operator()(const std::pair<const void*, const void*>& p) const;
  };

  FluidSharing& sharing_;
  SmpiFactor bandwidth_factor_;
  SmpiFactor latency_factor_;
  double tcp_gamma_;
  double weight_s_;
  bool crosstraffic_;
  std::unordered_map<const simgrid::s4u::Link*, FluidSharing::Resource> resources_;
  std::unordered_map<std::pair<const void*, const void*>, FluidRoute, PairHash> routes_;
};

}  // namespace p3s::sim
