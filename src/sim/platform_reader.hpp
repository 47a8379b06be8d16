#pragma once
// A platform file read back as the PlatformSpec that writes it, so that `p3s whatif` can vary
// its network and topology through the platform writer. Only a platform of one <cluster> (with
// optional host <prop>s, and an optional <config>), exactly as `p3s platform` and `p3s calibrate`
// write it, can be read back: anything else (zones, links, routes, a cluster shaped otherwise)
// has no PlatformSpec, and changing it would need SimGrid's own model of the file.
#include <filesystem>

#include "sim/platform_spec.hpp"

namespace p3s::sim {

// Throws std::invalid_argument naming the file and what keeps it from being a PlatformSpec:
// an element other than <config> and one <cluster>, or a cluster attribute that the spec
// written back would not reproduce (its topology shape, its host names, ...).
PlatformSpec read_platform_spec(const std::filesystem::path& file);

}  // namespace p3s::sim
