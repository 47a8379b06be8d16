// p3s platform's options: hosts, cores, topology, the five quantities and the five SMPI
// settings, as NUL-separated fields. Accepted options must give a platform file.
#include <charconv>
#include <stdexcept>

#include "fuzz_input.hpp"
#include "sim/platform_spec.hpp"

namespace {

int number(const std::string& text) {
  int value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace p3s;
  std::vector<std::string> f = fuzz::split_parts(fuzz::as_text(data, size), 13);
  f.resize(13);
  sim::PlatformSpec spec;
  spec.hosts = number(f[0]);
  spec.cores_per_host = number(f[1]);
  try {
    spec.topology = sim::topology_from_name(f[2]);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  std::string* const text[] = {&spec.bandwidth,
                               &spec.latency,
                               &spec.speed,
                               &spec.loopback_bandwidth,
                               &spec.loopback_latency,
                               &spec.bw_factor,
                               &spec.lat_factor,
                               &spec.os,
                               &spec.ois,
                               &spec.or_};
  for (std::size_t i = 0; i < 10; ++i) {
    if (i < 5 && f[3 + i].empty()) continue;  // keep the default
    *text[i] = f[3 + i];
  }
  std::string xml;
  try {
    xml = sim::platform_xml(spec);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  if (sim::cluster_hosts(spec) < spec.hosts) fuzz::broken("fewer hosts than asked for");
  if (xml.find("</platform>") == std::string::npos) fuzz::broken("an unfinished platform file");
  return 0;
}
