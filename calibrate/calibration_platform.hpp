#pragma once
// A calibration as a SimGrid platform, through `p3s platform`'s writer (sim::PlatformSpec), so
// that every topology it writes gets the calibrated values.
#include <string>
#include <vector>

#include "calibrate/calibration.hpp"
#include "sim/platform_spec.hpp"

namespace p3s::calibrate {

struct PlatformChoices {
  int hosts = 16;
  int cores_per_host = 1;
  sim::Topology topology = sim::Topology::Flat;
  // Without cross-node measurements, give the network the same-node path's latency and
  // bandwidth (a larger machine of the same kind) instead of p3s platform's default network.
  bool network_as_same_node = false;
};

// The platform, and in `assumed` every value it holds that was not measured (named).
sim::PlatformSpec calibrated_platform(const Calibration& c, const PlatformChoices& choices,
                                      std::vector<std::string>& assumed);

}  // namespace p3s::calibrate
