#include "calibrate/calibration_platform.hpp"

#include <fmt/core.h>

namespace p3s::calibrate {
namespace {

std::string bandwidth_text(double bytes_per_second) {
  return fmt::format("{:.6g}Bps", bytes_per_second);
}

std::string latency_text(double seconds) {
  return fmt::format("{:.6g}s", seconds);
}

}  // namespace

sim::PlatformSpec calibrated_platform(const Calibration& c, const PlatformChoices& choices,
                                      std::vector<std::string>& assumed) {
  sim::PlatformSpec spec;
  spec.hosts = choices.hosts;
  spec.cores_per_host = choices.cores_per_host;
  spec.topology = choices.topology;
  const SmpiPointToPoint& m = c.model;
  // A route between two hosts of the flat cluster crosses two links (the sender's up, the
  // receiver's down): each gets half the measured latency.
  if (c.covered(LinkKind::CrossNode).measured) {
    spec.bandwidth = bandwidth_text(m.cross_node.bandwidth);
    spec.latency = latency_text(m.cross_node.latency / 2);
  } else if (choices.network_as_same_node) {
    spec.bandwidth = bandwidth_text(m.same_node.bandwidth);
    spec.latency = latency_text(m.same_node.latency / 2);
    assumed.push_back(
        fmt::format("the network between hosts was not measured: it is given the same-node path's "
                    "bandwidth ({}) and latency ({} per route), as asked (--network-as-same-node)",
                    spec.bandwidth, latency_text(m.same_node.latency)));
  } else {
    assumed.push_back(
        fmt::format("the network between hosts was not measured: its links keep p3s platform's "
                    "default {} and {} (--network-as-same-node gives them the same-node path's)",
                    spec.bandwidth, spec.latency));
  }
  if (c.covered(LinkKind::SameNode).measured) {
    spec.loopback_bandwidth = bandwidth_text(m.same_node.bandwidth);
    spec.loopback_latency = latency_text(m.same_node.latency);
  } else {
    assumed.push_back(
        fmt::format("messages between ranks of one host were not measured: the loopback keeps p3s "
                    "platform's default {} and {}",
                    spec.loopback_bandwidth, spec.loopback_latency));
  }
  if (c.compute.measured) {
    spec.speed = fmt::format("{:.6g}f", c.compute.flops_per_second);
  } else {
    assumed.push_back(fmt::format(
        "the host speed was not measured: it keeps p3s platform's default {}", spec.speed));
  }
  spec.bw_factor = m.bandwidth_factor.smpi();
  spec.lat_factor = m.latency_factor.smpi();
  if (c.overheads_measured) {
    spec.os = m.send.smpi();
    spec.or_ = m.receive.smpi();
    spec.ois = m.isend.smpi();
    spec.config["smpi/send-is-detached-thresh"] = std::to_string(m.eager_threshold);
  } else {
    assumed.push_back(
        "smpi/os, smpi/or, smpi/ois and the eager threshold were not measured: SMPI's defaults "
        "(no overheads, 65536 B)");
  }
  if (c.shared_core.measured) {
    spec.host_properties[sim::kSharedCoreRound] =
        fmt::format("{:.6g}", c.shared_core.round_seconds);
  }
  return spec;
}

}  // namespace p3s::calibrate
