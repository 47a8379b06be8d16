// Platform files: what p3s platform writes, and that SimGrid loads it and the bundled ones
// (a two-rank simulation on each).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "sim/platform_reader.hpp"
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

TEST(PlatformSpec, WritesHostPropertiesInsideTheCluster) {
  PlatformSpec spec;
  spec.host_properties[kSharedCoreRound] = "2.5e-06";
  spec.host_properties["rack"] = "a&b";
  const std::string xml = platform_xml(spec);
  const std::size_t cluster = xml.find("<cluster"), end = xml.find("</cluster>");
  ASSERT_NE(end, std::string::npos) << xml;
  const std::size_t prop = xml.find("<prop id=\"p3s/shared-core-round\" value=\"2.5e-06\"/>");
  EXPECT_LT(cluster, prop);
  EXPECT_LT(prop, end);
  EXPECT_NE(xml.find("<prop id=\"rack\" value=\"a&amp;b\"/>"), std::string::npos) << xml;
  EXPECT_EQ(xml.find("<config>"), std::string::npos);
  // Without host properties the cluster stays one empty element.
  EXPECT_EQ(platform_xml(PlatformSpec{}).find("</cluster>"), std::string::npos);
}

TEST(PlatformSpec, RejectsASharedCoreRoundThatIsNoNumberOfSeconds) {
  for (const char* bad : {"", "fast", "-1e-6", "nan", "inf", "2.5us", " 1e-6", "1e-6x"}) {
    PlatformSpec spec;
    spec.host_properties[kSharedCoreRound] = bad;
    try {
      platform_xml(spec);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("'") + bad + "'"), std::string::npos)
          << e.what();
    }
  }
  for (const char* good : {"0", "2.5e-06", "0.000003"}) {
    PlatformSpec spec;
    spec.host_properties[kSharedCoreRound] = good;
    EXPECT_NO_THROW(platform_xml(spec)) << good;
  }
  EXPECT_EQ(shared_core_round_seconds("2.5e-06"), 2.5e-6);
  EXPECT_FALSE(shared_core_round_seconds("-0.5"));
  PlatformSpec unnamed;
  unnamed.host_properties[""] = "1";
  EXPECT_THROW(platform_xml(unnamed), std::invalid_argument);
}

TEST(PlatformSpec, RejectsBadValues) {
  PlatformSpec spec;
  spec.bandwidth = "fast";
  EXPECT_THROW(platform_xml(spec), std::invalid_argument);
  spec = {};
  spec.hosts = 0;
  EXPECT_THROW(platform_xml(spec), std::invalid_argument);
  EXPECT_THROW(topology_from_name("hypercube"), std::invalid_argument);
  EXPECT_THROW(link_sharing_from_name("fair"), std::invalid_argument);
  // The link sharing is the spec's, not a host property of the user's.
  spec = {};
  spec.host_properties[kLinkSharing] = "none";
  EXPECT_THROW(platform_xml(spec), std::invalid_argument);
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

// SimGrid gives the cluster's props to every host, whatever the topology: 4 ranks of a ring on
// one single-core host, each sleeping after its one Waitall per repetition 1 us x (4 / 1 - 1),
// take 3 us longer per repetition, 30 us over the phase's weight of 10.
TEST(PlatformSpec, EveryTopologyGivesItsHostsTheClusterProps) {
  for (Topology t : {Topology::Flat, Topology::FatTree, Topology::Torus, Topology::Dragonfly}) {
    SCOPED_TRACE(topology_name(t));
    PlatformSpec spec;
    spec.hosts = 16;
    spec.topology = t;
    const std::filesystem::path plain = temp_file(std::string(topology_name(t)) + "-plain.xml");
    write_platform(spec, plain);
    spec.host_properties[kSharedCoreRound] = "1e-6";
    const std::filesystem::path shared = temp_file(std::string(topology_name(t)) + "-shared.xml");
    write_platform(spec, shared);
    SimOptions options;
    options.ranks_per_host = 4;
    options.measured_repetitions = 1;
    const RingTrace ring({4, 1000, 0, 10});
    options.platform = plain;
    const double without = simulate(ring, options).pet;
    options.platform = shared;
    const double with = simulate(ring, options).pet;
    EXPECT_NEAR(with - without, 10 * 3e-6, 1e-12);
  }
}

// A platform written by hand whose hosts ask for a link sharing p3s does not know, or for two
// different ones: the simulation is refused, naming the hosts, before anything runs.
TEST(PlatformSpec, RefusesALinkSharingItDoesNotKnowOrThatHostsDisagreeOn) {
  const std::string head =
      "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      "<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">\n";
  const std::string tail =
      "<link id=\"l\" bandwidth=\"1GBps\" latency=\"1us\"/>\n"
      "<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n</zone>\n</platform>\n";
  const auto host = [](const std::string& name, const std::string& sharing) {
    return "<host id=\"" + name + "\" speed=\"1Gf\"><prop id=\"p3s/link-sharing\" value=\"" +
           sharing + "\"/></host>\n";
  };
  const std::pair<std::string, std::string> cases[] = {
      {host("a", "fair") + host("b", "fair"),
       "host a: property p3s/link-sharing: unknown link "
       "sharing 'fair'"},
      {host("a", "none") + host("b", "max-min"), "hosts a and b ask for different link sharing"}};
  for (const auto& [hosts, message] : cases) {
    SCOPED_TRACE(message);
    const std::filesystem::path file = temp_file("link-sharing.xml");
    std::ofstream(file) << head << hosts << tail;
    try {
      ring_time(file);
      ADD_FAILURE() << "simulated";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
}

TEST(PlatformSpec, SimGridLoadsTheBundledPlatforms) {
  for (const char* name : {"default.xml", "fat_tree.xml", "torus.xml", "dragonfly.xml"}) {
    EXPECT_GT(ring_time(std::filesystem::path(P3S_SOURCE_DIR) / "simgrid_platforms" / name), 0)
        << name;
  }
}

// The bundled platforms were written by `p3s platform -o F --hosts 4096 [--topology T]` (their
// comments say so): read back, they are exactly those specs.
TEST(PlatformReader, ReadsBackTheBundledPlatformsAsTheirCommandsWroteThem) {
  const std::filesystem::path dir = std::filesystem::path(P3S_SOURCE_DIR) / "simgrid_platforms";
  const std::pair<const char*, Topology> files[] = {{"default.xml", Topology::Flat},
                                                    {"fat_tree.xml", Topology::FatTree},
                                                    {"torus.xml", Topology::Torus},
                                                    {"dragonfly.xml", Topology::Dragonfly}};
  for (const auto& [file, topology] : files) {
    SCOPED_TRACE(file);
    const PlatformSpec spec = read_platform_spec(dir / file);
    const PlatformSpec want;  // p3s platform's defaults
    EXPECT_EQ(spec.hosts, 4096);
    EXPECT_EQ(spec.topology, topology);
    EXPECT_EQ(spec.cores_per_host, want.cores_per_host);
    EXPECT_EQ(spec.bandwidth, want.bandwidth);
    EXPECT_EQ(spec.latency, want.latency);
    EXPECT_EQ(spec.speed, want.speed);
    EXPECT_EQ(spec.loopback_bandwidth, want.loopback_bandwidth);
    EXPECT_EQ(spec.loopback_latency, want.loopback_latency);
    EXPECT_TRUE(spec.bw_factor.empty() && spec.lat_factor.empty() && spec.config.empty());
  }
}

// What p3s calibrate writes (factors, overheads, other settings, host props) reads back as
// written.
TEST(PlatformReader, ReadsBackSmpiSettings) {
  PlatformSpec spec;
  spec.hosts = 100;
  spec.cores_per_host = 4;
  spec.topology = Topology::FatTree;
  spec.bandwidth = "12.5GBps";
  spec.latency = "1.5us";
  spec.bw_factor = "0:0.5;65536:0.9";
  spec.os = "0:1e-6:1e-10";
  spec.config["smpi/send-is-detached-thresh"] = "32768";
  spec.host_properties[kSharedCoreRound] = "2.5e-06";
  spec.link_sharing = LinkSharing::None;
  spec.comment = "calibrated";
  const std::filesystem::path file = temp_file("calibrated.xml");
  write_platform(spec, file);
  const PlatformSpec back = read_platform_spec(file);
  EXPECT_EQ(back.hosts, 100);
  EXPECT_EQ(back.cores_per_host, 4);
  EXPECT_EQ(back.topology, Topology::FatTree);
  EXPECT_EQ(back.bandwidth, "12.5GBps");
  EXPECT_EQ(back.latency, "1.5us");
  EXPECT_EQ(back.bw_factor, "0:0.5;65536:0.9");
  EXPECT_EQ(back.os, "0:1e-6:1e-10");
  EXPECT_TRUE(back.lat_factor.empty());
  EXPECT_EQ(back.config, spec.config);
  EXPECT_EQ(back.host_properties, spec.host_properties);
  EXPECT_EQ(back.link_sharing, LinkSharing::None);
  EXPECT_EQ(platform_xml(back).substr(platform_xml(back).find("<platform")),
            platform_xml(spec).substr(platform_xml(spec).find("<platform")));
}

// Anything the spec would not write back the same is refused, naming the file and what.
TEST(PlatformReader, RefusesWhatIsNotOneClusterAsP3sWritesIt) {
  const std::string head = "<?xml version='1.0'?>\n<platform version=\"4.1\">\n";
  const std::string cluster =
      "<cluster id=\"c\" prefix=\"node-\" suffix=\"\" radical=\"0-15\" speed=\"1Gf\" core=\"1\" "
      "bw=\"10Gbps\" lat=\"1us\" loopback_bw=\"100Gbps\" loopback_lat=\"0.1us\"";
  const std::pair<std::string, std::string> cases[] = {
      {head + cluster +
           " sharing_policy=\"SPLITDUPLEX\"/>\n<zone id=\"z\" routing=\"Full\"/>\n</platform>\n",
       "<zone>"},
      {head + cluster + " sharing_policy=\"SPLITDUPLEX\" bb_bw=\"40Gbps\"/>\n</platform>\n",
       "bb_bw"},
      {head + cluster + "/>\n</platform>\n", "sharing_policy"},
      {head + cluster + " topology=\"FAT_TREE\" topo_parameters=\"2;4,4;1,2;1,1\"/>\n</platform>\n",
       "topo_parameters"},
      {head + cluster + " sharing_policy=\"SPLITDUPLEX\"/>\n" + cluster +
           " sharing_policy=\"SPLITDUPLEX\"/>\n</platform>\n",
       "2 <cluster>"},
      {head + "<cluster id=\"c\" prefix=\"node-\" radical=\"1-16\"/>\n</platform>\n", "radical"},
      {head + cluster, "not readable as XML"},
      {head + cluster +
           " sharing_policy=\"SPLITDUPLEX\">\n<prop id=\"p3s/shared-core-round\" "
           "value=\"-1\"/>\n</cluster>\n</platform>\n",
       "'-1'"},
      {head + cluster +
           " sharing_policy=\"SPLITDUPLEX\">\n<host id=\"h\" speed=\"1Gf\"/>\n"
           "</cluster>\n</platform>\n",
       "<host>"},
  };
  for (const auto& [text, reason] : cases) {
    SCOPED_TRACE(reason);
    const std::filesystem::path file = temp_file("not-p3s.xml");
    std::ofstream(file) << text;
    try {
      read_platform_spec(file);
      ADD_FAILURE() << "read back:\n" << text;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
    }
  }
  // The cluster as p3s writes it is read.
  const std::filesystem::path file = temp_file("p3s.xml");
  std::ofstream(file) << head << cluster << " sharing_policy=\"SPLITDUPLEX\"/>\n</platform>\n";
  EXPECT_EQ(read_platform_spec(file).hosts, 16);
}

TEST(PlatformSpec, ScalesAQuantityInItsOwnUnit) {
  EXPECT_EQ(scaled_quantity("10Gbps", 2), "20Gbps");
  EXPECT_EQ(scaled_quantity("1us", 0.5), "0.5us");
  EXPECT_EQ(scaled_quantity("12.5GBps", 4), "50GBps");
  EXPECT_THROW(scaled_quantity("10Gbps", 0), std::invalid_argument);
  EXPECT_THROW(scaled_quantity("10Gbps", -1), std::invalid_argument);
  EXPECT_THROW(scaled_quantity("fast", 2), std::invalid_argument);
  EXPECT_THROW(scaled_quantity("10", 2), std::invalid_argument);
}

}  // namespace
}  // namespace p3s::sim
