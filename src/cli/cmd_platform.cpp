// p3s platform: write a SimGrid platform file for `p3s simulate` and smpirun.
#include <fmt/core.h>

#include <boost/program_options.hpp>
#include <stdexcept>

#include "cli/commands.hpp"
#include "cli/parse_options.hpp"
#include "sim/platform_spec.hpp"

namespace p3s::cli {

int run_platform(const Args& args) {
  namespace po = boost::program_options;
  sim::PlatformSpec spec;
  std::string out, topology = "flat", link_sharing = "max-min", shared_core_round;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help")("output,o", po::value(&out)->required(),
                                                 "platform file to write")(
      "hosts", po::value(&spec.hosts)->required(), "number of hosts (a topology may round it up)")(
      "cores-per-host", po::value(&spec.cores_per_host)->default_value(1), "cores of each host")(
      "topology", po::value(&topology)->default_value("flat"),
      "flat, fat-tree, torus or dragonfly")(
      "link-sharing", po::value(&link_sharing)->default_value(link_sharing),
      "max-min (messages on a link share it, SimGrid's flow model) or none (each gets a "
      "link's whole bandwidth: no contention, far cheaper to simulate at large N)")(
      "bandwidth", po::value(&spec.bandwidth)->default_value(spec.bandwidth),
      "bandwidth of every link")("latency", po::value(&spec.latency)->default_value(spec.latency),
                                 "latency of every link")(
      "speed", po::value(&spec.speed)->default_value(spec.speed), "speed of each core")(
      "loopback-bandwidth",
      po::value(&spec.loopback_bandwidth)->default_value(spec.loopback_bandwidth),
      "bandwidth between two ranks of one host")(
      "loopback-latency", po::value(&spec.loopback_latency)->default_value(spec.loopback_latency),
      "latency between two ranks of one host")("bw-factor", po::value(&spec.bw_factor),
                                               "smpi/bw-factor, SMPI's syntax (default: SMPI's)")(
      "lat-factor", po::value(&spec.lat_factor), "smpi/lat-factor (default: SMPI's)")(
      "os", po::value(&spec.os), "smpi/os: send overhead, SIZE:BASE:PER_BYTE;... (default: none)")(
      "ois", po::value(&spec.ois), "smpi/ois: non-blocking send overhead (default: none)")(
      "or", po::value(&spec.or_), "smpi/or: eager receive overhead (default: none)")(
      "shared-core-round", po::value(&shared_core_round),
      "seconds one communication round costs per extra rank per core on a host running more "
      "ranks than cores (host property p3s/shared-core-round; default: nothing)");
  const auto parsed = parse_options(
      args, desc,
      "usage: p3s platform -o PLATFORM.xml --hosts H [options]\n\n"
      "Writes a SimGrid platform (XML v4.1): one cluster of H identical hosts, each with\n"
      "its own link to a non-blocking switch (flat) or in a fat tree, a 3D torus or a\n"
      "dragonfly. Quantities take SimGrid's units (10Gbps, 1us, 1Gf). SMPI's network\n"
      "factors and overheads go into the file as <config> properties; the cost of sharing\n"
      "cores as a property of every host.\n\n");
  if (!parsed) return 0;
  try {
    spec.topology = sim::topology_from_name(topology);
    spec.link_sharing = sim::link_sharing_from_name(link_sharing);
    if (!shared_core_round.empty()) spec.host_properties[sim::kSharedCoreRound] = shared_core_round;
    sim::write_platform(spec, out);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  fmt::print("{}: {} hosts of {} cores, {} network, links shared: {}\n", out,
             sim::cluster_hosts(spec), spec.cores_per_host, topology, link_sharing);
  return 0;
}

}  // namespace p3s::cli
