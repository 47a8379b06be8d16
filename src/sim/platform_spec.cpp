#include "sim/platform_spec.hpp"

#include <fmt/core.h>

#include <cctype>
#include <cmath>
#include <fstream>
#include <stdexcept>
#include <string>

#include "core/xml_escape.hpp"

namespace p3s::sim {
namespace {

int ceil_div(int a, int b) {
  return (a + b - 1) / b;
}

int ceil_root(int value, int degree) {
  int r = static_cast<int>(std::floor(std::pow(static_cast<double>(value), 1.0 / degree)));
  auto power = [degree](int x) {
    long long p = 1;
    for (int i = 0; i < degree; ++i) p *= x;
    return p;
  };
  while (power(r) < value) ++r;
  while (r > 1 && power(r - 1) >= value) --r;
  return std::max(r, 1);
}

struct FatTreeShape {
  int hosts_per_leaf, leaves;
};
FatTreeShape fat_tree(int hosts) {
  const int per_leaf = ceil_root(hosts, 2);
  return {per_leaf, ceil_div(hosts, per_leaf)};
}

// Hosts per router and routers per chassis are fixed; chassis per group double until the groups
// are no more than the routers of a group (SimGrid 3.32 crashes routing a dragonfly with more).
constexpr int kDragonflyHostsPerRouter = 8;
constexpr int kDragonflyRoutersPerChassis = 16;

struct DragonflyShape {
  int groups, chassis;
  int hosts() const {
    return groups * chassis * kDragonflyRoutersPerChassis * kDragonflyHostsPerRouter;
  }
};
DragonflyShape dragonfly(int hosts) {
  DragonflyShape d{0, 1};
  for (;;) {
    d.groups = ceil_div(hosts, d.chassis * kDragonflyRoutersPerChassis * kDragonflyHostsPerRouter);
    if (d.groups <= d.chassis * kDragonflyRoutersPerChassis) return d;
    d.chassis *= 2;
  }
}

struct TorusShape {
  int x, y, z;
};
TorusShape torus(int hosts) {
  const int side = ceil_root(hosts, 3);
  return {ceil_div(hosts, side * side), side, side};
}

// A number then a unit made of letters: SimGrid checks the unit when it loads the file.
void check_quantity(const std::string& what, const std::string& value) {
  std::size_t i = 0;
  while (i < value.size() &&
         (std::isdigit(static_cast<unsigned char>(value[i])) || value[i] == '.' ||
          value[i] == 'e' || value[i] == 'E' || value[i] == '-' || value[i] == '+')) {
    ++i;
  }
  bool unit = i > 0 && i < value.size();
  for (std::size_t j = i; j < value.size(); ++j)
    unit = unit && std::isalpha(static_cast<unsigned char>(value[j]));
  if (!unit) {
    throw std::invalid_argument(what + " '" + value +
                                "' is not a number with a unit (e.g. 10Gbps, 1us, 1Gf)");
  }
}

}  // namespace

Topology topology_from_name(std::string_view name) {
  if (name == "flat") return Topology::Flat;
  if (name == "fat-tree") return Topology::FatTree;
  if (name == "torus") return Topology::Torus;
  if (name == "dragonfly") return Topology::Dragonfly;
  throw std::invalid_argument("unknown topology '" + std::string(name) +
                              "' (flat, fat-tree, torus or dragonfly)");
}

std::string_view topology_name(Topology topology) {
  switch (topology) {
    case Topology::Flat:
      return "flat";
    case Topology::FatTree:
      return "fat-tree";
    case Topology::Torus:
      return "torus";
    case Topology::Dragonfly:
      return "dragonfly";
  }
  return "?";
}

int cluster_hosts(const PlatformSpec& spec) {
  switch (spec.topology) {
    case Topology::Flat:
      return spec.hosts;
    case Topology::FatTree: {
      const FatTreeShape f = fat_tree(spec.hosts);
      return f.hosts_per_leaf * f.leaves;
    }
    case Topology::Torus: {
      const TorusShape t = torus(spec.hosts);
      return t.x * t.y * t.z;
    }
    case Topology::Dragonfly:
      return dragonfly(spec.hosts).hosts();
  }
  return spec.hosts;
}

std::string topology_parameters(const PlatformSpec& spec) {
  switch (spec.topology) {
    case Topology::Flat:
      return "";
    case Topology::FatTree: {
      // Two levels: leaf switches of hosts_per_leaf hosts, each with as many up-links to as
      // many spine switches: full bisection bandwidth.
      const FatTreeShape f = fat_tree(spec.hosts);
      return fmt::format("2;{},{};1,{};1,1", f.hosts_per_leaf, f.leaves, f.hosts_per_leaf);
    }
    case Topology::Torus: {
      const TorusShape t = torus(spec.hosts);
      return fmt::format("{},{},{}", t.x, t.y, t.z);
    }
    case Topology::Dragonfly: {
      // groups,links between groups; chassis per group,links; routers per chassis,links; hosts
      // per router.
      const DragonflyShape d = dragonfly(spec.hosts);
      return fmt::format("{},1;{},1;{},1;{}", d.groups, d.chassis, kDragonflyRoutersPerChassis,
                         kDragonflyHostsPerRouter);
    }
  }
  return "";
}

std::string platform_xml(const PlatformSpec& spec) {
  if (spec.hosts < 1) throw std::invalid_argument("a platform needs at least one host");
  if (spec.cores_per_host < 1) throw std::invalid_argument("a host needs at least one core");
  check_quantity("bandwidth", spec.bandwidth);
  check_quantity("latency", spec.latency);
  check_quantity("speed", spec.speed);
  check_quantity("loopback bandwidth", spec.loopback_bandwidth);
  check_quantity("loopback latency", spec.loopback_latency);

  std::map<std::string, std::string> config = spec.config;
  const std::pair<const char*, const std::string*> smpi[] = {{"smpi/bw-factor", &spec.bw_factor},
                                                             {"smpi/lat-factor", &spec.lat_factor},
                                                             {"smpi/os", &spec.os},
                                                             {"smpi/ois", &spec.ois},
                                                             {"smpi/or", &spec.or_}};
  for (const auto& [key, value] : smpi) {
    if (!value->empty()) config[key] = *value;
  }

  const int hosts = cluster_hosts(spec);
  std::string comment = spec.comment.empty() ? "Written by p3s platform." : spec.comment;
  // An XML comment may not hold "--".
  for (std::size_t at = comment.find("--"); at != std::string::npos; at = comment.find("--", at))
    comment.replace(at, 2, "- -");
  std::string xml =
      "<?xml version='1.0'?>\n"
      "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      "<!-- " +
      comment +
      " -->\n"
      "<platform version=\"4.1\">\n";
  if (!config.empty()) {
    // SimGrid applies these unless the command line sets the same keys.
    xml += "  <config>\n";
    for (const auto& [key, value] : config) {
      xml += fmt::format("    <prop id=\"{}\" value=\"{}\"/>\n", core::xml_escaped(key),
                         core::xml_escaped(value));
    }
    xml += "  </config>\n";
  }
  xml += fmt::format(
      "  <cluster id=\"{}\" prefix=\"node-\" suffix=\"\" radical=\"0-{}\" speed=\"{}\" "
      "core=\"{}\"\n           bw=\"{}\" lat=\"{}\" loopback_bw=\"{}\" loopback_lat=\"{}\"",
      topology_name(spec.topology), hosts - 1, core::xml_escaped(spec.speed), spec.cores_per_host,
      core::xml_escaped(spec.bandwidth), core::xml_escaped(spec.latency),
      core::xml_escaped(spec.loopback_bandwidth), core::xml_escaped(spec.loopback_latency));
  if (spec.topology == Topology::Flat) {
    // Each host's own full-duplex link to a non-blocking switch.
    xml += " sharing_policy=\"SPLITDUPLEX\"";
  } else {
    static const char* const kNames[] = {"", "FAT_TREE", "TORUS", "DRAGONFLY"};
    xml += fmt::format("\n           topology=\"{}\" topo_parameters=\"{}\"",
                       kNames[static_cast<int>(spec.topology)], topology_parameters(spec));
  }
  xml += "/>\n</platform>\n";
  return xml;
}

void write_platform(const PlatformSpec& spec, const std::filesystem::path& file) {
  const std::string xml = platform_xml(spec);
  std::ofstream out(file);
  if (!out) throw std::runtime_error("cannot write " + file.string());
  out << xml;
  if (!out.flush()) throw std::runtime_error("cannot write " + file.string());
}

}  // namespace p3s::sim
