// Platform files: what p3s platform writes, and that SimGrid loads it and the bundled ones
// (a two-rank simulation on each).
#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "sim/platform_spec.hpp"
#include "sim/simulate.hpp"
#include "sim/synthetic_trace.hpp"

namespace p3s::sim {
namespace {

std::filesystem::path temp_file(const std::string& name) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / "p3s_sim_platform_test";
  std::filesystem::create_directories(dir);
  return dir / name;
}

// A ring of two ranks exchanging 1 MB: its simulated time, which must be positive.
double ring_time(const std::filesystem::path& platform) {
  SimOptions options;
  options.platform = platform;
  options.measured_repetitions = 1;
  return simulate(RingTrace({2, 1'000'000, 0, 1}), options).pet;
}

TEST(PlatformSpec, ShapesTopologiesForTheHostCount) {
  PlatformSpec spec;
  spec.hosts = 4096;
  spec.topology = Topology::FatTree;
  EXPECT_EQ(topology_parameters(spec), "2;64,64;1,64;1,1");
  EXPECT_EQ(cluster_hosts(spec), 4096);
  spec.topology = Topology::Torus;
  EXPECT_EQ(topology_parameters(spec), "16,16,16");
  spec.topology = Topology::Dragonfly;
  EXPECT_EQ(topology_parameters(spec), "16,1;2,1;16,1;8");
  EXPECT_EQ(cluster_hosts(spec), 4096);
  for (int hosts : {1, 17, 1000, 65536}) {
    for (Topology t : {Topology::Flat, Topology::FatTree, Topology::Torus, Topology::Dragonfly}) {
      spec.hosts = hosts;
      spec.topology = t;
      EXPECT_GE(cluster_hosts(spec), hosts) << topology_name(t) << " " << hosts;
    }
  }
}

TEST(PlatformSpec, WritesSmpiSettingsAsConfigProps) {
  PlatformSpec spec;
  spec.hosts = 8;
  spec.cores_per_host = 4;
  spec.bw_factor = "0:0.9";
  spec.os = "0:1e-6:0";
  spec.config["network/crosstraffic"] = "0";
  const std::string xml = platform_xml(spec);
  EXPECT_NE(xml.find("<platform version=\"4.1\">"), std::string::npos);
  EXPECT_NE(xml.find("<prop id=\"smpi/bw-factor\" value=\"0:0.9\"/>"), std::string::npos);
  EXPECT_NE(xml.find("<prop id=\"smpi/os\" value=\"0:1e-6:0\"/>"), std::string::npos);
  EXPECT_NE(xml.find("<prop id=\"network/crosstraffic\" value=\"0\"/>"), std::string::npos);
  EXPECT_EQ(xml.find("smpi/lat-factor"), std::string::npos);
  EXPECT_NE(xml.find("radical=\"0-7\""), std::string::npos);
  EXPECT_NE(xml.find("core=\"4\""), std::string::npos);
  // <config> must come before the cluster for SimGrid to accept it.
  EXPECT_LT(xml.find("<config>"), xml.find("<cluster"));
}

TEST(PlatformSpec, RejectsBadValues) {
  PlatformSpec spec;
  spec.bandwidth = "fast";
  EXPECT_THROW(platform_xml(spec), std::invalid_argument);
  spec = {};
  spec.hosts = 0;
  EXPECT_THROW(platform_xml(spec), std::invalid_argument);
  EXPECT_THROW(topology_from_name("hypercube"), std::invalid_argument);
}

TEST(PlatformSpec, SimGridLoadsEveryTopology) {
  for (Topology t : {Topology::Flat, Topology::FatTree, Topology::Torus, Topology::Dragonfly}) {
    PlatformSpec spec;
    spec.hosts = 16;
    spec.topology = t;
    spec.bw_factor = "0:1";
    spec.os = "0:1us:0";
    const std::filesystem::path file = temp_file(std::string(topology_name(t)) + ".xml");
    write_platform(spec, file);
    EXPECT_GT(ring_time(file), 0) << topology_name(t);
  }
}

TEST(PlatformSpec, SimGridLoadsTheBundledPlatforms) {
  for (const char* name : {"default.xml", "fat_tree.xml", "torus.xml", "dragonfly.xml"}) {
    EXPECT_GT(ring_time(std::filesystem::path(P3S_SOURCE_DIR) / "simgrid_platforms" / name), 0)
        << name;
  }
}

}  // namespace
}  // namespace p3s::sim
