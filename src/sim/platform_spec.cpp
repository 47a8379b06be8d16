#include "sim/platform_spec.hpp"

#include <fmt/core.h>

#include <charconv>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/text_file.hpp"
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

// SimGrid's units (xbt_parse_units in SimGrid 3.32): a base unit with decimal (k, M, G, ...)
// or binary (Ki, Mi, Gi, ...) prefixes.
bool prefixed(std::string_view unit, std::string_view base, bool binary) {
  if (unit == base) return true;
  if (!unit.ends_with(base)) return false;
  const std::string_view prefix = unit.substr(0, unit.size() - base.size());
  for (const char* p : {"k", "M", "G", "T", "P", "E", "Z", "Y"}) {
    if (prefix == p) return true;
  }
  if (!binary) return false;
  for (const char* p : {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi"}) {
    if (prefix == p) return true;
  }
  return false;
}

enum class Quantity { Bandwidth, Latency, Speed };

bool known_unit(Quantity quantity, std::string_view unit) {
  switch (quantity) {
    case Quantity::Bandwidth:
      return prefixed(unit, "Bps", true) || prefixed(unit, "bps", true);
    case Quantity::Latency:
      for (const char* u : {"w", "d", "h", "m", "s", "ms", "us", "ns", "ps"}) {
        if (unit == u) return true;
      }
      return false;
    case Quantity::Speed:
      if (prefixed(unit, "f", false) || unit == "flops") return true;
      for (const char* p : {"kilo", "mega", "giga", "tera", "peta", "exa", "zeta", "yotta"}) {
        if (unit == std::string(p) + "flops") return true;
      }
      return false;
  }
  return false;
}

// A positive, finite number then one of the quantity's units: SimGrid itself would take a
// negative or zero bandwidth, latency or speed and fail (or divide by it) in the middle of a
// simulation. Returns the number and the unit.
std::pair<double, std::string_view> checked_quantity(const std::string& what,
                                                     const std::string& value, Quantity quantity) {
  double number = 0;
  const char* begin = value.data();
  const char* end = value.data() + value.size();
  auto [unit_start, ec] = std::from_chars(begin, end, number);
  const std::string_view unit(unit_start, static_cast<std::size_t>(end - unit_start));
  if (ec != std::errc() || unit.empty() || !known_unit(quantity, unit)) {
    throw std::invalid_argument(what + " '" + value +
                                "' is not a number with a SimGrid unit (e.g. 10Gbps, 1us, 1Gf)");
  }
  if (!(number > 0) || !std::isfinite(number)) {
    throw std::invalid_argument(what + " '" + value + "' must be positive");
  }
  return {number, unit};
}

void check_quantity(const std::string& what, const std::string& value, Quantity quantity) {
  checked_quantity(what, value, quantity);
}

// What a decimal (k, M, ...) or binary (Ki, Mi, ...) prefix multiplies by; "" is 1.
double prefix_multiplier(std::string_view prefix) {
  double decimal = 1, binary = 1;
  for (const char* p : {"", "k", "M", "G", "T", "P", "E", "Z", "Y"}) {
    if (prefix == p) return decimal;
    decimal *= 1e3;
  }
  for (const char* p : {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi"}) {
    binary *= 1024;
    if (prefix == p) return binary;
  }
  return 1;
}

// A non-negative finite number, alone (SMPI's factors and overheads).
bool plain_number(std::string_view text, double& value) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size() && std::isfinite(value) &&
         value >= 0;
}

std::vector<std::string_view> split_on(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (;;) {
    const std::size_t at = text.find(separator);
    parts.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return parts;
    text.remove_prefix(at + 1);
  }
}

// A time as SMPI's overheads take it: a non-negative number, perhaps with a unit.
bool plain_time(std::string_view number) {
  for (const char* unit : {"ps", "ns", "us", "ms", "s"}) {
    if (number.ends_with(unit)) {
      number.remove_suffix(std::string_view(unit).size());
      break;
    }
  }
  double v = 0;
  return plain_number(number, v);
}

// One SIZE:VALUE[:VALUE...] piece: `values` values (0: one or more), each a factor > 0 or a
// time.
bool factor_piece_ok(std::string_view piece, std::size_t values, bool times) {
  const std::vector<std::string_view> fields = split_on(piece, ':');
  std::uint64_t size = 0;
  auto [end, ec] = std::from_chars(fields[0].data(), fields[0].data() + fields[0].size(), size);
  if (fields[0].empty() || ec != std::errc() || end != fields[0].data() + fields[0].size()) {
    return false;
  }
  if (values == 0 ? fields.size() < 2 : fields.size() != values + 1) return false;
  for (std::size_t i = 1; i < fields.size(); ++i) {
    double v = 0;
    if (times ? !plain_time(fields[i]) : !(plain_number(fields[i], v) && v > 0)) return false;
  }
  return true;
}

// SMPI's factor syntax: SIZE:VALUE[:VALUE...] pieces separated by ';', SIZE a byte count and
// every VALUE a positive number (a factor) or, for overheads, a non-negative time.
void check_factors(const std::string& what, const std::string& spec, std::size_t values,
                   bool times) {
  const std::string form = times ? "SIZE:BASE:PER_BYTE[;...]" : "SIZE:FACTOR[;...]";
  for (std::string_view piece : split_on(spec, ';')) {
    if (piece.empty()) continue;  // a trailing ';'
    if (!factor_piece_ok(piece, values, times)) {
      throw std::invalid_argument(
          fmt::format("{} '{}': '{}' is not {} {}", what, spec, piece, form,
                      times ? "with non-negative times" : "with factors > 0"));
    }
  }
  if (spec.find_first_not_of("; ") == std::string::npos) {
    throw std::invalid_argument(what + " '" + spec + "' holds no " + form);
  }
}

// One <prop> line per key, indented inside an element of the platform.
std::string prop_elements(const std::map<std::string, std::string>& props) {
  std::string xml;
  for (const auto& [key, value] : props) {
    xml += fmt::format("    <prop id=\"{}\" value=\"{}\"/>\n", core::xml_escaped(key),
                       core::xml_escaped(value));
  }
  return xml;
}

// Hosts and cores a platform may have: far above what SimGrid simulates in memory, and small
// enough that rounding a topology up stays within an int.
constexpr int kMaxHosts = 1 << 24;
constexpr int kMaxCoresPerHost = 1 << 16;

}  // namespace

Topology topology_from_name(std::string_view name) {
  if (name == "flat") return Topology::Flat;
  if (name == "fat-tree") return Topology::FatTree;
  if (name == "torus") return Topology::Torus;
  if (name == "dragonfly") return Topology::Dragonfly;
  throw std::invalid_argument("unknown topology '" + std::string(name) +
                              "' (flat, fat-tree, torus or dragonfly)");
}

LinkSharing link_sharing_from_name(std::string_view name) {
  if (name == "max-min") return LinkSharing::MaxMin;
  if (name == "none") return LinkSharing::None;
  throw std::invalid_argument("unknown link sharing '" + std::string(name) + "' (max-min or none)");
}

std::string_view link_sharing_name(LinkSharing sharing) {
  return sharing == LinkSharing::MaxMin ? "max-min" : "none";
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

std::optional<double> shared_core_round_seconds(std::string_view text) {
  double seconds = 0;
  if (!plain_number(text, seconds)) return std::nullopt;
  return seconds;
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

void check_platform(const PlatformSpec& spec) {
  if (spec.hosts < 1 || spec.hosts > kMaxHosts) {
    throw std::invalid_argument(
        fmt::format("hosts {}: a platform has 1 to {} hosts", spec.hosts, kMaxHosts));
  }
  if (spec.cores_per_host < 1 || spec.cores_per_host > kMaxCoresPerHost) {
    throw std::invalid_argument(fmt::format("cores per host {}: a host has 1 to {} cores",
                                            spec.cores_per_host, kMaxCoresPerHost));
  }
  check_quantity("bandwidth", spec.bandwidth, Quantity::Bandwidth);
  check_quantity("latency", spec.latency, Quantity::Latency);
  check_quantity("speed", spec.speed, Quantity::Speed);
  check_quantity("loopback bandwidth", spec.loopback_bandwidth, Quantity::Bandwidth);
  check_quantity("loopback latency", spec.loopback_latency, Quantity::Latency);
  if (!spec.bw_factor.empty()) check_factors("bw-factor", spec.bw_factor, 0, false);
  if (!spec.lat_factor.empty()) check_factors("lat-factor", spec.lat_factor, 0, false);
  if (!spec.os.empty()) check_factors("os", spec.os, 2, true);
  if (!spec.ois.empty()) check_factors("ois", spec.ois, 2, true);
  if (!spec.or_.empty()) check_factors("or", spec.or_, 2, true);
  for (const auto& [key, value] : spec.host_properties) {
    if (key.empty()) throw std::invalid_argument("a host property has an empty name");
    if (key == kLinkSharing) {
      throw std::invalid_argument(
          fmt::format("host property {} is written from the spec's link sharing", key));
    }
    if (key == kSharedCoreRound && !shared_core_round_seconds(value)) {
      throw std::invalid_argument(
          fmt::format("host property {} '{}' is not a finite number of seconds >= 0", key, value));
    }
  }
}

std::string platform_xml(const PlatformSpec& spec) {
  check_platform(spec);

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
    xml += "  <config>\n" + prop_elements(config) + "  </config>\n";
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
  std::map<std::string, std::string> host_properties = spec.host_properties;
  if (spec.link_sharing == LinkSharing::None) host_properties[kLinkSharing] = "none";
  if (host_properties.empty()) {
    xml += "/>\n";
  } else {
    // SimGrid gives the cluster's props to each of its hosts.
    xml += ">\n" + prop_elements(host_properties) + "  </cluster>\n";
  }
  xml += "</platform>\n";
  return xml;
}

void write_platform(const PlatformSpec& spec, const std::filesystem::path& file) {
  core::write_text_file(file, platform_xml(spec));
}

double bandwidth_bytes_per_second(const std::string& value) {
  const auto [number, unit] = checked_quantity("bandwidth", value, Quantity::Bandwidth);
  const bool bits = unit.ends_with("bps") && !unit.ends_with("Bps");
  return number * prefix_multiplier(unit.substr(0, unit.size() - 3)) / (bits ? 8 : 1);
}

double latency_seconds(const std::string& value) {
  const auto [number, unit] = checked_quantity("latency", value, Quantity::Latency);
  static const std::pair<const char*, double> kUnits[] = {
      {"w", 604800}, {"d", 86400}, {"h", 3600},  {"m", 60},    {"s", 1},
      {"ms", 1e-3},  {"us", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12}};
  for (const auto& [name, seconds] : kUnits) {
    if (unit == name) return number * seconds;
  }
  return number;
}

std::string scaled_quantity(const std::string& value, double factor) {
  if (!(factor > 0) || !std::isfinite(factor)) {
    throw std::invalid_argument(fmt::format("scale factor {} must be positive", factor));
  }
  double number = 0;
  auto [unit, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (ec != std::errc() || unit == value.data() + value.size()) {
    throw std::invalid_argument("'" + value + "' is not a number with a SimGrid unit");
  }
  return fmt::format("{}{}", number * factor, std::string_view(unit, value.data() + value.size()));
}

}  // namespace p3s::sim
