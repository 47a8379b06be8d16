#include "sim/platform_reader.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <iterator>
#include <map>
#include <pugixml.hpp>
#include <stdexcept>
#include <string>

namespace p3s::sim {
namespace {

using Attributes = std::map<std::string, std::string>;

Attributes attributes_of(const pugi::xml_node& node) {
  Attributes out;
  for (const pugi::xml_attribute& a : node.attributes()) out[a.name()] = a.value();
  return out;
}

// The props inside `node`, by id.
std::map<std::string, std::string> props_of(const pugi::xml_node& node) {
  std::map<std::string, std::string> out;
  for (const pugi::xml_node& prop : node.children("prop")) {
    out[prop.attribute("id").value()] = prop.attribute("value").value();
  }
  return out;
}

// The <cluster>, its props and the <config> props of a platform text; throws
// std::invalid_argument (without the file name) when it holds anything else.
struct PlatformElements {
  Attributes cluster;
  std::map<std::string, std::string> cluster_props;
  std::map<std::string, std::string> config;
};

PlatformElements platform_elements(const pugi::xml_document& doc) {
  const pugi::xml_node platform = doc.child("platform");
  if (!platform) throw std::invalid_argument("no <platform> element");
  PlatformElements out;
  int clusters = 0;
  for (const pugi::xml_node& node : platform.children()) {
    if (node.type() != pugi::node_element) continue;
    const std::string name = node.name();
    if (name == "config") {
      out.config = props_of(node);
    } else if (name == "cluster") {
      ++clusters;
      out.cluster = attributes_of(node);
      for (const pugi::xml_node& child : node.children()) {
        if (child.type() == pugi::node_element && std::string(child.name()) != "prop") {
          throw std::invalid_argument(
              fmt::format("its cluster holds a <{}> element", child.name()));
        }
      }
      out.cluster_props = props_of(node);
    } else {
      throw std::invalid_argument(fmt::format("it holds a <{}> element", name));
    }
  }
  if (clusters != 1) {
    throw std::invalid_argument(fmt::format("it holds {} <cluster> elements, not one", clusters));
  }
  return out;
}

std::string attribute(const Attributes& a, const std::string& key) {
  const auto it = a.find(key);
  if (it == a.end()) throw std::invalid_argument(fmt::format("its cluster has no {}=", key));
  return it->second;
}

int parse_int(const std::string& text, const std::string& what) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    throw std::invalid_argument(fmt::format("its cluster's {} '{}' is not a number", what, text));
  }
  return value;
}

PlatformSpec spec_of(const PlatformElements& e) {
  static const char* const kWritten[] = {
      "id",  "prefix",      "suffix",       "radical",  "speed",           "core",          "bw",
      "lat", "loopback_bw", "loopback_lat", "topology", "topo_parameters", "sharing_policy"};
  for (const auto& [key, value] : e.cluster) {
    if (std::find(std::begin(kWritten), std::end(kWritten), key) == std::end(kWritten)) {
      throw std::invalid_argument(
          fmt::format("its cluster has {}=\"{}\", which p3s does not write", key, value));
    }
  }
  PlatformSpec spec;
  const std::string radical = attribute(e.cluster, "radical");
  if (!radical.starts_with("0-")) {
    throw std::invalid_argument(fmt::format("its cluster's radical '{}' is not 0-LAST", radical));
  }
  spec.hosts = parse_int(radical.substr(2), "radical") + 1;
  spec.cores_per_host = parse_int(attribute(e.cluster, "core"), "core");
  spec.speed = attribute(e.cluster, "speed");
  spec.bandwidth = attribute(e.cluster, "bw");
  spec.latency = attribute(e.cluster, "lat");
  spec.loopback_bandwidth = attribute(e.cluster, "loopback_bw");
  spec.loopback_latency = attribute(e.cluster, "loopback_lat");
  static const std::map<std::string, Topology> kTopologies = {{"FAT_TREE", Topology::FatTree},
                                                              {"TORUS", Topology::Torus},
                                                              {"DRAGONFLY", Topology::Dragonfly}};
  if (const auto t = e.cluster.find("topology"); t != e.cluster.end()) {
    const auto known = kTopologies.find(t->second);
    if (known == kTopologies.end()) {
      throw std::invalid_argument(
          fmt::format("its cluster's topology '{}' is not one p3s writes", t->second));
    }
    spec.topology = known->second;
  }
  const std::map<std::string, std::string*> smpi = {{"smpi/bw-factor", &spec.bw_factor},
                                                    {"smpi/lat-factor", &spec.lat_factor},
                                                    {"smpi/os", &spec.os},
                                                    {"smpi/ois", &spec.ois},
                                                    {"smpi/or", &spec.or_}};
  for (const auto& [key, value] : e.config) {
    if (const auto field = smpi.find(key); field != smpi.end()) {
      *field->second = value;
    } else {
      spec.config[key] = value;
    }
  }
  spec.host_properties = e.cluster_props;
  if (const auto s = spec.host_properties.find(kLinkSharing); s != spec.host_properties.end()) {
    spec.link_sharing = link_sharing_from_name(s->second);
    spec.host_properties.erase(s);
  }
  return spec;
}

}  // namespace

PlatformSpec read_platform_spec(const std::filesystem::path& file) {
  const std::string where = file.string();
  pugi::xml_document doc;
  const pugi::xml_parse_result parsed = doc.load_file(file.c_str());
  if (!parsed) {
    throw std::invalid_argument(fmt::format("{}: not readable as XML ({} at byte {})", where,
                                            parsed.description(), parsed.offset));
  }
  const std::string refusal = fmt::format(
      "{}: not a platform as `p3s platform` writes it (one <cluster>, an optional <config>), "
      "so its network cannot be varied:",
      where);
  try {
    const PlatformElements original = platform_elements(doc);
    PlatformSpec spec = spec_of(original);
    // Written back, the spec must give the same cluster and settings: else some of the file
    // (a topology shape of its own, host names, sharing policy) is not in the spec.
    pugi::xml_document rewritten;
    rewritten.load_string(platform_xml(spec).c_str());
    const PlatformElements back = platform_elements(rewritten);
    Attributes want = original.cluster, got = back.cluster;
    want.erase("id"), got.erase("id");  // a name only: hosts are named by prefix and radical
    for (const auto& [key, value] : want) {
      const auto it = got.find(key);
      if (it == got.end() || it->second != value) {
        throw std::invalid_argument(
            fmt::format("its cluster's {}=\"{}\" is not what p3s writes for that cluster ({})", key,
                        value, it == got.end() ? "no such attribute" : "\"" + it->second + "\""));
      }
    }
    for (const auto& [key, value] : got) {
      if (!want.contains(key)) {
        throw std::invalid_argument(
            fmt::format("its cluster has no {}= (p3s writes \"{}\")", key, value));
      }
    }
    if (back.config != original.config) {
      throw std::invalid_argument("its <config> props do not read back as written");
    }
    if (back.cluster_props != original.cluster_props) {
      throw std::invalid_argument("its cluster's props do not read back as written");
    }
    return spec;
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(fmt::format("{} {}", refusal, e.what()));
  }
}

}  // namespace p3s::sim
