#pragma once
// SimGrid platform files (XML, version 4.1) for p3s: one cluster of identical hosts, flat or
// with a fat-tree, 3D-torus or dragonfly network, and SMPI's network settings as <config> props.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace p3s::sim {

enum class Topology { Flat, FatTree, Torus, Dragonfly };

Topology topology_from_name(std::string_view name);  // flat | fat-tree | torus | dragonfly
std::string_view topology_name(Topology topology);

// How messages share a link: max-min, SimGrid's flow model (full-duplex host links), or not at
// all, every message taking a link's whole bandwidth: a network without contention, which
// costs a simulation nothing per message. SimGrid's cluster takes no FATPIPE host links, so
// "none" is the host property kLinkSharing, which p3s's engines apply to every link when they
// load the platform (link_sharing.hpp); smpirun ignores it.
enum class LinkSharing { MaxMin, None };
inline constexpr const char* kLinkSharing = "p3s/link-sharing";

LinkSharing link_sharing_from_name(std::string_view name);  // max-min | none
std::string_view link_sharing_name(LinkSharing sharing);

struct PlatformSpec {
  int hosts = 16;  // at least this many; a topology may round up (see cluster_hosts)
  int cores_per_host = 1;
  Topology topology = Topology::Flat;
  // SimGrid quantities, with their units: every link of the network, each core's speed.
  std::string bandwidth = "10Gbps";
  std::string latency = "1us";
  std::string speed = "1Gf";
  // Between two ranks of one host.
  std::string loopback_bandwidth = "100Gbps";
  std::string loopback_latency = "0.1us";
  LinkSharing link_sharing = LinkSharing::MaxMin;
  // SMPI's network factors and overheads in its own syntax; empty keeps SMPI's default.
  std::string bw_factor;   // smpi/bw-factor
  std::string lat_factor;  // smpi/lat-factor
  std::string os;          // smpi/os
  std::string ois;         // smpi/ois
  std::string or_;         // smpi/or
  // Any other SimGrid setting to store in the file (e.g. network/crosstraffic).
  std::map<std::string, std::string> config;
  // Properties of every host (the cluster's <prop> children, which SimGrid gives each host),
  // e.g. kSharedCoreRound.
  std::map<std::string, std::string> host_properties;
  // Written as the file's comment instead of "Written by p3s platform." (p3s calibrate says
  // where its values come from).
  std::string comment;
};

// The host count of the cluster written for `spec`: `spec.hosts`, rounded up to fill the
// topology's shape.
int cluster_hosts(const PlatformSpec& spec);

// The host property that makes oversubscribed hosts pay for sharing their cores: the seconds
// one communication round costs per extra rank per core (see src/sim/README.md).
inline constexpr const char* kSharedCoreRound = "p3s/shared-core-round";
// Its value in seconds, or nothing when `text` is not a plain finite number >= 0 ("2.5e-06").
std::optional<double> shared_core_round_seconds(std::string_view text);

// SimGrid's topo_parameters for the topology ("" for a flat cluster).
std::string topology_parameters(const PlatformSpec& spec);

// Throws std::invalid_argument naming the first bad value: host or core counts out of range, a
// quantity that is not positive or lacks a SimGrid unit, factors not in SMPI's syntax, a host
// property with an empty name or a kSharedCoreRound that is no number of seconds.
void check_platform(const PlatformSpec& spec);
// The platform file's text. Throws std::invalid_argument on bad values (check_platform).
std::string platform_xml(const PlatformSpec& spec);
void write_platform(const PlatformSpec& spec, const std::filesystem::path& file);

// A SimGrid quantity ("10Gbps", "1us") times `factor`, in its own unit ("20Gbps", "0.5us").
// Throws std::invalid_argument when `value` is no number with a unit or `factor` is not a
// positive finite number.
std::string scaled_quantity(const std::string& value, double factor);

// The value of a bandwidth in bytes per second ("10Gbps" -> 1.25e9) and of a latency in
// seconds ("1us" -> 1e-6), as SimGrid reads them. Throws std::invalid_argument on a value
// check_platform would refuse.
double bandwidth_bytes_per_second(const std::string& value);
double latency_seconds(const std::string& value);

}  // namespace p3s::sim
