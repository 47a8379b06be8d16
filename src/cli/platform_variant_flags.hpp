#pragma once
// What `p3s whatif --bandwidth, --latency, --cpu-speedup, --topology` say, parsed into the
// variants' axes (predict/platform_variants.hpp).
#include <string>
#include <vector>

#include "predict/platform_variants.hpp"
#include "sim/platform_spec.hpp"

namespace p3s::cli {

// "x2,/2": throws UsageError naming `flag` for a bare number ("2": times or divided by?), a
// factor that is not a positive number, or the same factor twice ("x2,*2").
std::vector<predict::ScaleFactor> parse_scale_factors(const std::string& text,
                                                      const std::string& flag);
// "1,2": positive numbers, each once.
std::vector<double> parse_cpu_speedups(const std::string& text);
// "fat-tree,torus": topology names, each once.
std::vector<sim::Topology> parse_topologies(const std::string& text);

}  // namespace p3s::cli
