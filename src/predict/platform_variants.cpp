#include "predict/platform_variants.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "sim/platform_reader.hpp"

namespace p3s::predict {

bool same_factor(double a, double b) {
  return std::fabs(a - b) <= 1e-12 * std::max(a, b);
}

namespace {

std::string factor_label(const char* what, double factor, const std::string& text) {
  return same_factor(factor, 1) ? "" : fmt::format(", {} {}", what, text);
}

// What every platform's variants combine: each axis starts from the platform as given.
struct VariantAxes {
  std::vector<ScaleFactor> bandwidths, latencies;
  std::vector<double> speedups;
};

VariantAxes variant_axes(const VariantRequest& request) {
  VariantAxes axes{{{"x1", 1}}, {{"x1", 1}}, {1}};
  for (const ScaleFactor& f : request.bandwidths) {
    if (!same_factor(f.factor, 1)) axes.bandwidths.push_back(f);
  }
  for (const ScaleFactor& f : request.latencies) {
    if (!same_factor(f.factor, 1)) axes.latencies.push_back(f);
  }
  for (const double s : request.cpu_speedups) {
    if (!same_factor(s, 1)) axes.speedups.push_back(s);
  }
  return axes;
}

// One platform file as read back, with the topologies its variants take.
struct BasePlatform {
  std::string path;
  std::string label;
  std::optional<sim::PlatformSpec> spec;
  std::string unreadable;  // why the file could not be read back
  // Its own topology first (unknown when unread), then the others asked.
  std::vector<std::optional<sim::Topology>> topologies;
};

BasePlatform read_base_platform(const std::string& platform, const VariantRequest& request) {
  namespace fs = std::filesystem;
  BasePlatform base;
  base.path = platform;
  base.label = fs::path(platform).filename().string();
  for (const std::string& other : request.platforms) {
    if (other != platform && fs::path(other).filename() == fs::path(platform).filename())
      base.label = platform;  // two files of one name: tell them apart by their paths
  }
  try {
    base.spec = sim::read_platform_spec(platform);
  } catch (const std::invalid_argument& e) {
    base.unreadable = e.what();
  }
  base.topologies = {base.spec ? std::optional(base.spec->topology) : std::nullopt};
  for (const sim::Topology t : request.topologies) {
    if (!base.spec || t != base.spec->topology) base.topologies.emplace_back(t);
  }
  return base;
}

// The variant of `base` with its topology number `t` and these factors, without its id.
PlannedVariant describe_variant(const BasePlatform& base, std::size_t t, const ScaleFactor& bw,
                                const ScaleFactor& lat, double speedup) {
  PlannedVariant v;
  v.variant.base_platform = base.path;
  v.variant.platform = base.path;
  v.variant.topology =
      base.topologies[t] ? std::string(sim::topology_name(*base.topologies[t])) : "as given";
  v.variant.bandwidth_factor = bw.factor;
  v.variant.latency_factor = lat.factor;
  v.variant.cpu_speedup = speedup;
  v.variant.name = base.label + (t > 0 ? ", " + v.variant.topology : "") +
                   factor_label("bandwidth", bw.factor, bw.text) +
                   factor_label("latency", lat.factor, lat.text) +
                   (speedup != 1 ? fmt::format(", cpu x{:g}", speedup) : "");
  return v;
}

// The platform a variant that changes the network runs on; std::invalid_argument when the
// base could not be read back or the changed platform is not valid.
sim::PlatformSpec changed_platform(const BasePlatform& base, std::size_t t, const ScaleFactor& bw,
                                   const ScaleFactor& lat, const std::string& name) {
  if (!base.spec) throw std::invalid_argument(base.unreadable);
  sim::PlatformSpec spec = *base.spec;
  if (base.topologies[t]) spec.topology = *base.topologies[t];
  spec.bandwidth = sim::scaled_quantity(spec.bandwidth, bw.factor);
  spec.latency = sim::scaled_quantity(spec.latency, lat.factor);
  spec.comment = fmt::format("Written by p3s whatif: {}, from {}", name, base.path);
  sim::check_platform(spec);
  return spec;
}

// Every variant of one platform, appended to `out`; those that cannot be built are named in
// one line of `refused`.
void plan_platform_variants(const BasePlatform& base, const VariantAxes& axes,
                            std::vector<PlannedVariant>& out, std::vector<std::string>& refused) {
  std::vector<std::string> not_built;
  std::string why_not;
  for (std::size_t t = 0; t < base.topologies.size(); ++t) {
    for (const ScaleFactor& bw : axes.bandwidths) {
      for (const ScaleFactor& lat : axes.latencies) {
        for (const double speedup : axes.speedups) {
          PlannedVariant v = describe_variant(base, t, bw, lat, speedup);
          const bool changed = t > 0 || bw.factor != 1 || lat.factor != 1;
          if (changed) {
            try {
              v.spec = changed_platform(base, t, bw, lat, v.variant.name);
            } catch (const std::invalid_argument& e) {
              not_built.push_back(v.variant.name);
              why_not = e.what();
              continue;
            }
          }
          v.variant.id = fmt::format("v{}", out.size() + 1);
          out.push_back(std::move(v));
        }
      }
    }
  }
  if (!not_built.empty()) {
    refused.push_back(fmt::format("{} variant(s) not built ({}): {}", not_built.size(),
                                  fmt::join(not_built, "; "), why_not));
  }
}

}  // namespace

std::vector<PlannedVariant> plan_variants(const VariantRequest& request,
                                          std::vector<std::string>& refused) {
  const VariantAxes axes = variant_axes(request);
  std::vector<PlannedVariant> out;
  for (const std::string& platform : request.platforms) {
    plan_platform_variants(read_base_platform(platform, request), axes, out, refused);
  }
  return out;
}

}  // namespace p3s::predict
