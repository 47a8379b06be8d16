#pragma once
// The platform variants `p3s whatif` simulates: every combination of the platforms given and
// the changes asked (topology, link bandwidth and latency factors, CPU speedup), each platform
// as given first. Changed platforms are written through the platform writer from the spec read
// back from the file (sim/platform_reader.hpp); a file that cannot be read back only gets the
// variants that leave it as it is (--cpu-speedup).
#include <optional>
#include <string>
#include <vector>

#include "report/whatif_report.hpp"
#include "sim/platform_spec.hpp"

namespace p3s::cli {

// A factor as the user wrote it: "x2" or "*2" (times 2), "/2" (divided by 2).
struct ScaleFactor {
  std::string text;
  double factor = 1;
};

// "x2,/2": throws UsageError naming `flag` for a bare number ("2": times or divided by?), a
// factor that is not a positive number, or the same factor twice ("x2,*2").
std::vector<ScaleFactor> parse_scale_factors(const std::string& text, const std::string& flag);
// "1,2": positive numbers, each once.
std::vector<double> parse_cpu_speedups(const std::string& text);
// "fat-tree,torus": topology names, each once.
std::vector<sim::Topology> parse_topologies(const std::string& text);

struct VariantRequest {
  std::vector<std::string> platforms;  // files, each once
  std::vector<sim::Topology> topologies;
  std::vector<ScaleFactor> bandwidths, latencies;
  std::vector<double> cpu_speedups;
};

struct PlannedVariant {
  report::WhatifVariant variant;          // its platform is the base file when spec is empty
  std::optional<sim::PlatformSpec> spec;  // the platform to write for it
};

// Every combination, in the order platform, topology, bandwidth, latency, CPU speedup, each
// axis starting from the platform as given (x1, its own topology, speedup 1); the first is
// the first platform as given. Ids are v1, v2, ... in that order. What cannot be built is
// named in `refused`, one line per platform, and left out.
std::vector<PlannedVariant> plan_variants(const VariantRequest& request,
                                          std::vector<std::string>& refused);

}  // namespace p3s::cli
