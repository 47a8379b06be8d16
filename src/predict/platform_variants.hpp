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

namespace p3s::predict {

// A factor as the user wrote it: "x2" or "*2" (times 2), "/2" (divided by 2).
struct ScaleFactor {
  std::string text;
  double factor = 1;
};

// Factors within a part in 10^12 are the same (x2 and /0.5).
bool same_factor(double a, double b);

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

}  // namespace p3s::predict
