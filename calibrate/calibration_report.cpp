#include "calibrate/calibration_report.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "report/log_axis.hpp"
#include "report/log_plot.hpp"
#include "sim/platform_spec.hpp"

namespace p3s::calibrate {
namespace {

using nlohmann::json;

std::string seconds_text(double s) {
  if (s == 0) return "0";
  if (s < 1e-6) return fmt::format("{:.3g} ns", s * 1e9);
  if (s < 1e-3) return fmt::format("{:.4g} us", s * 1e6);
  if (s < 1) return fmt::format("{:.4g} ms", s * 1e3);
  return fmt::format("{:.4g} s", s);
}

std::string rate_text(double bytes_per_second) {
  return fmt::format("{:.4g} GB/s", bytes_per_second * 1e-9);
}

std::string pct(double x) {
  return fmt::format("{:.2f} %", 100 * x);
}

std::string route_line(const Calibration& c, LinkKind link) {
  const Route& r = c.model.route(link);
  if (!c.covered(link).measured) {
    return fmt::format("  {:<11} not measured", link_name(link));
  }
  return fmt::format("  {:<11} latency {:<10} bandwidth {}{}", link_name(link),
                     seconds_text(r.latency), rate_text(r.bandwidth),
                     link == LinkKind::CrossNode ? " (the platform's links: half the latency each)"
                                                 : " (the platform's loopback)");
}

// The sizes of transfer segment k.
std::string segment_sizes(const std::vector<TransferSegment>& segments, std::size_t k) {
  const std::int64_t from = k == 0 ? 0 : segments[k].above + 1 - kEnvelopeBytes;
  if (k + 1 >= segments.size()) return fmt::format("{} and up", bytes_text(from));
  return fmt::format("{} to {}", bytes_text(from),
                     bytes_text(segments[k + 1].above - kEnvelopeBytes));
}

json comparison_json(const Comparison& c) {
  return {{"test", test_name(c.test)},
          {"link", link_name(c.link)},
          {"pairs", c.pairs},
          {"bytes", c.bytes},
          {"measured_seconds", c.measured},
          {"modelled_seconds", c.modelled},
          {"error", c.error}};
}

// The hosts' lines of the model: their speed, and the cost of ranks sharing cores.
std::string host_lines(const Calibration& c) {
  std::string out;
  if (c.compute.measured) {
    out += fmt::format("  {:<27} {:.4g} Gflop/s per core (compute probe, per CPU second)\n",
                       "host speed", c.compute.flops_per_second * 1e-9);
    if (c.compute.concurrent > 1) {
      out +=
          fmt::format("  {:<27} {} ranks at once: {:.4g} Gflop/s each, {:.0f} % of a core each\n",
                      "", c.compute.concurrent, c.compute.concurrent_flops_per_second * 1e-9,
                      100 * c.compute.concurrent_cpu_share);
    }
  } else {
    out += "  host speed: not measured\n";
  }
  const SharedCoreFit& shared = c.shared_core;
  if (shared.measured) {
    out += fmt::format("  {:<27} {:.4g} us x (ranks per core - 1) per communication round\n",
                       sim::kSharedCoreRound, shared.round_seconds * 1e6);
    for (const SharedCoreComparison& x : shared.comparisons) {
      out += fmt::format(
          "  {:<27} {} ranks, {:.3g} per core, {} round(s): measured {:.3g} us, "
          "modelled {:.3g} us ({:+.0f} %)\n",
          round_test_name(x.test), x.ranks, x.ranks_per_core, x.rounds, x.measured * 1e6,
          x.modelled * 1e6, 100 * (x.modelled - x.measured) / x.measured);
    }
  } else {
    out += "  ranks sharing cores: not measured (no scheduling cost added)\n";
  }
  return out;
}

}  // namespace

std::string calibration_text(const ReportInput& in) {
  const Calibration& c = *in.calibration;
  const SmpiPointToPoint& m = c.model;
  std::string out;
  for (const std::string& s : in.measurements->sources) out += fmt::format("measurements: {}\n", s);
  out += fmt::format("\nSimGrid SMPI model fitted to the {} messages{}:\n", link_name(c.primary),
                     c.simulated ? " (measured under smpirun)" : "");
  out += route_line(c, LinkKind::CrossNode) + "\n";
  out += route_line(c, LinkKind::SameNode) + "\n";
  out += fmt::format("  {:<27} {}\n", "smpi/bw-factor", m.bandwidth_factor.smpi());
  out += fmt::format("  {:<27} {}\n", "smpi/lat-factor", m.latency_factor.smpi());
  if (c.overheads_measured) {
    out += fmt::format("  {:<27} {} B (smaller messages are eager)\n",
                       "smpi/send-is-detached-thresh", m.eager_threshold);
    out += fmt::format("  {:<27} {}   (SIZE:SECONDS:SECONDS_PER_BYTE)\n", "smpi/os", m.send.smpi());
    out += fmt::format("  {:<27} {}\n", "smpi/or", m.receive.smpi());
    out += fmt::format("  {:<27} {}\n", "smpi/ois", m.isend.smpi());
  } else {
    out += "  overheads and eager threshold: not measured (SMPI's defaults)\n";
  }
  out += host_lines(c);

  out += fmt::format("\nFit of the {} times per size segment:\n", test_name(c.fitted));
  out += fmt::format("  {:<11} {:<26} {:>6} {:>10} {:>10} {:>9} {:>9} {:>9}  {}\n", "link", "sizes",
                     "points", "lat-factor", "bw-factor", "R^2", "mean err", "max err", "at");
  for (const SegmentQuality& q : c.segments) {
    out += fmt::format("  {:<11} {:<26} {:>6} {:>10.4g} {:>10.4g} {:>9.6f} {:>9} {:>9}  {}\n",
                       link_name(q.link), segment_sizes(c.transfer_segments, q.segment), q.points,
                       c.transfer_segments.at(q.segment).lat_factor,
                       c.transfer_segments.at(q.segment).bw_factor, q.r_squared, pct(q.mean_error),
                       pct(q.max_error), bytes_text(q.max_error_bytes));
  }
  if (c.worst) {
    const Comparison& w = *c.worst;
    out += fmt::format("\nLargest error: {:+.2f} % ({} {} at {}: measured {}, modelled {}){}\n",
                       100 * w.error, link_name(w.link), test_name(w.test), bytes_text(w.bytes),
                       seconds_text(w.measured), seconds_text(w.modelled),
                       w.test == Test::SendOverhead || w.test == Test::IsendOverhead
                           ? " (relative to that size's ping-pong)"
                           : "");
  }
  if (!c.extrapolated.empty() || !in.assumed.empty()) {
    out += "\nBeyond the measurements:\n";
    for (const std::string& s : c.extrapolated) out += "  " + s + "\n";
    for (const std::string& s : in.assumed) out += "  " + s + "\n";
  }
  if (!c.warnings.empty()) {
    out += "\n";
    for (const NamedWarning& w : c.warnings)
      out += fmt::format("warning [{}]: {}\n", w.name, w.text);
  }
  out += fmt::format("\nplatform: {} ({} hosts of {} cores, {} network)\n", in.platform_file,
                     sim::cluster_hosts(*in.platform), in.platform->cores_per_host,
                     sim::topology_name(in.platform->topology));
  return out;
}

json calibration_json(const ReportInput& in) {
  const Calibration& c = *in.calibration;
  const SmpiPointToPoint& m = c.model;
  json j;
  j["format"] = "p3s-calibration-report 1";
  j["sources"] = in.measurements->sources;
  j["simulated"] = c.simulated;
  j["primary"] = link_name(c.primary);
  json routes = json::object();
  for (LinkKind link : kLinkKinds) {
    const LinkCoverage& cov = c.covered(link);
    json r = {{"measured", cov.measured}, {"sizes", cov.sizes}, {"noise", cov.noise}};
    if (cov.measured) {
      r["latency_seconds"] = m.route(link).latency;
      r["bandwidth_bytes_per_second"] = m.route(link).bandwidth;
      r["min_bytes"] = cov.min_bytes;
      r["max_bytes"] = cov.max_bytes;
    }
    routes[std::string(link_name(link))] = r;
  }
  j["routes"] = routes;
  j["smpi"] = {{"bw-factor", m.bandwidth_factor.smpi()}, {"lat-factor", m.latency_factor.smpi()}};
  j["overheads_measured"] = c.overheads_measured;
  if (c.overheads_measured) {
    j["smpi"]["os"] = m.send.smpi();
    j["smpi"]["or"] = m.receive.smpi();
    j["smpi"]["ois"] = m.isend.smpi();
    j["smpi"]["send-is-detached-thresh"] = m.eager_threshold;
  }
  j["compute"] = {{"measured", c.compute.measured},
                  {"flops_per_second", c.compute.flops_per_second},
                  {"concurrent", c.compute.concurrent},
                  {"concurrent_flops_per_second", c.compute.concurrent_flops_per_second},
                  {"concurrent_cpu_share", c.compute.concurrent_cpu_share}};
  json shared = json::array();
  for (const SharedCoreComparison& x : c.shared_core.comparisons) {
    shared.push_back({{"test", round_test_name(x.test)},
                      {"ranks", x.ranks},
                      {"ranks_per_core", x.ranks_per_core},
                      {"rounds", x.rounds},
                      {"measured_seconds", x.measured},
                      {"modelled_seconds", x.modelled},
                      {"where", x.where}});
  }
  j["shared_core"] = {{"measured", c.shared_core.measured},
                      {"round_seconds", c.shared_core.round_seconds},
                      {"max_error", c.shared_core.max_error},
                      {"comparisons", shared}};
  json segments = json::array();
  for (const SegmentQuality& q : c.segments) {
    segments.push_back({{"link", link_name(q.link)},
                        {"segment", q.segment},
                        {"first_bytes", q.first_bytes},
                        {"last_bytes", q.last_bytes},
                        {"points", q.points},
                        {"lat_factor", c.transfer_segments.at(q.segment).lat_factor},
                        {"bw_factor", c.transfer_segments.at(q.segment).bw_factor},
                        {"r_squared", q.r_squared},
                        {"mean_error", q.mean_error},
                        {"max_error", q.max_error},
                        {"max_error_bytes", q.max_error_bytes}});
  }
  j["segments"] = segments;
  j["worst"] = c.worst ? comparison_json(*c.worst) : json(nullptr);
  json comparisons = json::array();
  for (const Comparison& cmp : c.comparisons) comparisons.push_back(comparison_json(cmp));
  j["comparisons"] = comparisons;
  json warnings = json::array();
  for (const NamedWarning& w : c.warnings) warnings.push_back({{"name", w.name}, {"text", w.text}});
  j["warnings"] = warnings;
  j["extrapolated"] = c.extrapolated;
  j["assumed"] = in.assumed;
  j["platform"] = in.platform_file;
  return j;
}

std::string calibration_svg(const ReportInput& in) {
  const Calibration& c = *in.calibration;
  struct Style {
    Test test;
    const char* colour;
  };
  static const Style kStyles[] = {
      {Test::PingPong, "#1f5fbf"},      {Test::PingPongSsend, "#7a3fb0"},
      {Test::PingPongIsend, "#2a9d4a"}, {Test::SendOverhead, "#d9731a"},
      {Test::IsendOverhead, "#b8342e"}, {Test::AppMessage, "#222222"}};
  constexpr double kPanelWidth = 560, kHeight = 560, kTop = 70, kBottom = 470;
  std::vector<LinkKind> links;
  for (LinkKind link : kLinkKinds) {
    if (c.covered(link).measured) links.push_back(link);
  }
  const double width = std::max(kPanelWidth * static_cast<double>(links.size()) + 40, 760.0);
  std::string svg = report::svg_document_start(
      width, kHeight,
      fmt::format("Measured (dots) and SMPI-modelled (dashed) time per message size: {}",
                  std::filesystem::path(in.platform_file).filename().string()));
  for (std::size_t i = 0; i < links.size(); ++i) {
    std::vector<report::PlotSeries> series;
    for (const Style& style : kStyles) {
      report::PlotSeries measured{
          {}, style.colour, fmt::format("{} measured", test_name(style.test)), false};
      report::PlotSeries modelled{{}, style.colour, "modelled", true, true};
      for (const Comparison& cmp : c.comparisons) {
        if (cmp.link != links[i] || cmp.test != style.test || cmp.pairs != 1 || cmp.bytes <= 0) {
          continue;
        }
        const auto x = static_cast<double>(cmp.bytes);
        if (cmp.measured > 0) measured.points.emplace_back(x, cmp.measured);
        if (cmp.modelled > 0) modelled.points.emplace_back(x, cmp.modelled);
      }
      series.push_back(std::move(measured));
      series.push_back(std::move(modelled));
    }
    const double left = 90 + kPanelWidth * static_cast<double>(i);
    svg += report::log_plot_panel(
        {left, left + kPanelWidth - 110, kTop, kBottom,
         fmt::format("{} messages", link_name(links[i])), "message size (log scale, 0 B not shown)",
         "time (log scale)", 2, 10, report::bytes_label, report::seconds_label},
        series);
  }
  svg += fmt::format(
      "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\" fill=\"#555\">overhead "
      "tests: the sender's time per call; ping-pongs: half a round trip; app-messages: the least "
      "time of a received message in a replay</text>\n",
      width / 2, kHeight - 12);
  return svg + "</svg>\n";
}

}  // namespace p3s::calibrate
