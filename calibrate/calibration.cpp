#include "calibrate/calibration.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include "calibrate/segmented_fit.hpp"
#include "calibrate/size_series.hpp"
#include "sim/platform_spec.hpp"

namespace p3s::calibrate {
namespace {

constexpr std::size_t kMinSizes = 3;          // ping-pong sizes a link kind needs to be fitted
constexpr std::size_t kMinSegmentPoints = 3;  // sizes per segment of a fit
constexpr std::size_t kMaxTransferSegments = 6;
constexpr std::size_t kMaxOverheadSegments = 3;
// A size segment of the transfer time reaches at least this factor in payload: SMPI's own
// default factors are 1.4x to 4x apart, and a real system's noise otherwise makes segments of
// a few bytes.
constexpr double kMinSegmentSpan = 1.4;
// Relative error below which more segments gain nothing, however exact the data (SMPI's times
// carry rounding of about 1e-9 s); raised to the measured noise.
constexpr double kNoiseFloor = 2e-3;
constexpr double kNoiseCeiling = 0.05;
// SimGrid's network/TCP-gamma: a flow's rate is at most gamma / (2 x route latency).
constexpr double kTcpGamma = 4194304;
// Beyond this relative error the shared-core round model does not describe the round tests.
constexpr double kSharedCoreTolerance = 0.5;

std::size_t index(LinkKind link) {
  return static_cast<std::size_t>(link);
}

// The single-pair series of one link kind.
struct KindSeries {
  SizeSeries pingpong, ssend, isend_pingpong, send_overhead, isend_overhead, app_message;
  KindSeries(const std::vector<MessageSample>& s, LinkKind link)
      : pingpong(s, Test::PingPong, link, 1),
        ssend(s, Test::PingPongSsend, link, 1),
        isend_pingpong(s, Test::PingPongIsend, link, 1),
        send_overhead(s, Test::SendOverhead, link, 1),
        isend_overhead(s, Test::IsendOverhead, link, 1),
        app_message(s, Test::AppMessage, link, 1) {}
  const SizeSeries& of(Test t) const {
    switch (t) {
      case Test::PingPong:
        return pingpong;
      case Test::PingPongSsend:
        return ssend;
      case Test::PingPongIsend:
        return isend_pingpong;
      case Test::SendOverhead:
        return send_overhead;
      case Test::IsendOverhead:
        return isend_overhead;
      case Test::AppMessage:
        return app_message;
    }
    return pingpong;
  }
  bool has_overhead_tests() const {
    return send_overhead.size() >= kMinSizes && ssend.size() >= kMinSizes;
  }
};

// Where a breakpoint goes between the last size of one segment and the first of the next:
// their geometric middle (the data say only that it is in between).
std::int64_t gap_boundary(double last, double next) {
  const auto b = static_cast<std::int64_t>(std::floor(std::sqrt(last * next)));
  return std::clamp(b, static_cast<std::int64_t>(last), static_cast<std::int64_t>(next) - 1);
}

// ---------------------------------------------------------------- eager threshold

struct EagerSplit {
  std::int64_t threshold = 0;  // the smallest size sent by rendezvous
  enum class Kind { Split, AllEager, AllRendezvous } kind = Kind::Split;
  std::size_t contradictions = 0;  // sizes on the wrong side of the split
};

// Per size measured by both: MPI_Send's sender time over the ping-pong's.
std::vector<std::pair<std::int64_t, double>> send_ratios(const KindSeries& s) {
  std::vector<std::pair<std::int64_t, double>> ratio;
  for (const SizePoint& p : s.send_overhead.points()) {
    const std::optional<double> pp = s.pingpong.at(p.bytes);
    // Clamped: a burst the OS interrupted must not pull the step towards itself.
    if (pp && *pp > 0) ratio.emplace_back(p.bytes, std::min(p.seconds / *pp, 1.2));
  }
  return ratio;
}

// MPI_Send's sender time against the ping-pong's: small (it only hands the message over) below
// the threshold, the whole transfer (ratio near 1) above. The split is the best step function
// of that ratio over the sizes.
std::optional<EagerSplit> find_eager_split(const KindSeries& s) {
  const std::vector<std::pair<std::int64_t, double>> ratio = send_ratios(s);
  if (ratio.size() < kMinSizes) return std::nullopt;
  const std::size_t m = ratio.size();
  auto mean = [&](std::size_t from, std::size_t to) {
    double sum = 0;
    for (std::size_t i = from; i < to; ++i) sum += ratio[i].second;
    return sum / static_cast<double>(to - from);
  };
  std::size_t best_j = 0;
  double best_cost = std::numeric_limits<double>::infinity(), low = 0, high = 0;
  for (std::size_t j = 1; j < m; ++j) {
    const double ml = mean(0, j), mh = mean(j, m);
    if (mh <= ml) continue;
    double cost = 0;
    for (std::size_t i = 0; i < m; ++i) {
      const double d = ratio[i].second - (i < j ? ml : mh);
      cost += d * d;
    }
    if (cost < best_cost) best_cost = cost, best_j = j, low = ml, high = mh;
  }
  EagerSplit split;
  if (best_j > 0 && high - low >= 0.1 && high >= 0.7) {
    split.threshold = ratio[best_j].first;
    const double middle = 0.5 * (low + high);
    for (std::size_t i = 0; i < m; ++i) {
      if ((i < best_j) != (ratio[i].second < middle)) ++split.contradictions;
    }
    return split;
  }
  if (mean(0, m) >= 0.7) {
    split.kind = EagerSplit::Kind::AllRendezvous;
    split.threshold = ratio.front().first;
  } else {
    split.kind = EagerSplit::Kind::AllEager;
    split.threshold = ratio.back().first + 1;
  }
  return split;
}

// ---------------------------------------------------------------- overheads

// Weighted by the ping-pong time of the size: an overhead's error counts as much as the same
// error on the whole message.
void add_point(std::vector<FitPoint>& points, const KindSeries& s, std::int64_t bytes,
               double value) {
  const std::optional<double> pp = s.pingpong.at(bytes);
  if (!pp || !(*pp > 0)) return;
  points.push_back({static_cast<double>(bytes), std::max(0.0, value), 1 / (*pp * *pp)});
}

std::vector<FitPoint> sorted_unique(std::vector<FitPoint> points) {
  std::sort(points.begin(), points.end(),
            [](const FitPoint& a, const FitPoint& b) { return a.x < b.x; });
  points.erase(std::unique(points.begin(), points.end(),
                           [](const FitPoint& a, const FitPoint& b) { return a.x == b.x; }),
               points.end());
  return points;
}

Overhead fit_overhead(std::vector<FitPoint> points, double noise) {
  points = sorted_unique(std::move(points));
  if (points.empty()) return Overhead();
  const std::size_t min_points = std::min(kMinSegmentPoints, points.size());
  const SegmentedFit fit = fit_segments_auto(points, kMaxOverheadSegments, min_points, noise);
  std::vector<Overhead::Piece> pieces;
  for (std::size_t k = 0; k < fit.segments.size(); ++k) {
    const LineSegment& seg = fit.segments[k];
    const std::int64_t above =
        k == 0 ? 0 : gap_boundary(points[fit.segments[k - 1].last].x, points[seg.first].x);
    // A per-byte cost below a picosecond over the largest size is the fit's rounding.
    const double per_byte = seg.slope * points.back().x < 1e-12 ? 0 : seg.slope;
    pieces.push_back({above, seg.intercept, per_byte});
  }
  return Overhead(std::move(pieces));
}

// ---------------------------------------------------------------- transfer time

// The transfer time of each size (smpi_model.hpp): below the threshold the MPI_Ssend ping-pong
// less MPI_Send's sender time, above it the MPI_Send ping-pong; without overhead tests the
// fitted overheads are taken off the ping-pong.
std::vector<FitPoint> transfer_points(const KindSeries& s, const SmpiPointToPoint& model,
                                      bool own_overheads, std::size_t& dropped) {
  std::vector<FitPoint> points;
  for (const SizePoint& p : s.pingpong.points()) {
    double t = p.seconds;
    if (model.eager(p.bytes)) {
      const std::optional<double> ss = s.ssend.at(p.bytes), so = s.send_overhead.at(p.bytes);
      if (own_overheads && ss && so) {
        t = *ss - *so;
      } else {
        t -= model.send.seconds(p.bytes) + model.receive.seconds(p.bytes);
      }
    }
    if (!(t > 0)) {
      ++dropped;
      continue;
    }
    points.push_back({static_cast<double>(p.bytes + kEnvelopeBytes), t, 1 / (t * t)});
  }
  return points;
}

// One line's slope, when flat (the fit allows >= 0): its neighbours' bandwidth, the intercept
// fitted again with that slope.
void borrow_slopes(const std::vector<FitPoint>& points, SegmentedFit& fit,
                   std::vector<NamedWarning>& warnings) {
  auto& segs = fit.segments;
  for (std::size_t k = 0; k < segs.size(); ++k) {
    if (segs[k].slope > 0) continue;
    std::optional<double> slope;
    for (std::size_t d = 1; d < segs.size() && !slope; ++d) {
      if (k + d < segs.size() && segs[k + d].slope > 0) slope = segs[k + d].slope;
      if (!slope && k >= d && segs[k - d].slope > 0) slope = segs[k - d].slope;
    }
    if (!slope) {
      throw CalibrationError(
          "the transfer time does not grow with the message size at any size: no bandwidth can "
          "be fitted (are the sizes all tiny, or the times noise?)");
    }
    double sw = 0, swr = 0;
    for (std::size_t i = segs[k].first; i <= segs[k].last; ++i) {
      sw += points[i].weight;
      swr += points[i].weight * (points[i].y - *slope * points[i].x);
    }
    segs[k].slope = *slope;
    segs[k].intercept = std::max(0.0, swr / sw);
    warnings.push_back(
        {"flat-segment",
         fmt::format(
             "transfer times of {} to {} do not grow with the size: that segment takes "
             "its neighbour's bandwidth factor",
             bytes_text(static_cast<std::int64_t>(points[segs[k].first].x) - kEnvelopeBytes),
             bytes_text(static_cast<std::int64_t>(points[segs[k].last].x) - kEnvelopeBytes))});
  }
}

// Latency, bandwidth and the two factors from the segments: the largest sizes' segment has
// bw-factor 1 (the bandwidth is what large messages get) and the smallest sizes' lat-factor 1
// (the latency is what small messages see). A factor that does not change at a breakpoint
// (within 0.1 %) is written once.
void set_factors(const std::vector<FitPoint>& points, const SegmentedFit& fit, Calibration& c,
                 Route& route) {
  const auto& segs = fit.segments;
  const double slope_ref = segs.back().slope;
  double latency_ref = 0;
  for (const LineSegment& s : segs) {
    if (s.intercept > 0) {
      latency_ref = s.intercept;
      break;
    }
  }
  route.bandwidth = 1 / slope_ref;
  route.latency = latency_ref;
  std::vector<SizeFactor::Entry> bw, lat;
  auto add = [](std::vector<SizeFactor::Entry>& f, std::int64_t above, double value) {
    if (f.empty() || std::fabs(value / f.back().value - 1) > 1e-3) f.push_back({above, value});
  };
  for (std::size_t k = 0; k < segs.size(); ++k) {
    const std::int64_t above =
        k == 0 ? 0 : gap_boundary(points[segs[k - 1].last].x, points[segs[k].first].x);
    // A zero lat-factor is legal in SMPI but not a factor: keep it tiny instead.
    const double lf = latency_ref > 0 ? std::max(segs[k].intercept / latency_ref, 1e-9) : 1.0;
    const double bf = slope_ref / segs[k].slope;
    c.transfer_segments.push_back({above, lf, bf});
    add(bw, above, bf);
    add(lat, above, lf);
  }
  c.model.bandwidth_factor = SizeFactor(bw);
  c.model.latency_factor = SizeFactor(lat);
}

// Latency and bandwidth of another link kind under the factors already fitted: weighted least
// squares of t = L x lat-factor + (payload / bw-factor) x (1 / B), both kept >= 0.
Route fit_route(const std::vector<FitPoint>& points, const SmpiPointToPoint& model) {
  double s11 = 0, s12 = 0, s22 = 0, s1y = 0, s2y = 0;
  for (const FitPoint& p : points) {
    const auto payload = static_cast<std::int64_t>(p.x);
    const double f1 = model.latency_factor.at(payload);
    const double f2 = p.x / model.bandwidth_factor.at(payload);
    s11 += p.weight * f1 * f1, s12 += p.weight * f1 * f2, s22 += p.weight * f2 * f2;
    s1y += p.weight * f1 * p.y, s2y += p.weight * f2 * p.y;
  }
  const double det = s11 * s22 - s12 * s12;
  double latency = det != 0 ? (s1y * s22 - s2y * s12) / det : 0;
  double inverse_bw = det != 0 ? (s11 * s2y - s12 * s1y) / det : 0;
  if (inverse_bw <= 0) throw CalibrationError("no positive bandwidth fits the transfer times");
  if (latency < 0) latency = 0, inverse_bw = s2y / s22;
  return {latency, 1 / inverse_bw};
}

// ---------------------------------------------------------------- compute

ComputeFit fit_compute(const std::vector<ComputeSample>& samples) {
  ComputeFit c;
  std::vector<double> alone, together, share;
  for (const ComputeSample& s : samples) {
    if (s.concurrent == 1) {
      alone.push_back(s.flops / s.cpu_seconds);
    } else if (s.concurrent >= c.concurrent) {
      if (s.concurrent > c.concurrent) together.clear(), share.clear();
      c.concurrent = s.concurrent;
      together.push_back(s.flops / s.cpu_seconds);
      share.push_back(s.cpu_seconds / s.wall_seconds);
    }
  }
  if (!alone.empty()) c.measured = true, c.flops_per_second = median(alone);
  if (!together.empty()) {
    c.concurrent_flops_per_second = median(together);
    c.concurrent_cpu_share = median(share);
  }
  return c;
}

// ---------------------------------------------------------------- quality

void compare(const KindSeries& s, LinkKind link, const SmpiPointToPoint& model,
             std::vector<Comparison>& out) {
  for (Test test : kTests) {
    for (const SizePoint& p : s.of(test).points()) {
      Comparison c{test, link, 1, p.bytes, p.seconds, model.time(test, link, p.bytes), 0};
      // An app-message is a whole message, as a ping-pong's half: its own reference.
      const bool ping_pong = test == Test::PingPong || test == Test::PingPongSsend ||
                             test == Test::PingPongIsend || test == Test::AppMessage;
      const std::optional<double> reference = ping_pong ? p.seconds : s.pingpong.at(p.bytes);
      const double ref = reference && *reference > 0 ? *reference : p.seconds;
      c.error = ref > 0 ? (c.modelled - c.measured) / ref : 0;
      out.push_back(c);
    }
  }
}

// SimGrid's flat cluster: pairs across the same two hosts share those hosts' links (the
// bandwidth term grows with the pairs, the latency does not); a host's loopback is shared by
// nobody.
double shared_time(const SmpiPointToPoint& model, LinkKind link, std::int64_t bytes, int pairs) {
  SmpiPointToPoint shared = model;
  if (link == LinkKind::CrossNode) shared.cross_node.bandwidth /= pairs;
  return shared.time(Test::PingPong, link, bytes);
}

void check_sharing(const Measurements& m, const KindSeries& single, LinkKind link,
                   const SmpiPointToPoint& model, Calibration& c) {
  std::map<int, bool> pair_counts;
  for (const MessageSample& s : m.messages) {
    if (s.link == link && s.test == Test::PingPong && s.pairs > 1) pair_counts[s.pairs] = true;
  }
  for (const auto& [pairs, unused] : pair_counts) {
    const SizeSeries together(m.messages, Test::PingPong, link, pairs);
    for (const SizePoint& p : together.points()) {
      const double modelled = shared_time(model, link, p.bytes, pairs);
      c.comparisons.push_back({Test::PingPong, link, pairs, p.bytes, p.seconds, modelled,
                               (modelled - p.seconds) / p.seconds});
    }
    // The largest size both have shows the sharing best.
    for (auto it = together.points().rbegin(); it != together.points().rend(); ++it) {
      const std::optional<double> alone = single.pingpong.at(it->bytes);
      if (!alone) continue;
      const double measured = it->seconds / *alone;
      const double modelled =
          shared_time(model, link, it->bytes, pairs) / model.time(Test::PingPong, link, it->bytes);
      if (std::fabs(measured / modelled - 1) > 0.25) {
        c.warnings.push_back(
            {"sharing-differs",
             fmt::format("{} pairs of {} ping-pongs at once took {:.2f} x the time of one pair "
                         "at {}; the platform's sharing gives {:.2f} x",
                         pairs, link_name(link), measured, bytes_text(it->bytes), modelled)});
      }
      break;
    }
  }
}

// The transfer segment a message size falls in.
std::size_t segment_of(const std::vector<TransferSegment>& segments, std::int64_t bytes) {
  std::size_t k = 0;
  for (std::size_t i = 1; i < segments.size(); ++i) {
    if (bytes + kEnvelopeBytes > segments[i].above) k = i;
  }
  return k;
}

// R^2 and errors of the comparisons `in` (one segment's, by size), measured against modelled.
SegmentQuality quality_of(const std::vector<const Comparison*>& in) {
  SegmentQuality q;
  q.first_bytes = in.front()->bytes;
  q.last_bytes = in.back()->bytes;
  q.points = in.size();
  double mean = 0;
  for (const Comparison* cmp : in) mean += cmp->measured;
  mean /= static_cast<double>(in.size());
  double ss_res = 0, ss_tot = 0;
  for (const Comparison* cmp : in) {
    ss_res += (cmp->measured - cmp->modelled) * (cmp->measured - cmp->modelled);
    ss_tot += (cmp->measured - mean) * (cmp->measured - mean);
    const double e = std::fabs(cmp->error);
    q.mean_error += e / static_cast<double>(in.size());
    if (e >= q.max_error) q.max_error = e, q.max_error_bytes = cmp->bytes;
  }
  q.r_squared = ss_tot > 0 ? 1 - ss_res / ss_tot : (ss_res == 0 ? 1 : 0);
  return q;
}

// R^2 and errors per transfer segment of `test`'s single-pair comparisons (the ping-pongs; an
// application's messages when they are all there is).
void segment_quality(Calibration& c, Test test) {
  const auto& segments = c.transfer_segments;
  for (LinkKind link : kLinkKinds) {
    if (!c.covered(link).measured) continue;
    for (std::size_t k = 0; k < segments.size(); ++k) {
      std::vector<const Comparison*> in;
      for (const Comparison& cmp : c.comparisons) {
        if (cmp.link == link && cmp.test == test && cmp.pairs == 1 &&
            segment_of(segments, cmp.bytes) == k) {
          in.push_back(&cmp);
        }
      }
      if (in.empty()) continue;
      SegmentQuality q = quality_of(in);
      q.link = link;
      q.segment = k;
      c.segments.push_back(q);
    }
  }
}

// The sizes a series measured and its noise (not yet whether they are enough to fit).
LinkCoverage coverage_of(const SizeSeries& s) {
  LinkCoverage cov;
  cov.sizes = s.size();
  if (s.empty()) return cov;
  cov.min_bytes = s.points().front().bytes;
  cov.max_bytes = s.points().back().bytes;
  cov.noise = s.relative_spread();
  return cov;
}

void set_worst(Calibration& c) {
  for (const Comparison& cmp : c.comparisons) {
    if (cmp.pairs == 1 && (!c.worst || std::fabs(cmp.error) > std::fabs(c.worst->error))) {
      c.worst = cmp;
    }
  }
}

// ---------------------------------------------------------------- an application's messages

// The route p3s platform writes by default for a link kind: a host's loopback, or two links of
// the network (their latencies add up).
Route default_route(LinkKind link) {
  const sim::PlatformSpec spec;
  if (link == LinkKind::SameNode) {
    return {sim::latency_seconds(spec.loopback_latency),
            sim::bandwidth_bytes_per_second(spec.loopback_bandwidth)};
  }
  return {2 * sim::latency_seconds(spec.latency), sim::bandwidth_bytes_per_second(spec.bandwidth)};
}

// Latency and bandwidth of one link kind from the least time of each size an application sent:
// a line through two sizes or more; through one size, the latency under the default bandwidth
// (one time cannot tell them apart). Whatever the overheads cost is folded into the latency.
Route fit_app_route(const SizeSeries& s, LinkKind link, std::vector<NamedWarning>& warnings) {
  std::vector<FitPoint> points;
  for (const SizePoint& p : s.points()) {
    if (!(p.seconds > 0)) continue;
    points.push_back(
        {static_cast<double>(p.bytes + kEnvelopeBytes), p.seconds, 1 / (p.seconds * p.seconds)});
  }
  if (points.empty()) {
    throw CalibrationError(fmt::format(
        "every {} message of the replay took no time: nothing to fit", link_name(link)));
  }
  const SmpiPointToPoint unit_factors;
  if (points.size() >= 2) {
    try {
      return fit_route(points, unit_factors);
    } catch (const CalibrationError&) {
      warnings.push_back(
          {"no-growth",
           fmt::format("{} messages do not take longer as they grow ({} to {}): their bandwidth "
                       "cannot be fitted and keeps p3s platform's default",
                       link_name(link), bytes_text(s.points().front().bytes),
                       bytes_text(s.points().back().bytes))});
    }
  }
  Route r = default_route(link);
  double sw = 0, swr = 0;
  for (const FitPoint& p : points) {
    sw += p.weight;
    swr += p.weight * (p.y - p.x / r.bandwidth);
  }
  r.latency = swr / sw;
  if (r.latency < 0) {
    // Faster than the default bandwidth allows even without latency: the bandwidth it needs.
    double fastest = 0;
    for (const FitPoint& p : points) fastest = std::max(fastest, p.x / p.y);
    r = {0, fastest};
  }
  return r;
}

std::string sizes_text(const SizeSeries& s) {
  std::string out;
  for (const SizePoint& p : s.points()) out += (out.empty() ? "" : ", ") + bytes_text(p.bytes);
  return out;
}

// Without the benchmark, only what the application's messages show: per link kind a latency
// and a bandwidth through their sizes, no factors, no overheads, SMPI's eager threshold.
Calibration calibrate_from_app_messages(const Measurements& m) {
  Calibration c;
  c.simulated = m.simulated;
  std::vector<std::string> identified, lone;
  for (LinkKind link : kLinkKinds) {
    const SizeSeries s(m.messages, Test::AppMessage, link, 1);
    LinkCoverage& cov = c.coverage[index(link)];
    cov = coverage_of(s);
    if (s.empty()) continue;
    cov.measured = true;
    (link == LinkKind::SameNode ? c.model.same_node : c.model.cross_node) =
        fit_app_route(s, link, c.warnings);
    identified.push_back(
        fmt::format("{} at {} size(s): {}", link_name(link), s.size(), sizes_text(s)));
    if (s.size() == 1) lone.push_back(std::string(link_name(link)));
    c.extrapolated.push_back(fmt::format(
        "{} messages were measured at {} only: every other size is extrapolated from {}",
        link_name(link), sizes_text(s),
        s.size() == 1 ? "one time and p3s platform's default bandwidth"
                      : "one latency and one bandwidth"));
  }
  if (identified.empty()) throw CalibrationError("the replay results hold no received message");
  c.primary = c.covered(LinkKind::CrossNode).measured ? LinkKind::CrossNode : LinkKind::SameNode;
  c.fitted = Test::AppMessage;
  c.transfer_segments = {{0, 1, 1}};
  c.warnings.push_back(
      {"app-messages-only",
       fmt::format("fitted to an application's own messages (replay results, no benchmark): {}. "
                   "What they cannot identify: the bw-factor and lat-factor segments (one "
                   "latency and one bandwidth per link kind instead), smpi/os, smpi/or and "
                   "smpi/ois (their time is folded into the latency), the eager threshold (SMPI's "
                   "{} B is kept){}, the host speed (a replay emulates compute from the model). "
                   "Their times also hold the application's own contention (its ranks sharing "
                   "a link at once), which a simulation adds again, and the overheads its "
                   "collectives pay per message are folded away: expect large errors "
                   "(calibrate/README.md measures them) and calibrate with the benchmark to "
                   "predict",
                   fmt::join(identified, "; "), c.model.eager_threshold,
                   lone.empty() ? ""
                                : fmt::format(", the bandwidth of {} messages (one size: p3s "
                                              "platform's default is kept)",
                                              fmt::join(lone, " and ")))});
  for (LinkKind link : kLinkKinds) {
    if (!c.covered(link).measured) {
      c.warnings.push_back(
          {link == LinkKind::CrossNode ? "no-cross-node" : "no-same-node",
           fmt::format("the replay received no {} message: the platform's {} "
                       "is not calibrated",
                       link_name(link),
                       link == LinkKind::CrossNode ? "network between hosts" : "loopback")});
      continue;
    }
    compare(KindSeries(m.messages, link), link, c.model, c.comparisons);
  }
  set_worst(c);
  segment_quality(c, c.fitted);
  return c;
}

// ---------------------------------------------------------------- the benchmark's fit, step by
// step

// Each link kind's coverage, with a warning for a kind measured at too few sizes to fit; throws
// when no kind can be fitted.
void cover_links(const std::array<KindSeries, 2>& series, Calibration& c) {
  std::optional<std::int64_t> lone_size;
  for (LinkKind link : kLinkKinds) {
    const SizeSeries& pp = series[index(link)].pingpong;
    LinkCoverage& cov = c.coverage[index(link)];
    cov = coverage_of(pp);
    if (pp.empty()) continue;
    cov.measured = pp.size() >= kMinSizes;
    if (pp.size() == 1) lone_size = cov.min_bytes;
    if (!cov.measured) {
      c.warnings.push_back(
          {"too-few-sizes",
           fmt::format("{} ping-pongs were measured at {} size(s) only ({} to {}): at least {} "
                       "are needed to tell latency from bandwidth; {} messages are not fitted",
                       link_name(link), pp.size(), bytes_text(cov.min_bytes),
                       bytes_text(cov.max_bytes), kMinSizes, link_name(link))});
    }
  }
  if (!c.covered(LinkKind::SameNode).measured && !c.covered(LinkKind::CrossNode).measured) {
    if (lone_size) {
      throw CalibrationError(fmt::format(
          "only one message size ({}) was measured: latency and bandwidth cannot be told apart "
          "(the benchmark measures 0 B to 16 MiB; --max-bytes sets the largest)",
          bytes_text(*lone_size)));
    }
    throw CalibrationError(
        fmt::format("no link kind has ping-pongs at {} sizes or more: nothing to fit", kMinSizes));
  }
}

// A warning for each link kind with no measurement at all.
void warn_unmeasured_links(Calibration& c) {
  for (LinkKind link : kLinkKinds) {
    if (c.covered(link).measured || c.covered(link).sizes != 0) continue;
    c.warnings.push_back(
        {link == LinkKind::CrossNode ? "no-cross-node" : "no-same-node",
         fmt::format("no {} measurements (the benchmark needs {}): the platform's {} is not "
                     "calibrated",
                     link_name(link),
                     link == LinkKind::CrossNode ? "ranks on two nodes" : "two ranks on one node",
                     link == LinkKind::CrossNode ? "network between hosts" : "loopback")});
  }
}

// What the eager split tells that the platform cannot say exactly.
void warn_eager_split(const EagerSplit& split, Calibration& c) {
  if (split.kind == EagerSplit::Kind::AllEager) {
    c.warnings.push_back(
        {"eager-above-range",
         fmt::format("every measured size up to {} was sent eagerly: the threshold is above "
                     "the measurements; written as {} B, so larger messages are assumed to "
                     "go by rendezvous",
                     bytes_text(split.threshold - 1), split.threshold)});
  } else if (split.kind == EagerSplit::Kind::AllRendezvous) {
    c.warnings.push_back(
        {"no-eager", fmt::format("no measured size was sent eagerly (from {} up): the eager "
                                 "threshold is written as {} B",
                                 bytes_text(split.threshold), split.threshold)});
  } else if (split.contradictions > 0) {
    c.warnings.push_back(
        {"eager-contradictions",
         fmt::format("{} message sizes behave like the other side of the eager threshold "
                     "({} B): noise, or a protocol SMPI does not have",
                     split.contradictions, split.threshold)});
  }
}

// SMPI's MPI_Ssend costs smpi/os more than an eager MPI_Send's transfer and smpi/or less: it
// is faster. Where it is clearly slower, the system synchronises (a handshake SMPI does not
// model) and the MPI_Send - MPI_Ssend difference says nothing about smpi/or.
bool ssend_handshake(const KindSeries& primary, Calibration& c) {
  std::vector<double> send_minus_ssend;
  for (const SizePoint& p : primary.pingpong.points()) {
    const std::optional<double> ss = primary.ssend.at(p.bytes);
    if (c.model.eager(p.bytes) && ss) send_minus_ssend.push_back((p.seconds - *ss) / p.seconds);
  }
  const bool handshake = !send_minus_ssend.empty() && median(send_minus_ssend) < -0.1;
  if (handshake) {
    c.warnings.push_back(
        {"ssend-handshake",
         fmt::format("MPI_Ssend ping-pongs are {:.0f} % slower than MPI_Send ones below the "
                     "eager threshold: a handshake SMPI does not model; smpi/or cannot be told "
                     "from the transfer and is set to none, smpi/os above the threshold "
                     "continues the eager sizes' fit",
                     -100 * median(send_minus_ssend))});
  }
  return handshake;
}

// smpi/os, smpi/or and smpi/ois from the overhead tests and the ping-pong differences, each
// size on the side of the eager threshold it is.
void fit_overheads(const KindSeries& primary, bool handshake, double noise, Calibration& c) {
  std::vector<FitPoint> os, or_, ois;
  for (const SizePoint& p : primary.pingpong.points()) {
    const std::int64_t b = p.bytes;
    const std::optional<double> ss = primary.ssend.at(b), so = primary.send_overhead.at(b),
                                io = primary.isend_overhead.at(b),
                                ip = primary.isend_pingpong.at(b);
    if (c.model.eager(b)) {
      if (so) add_point(os, primary, b, *so);
      if (ss && !handshake) add_point(or_, primary, b, p.seconds - *ss);
    } else if (ss && !handshake) {
      add_point(os, primary, b, *ss - p.seconds);
    }
    if (io) {
      add_point(ois, primary, b, *io);
    } else if (ip && !c.model.eager(b) && !primary.isend_overhead.empty() &&
               b > primary.isend_overhead.points().back().bytes) {
      add_point(ois, primary, b, *ip - p.seconds);
    }
  }
  c.model.send = fit_overhead(os, noise);
  c.model.receive = fit_overhead(or_, noise);
  c.model.isend = fit_overhead(ois, noise);
}

// The eager threshold and the overheads, from the primary kind; whether MPI_Ssend shows a
// handshake.
bool fit_eager_and_overheads(const KindSeries& primary, double noise, Calibration& c) {
  const std::optional<EagerSplit> split =
      primary.has_overhead_tests() ? find_eager_split(primary) : std::nullopt;
  c.overheads_measured = split.has_value();
  if (!split) {
    c.warnings.push_back(
        {"no-overhead-tests",
         fmt::format("no send-overhead and pingpong-ssend measurements of {} messages: smpi/os, "
                     "smpi/or, smpi/ois are left at none and the eager threshold at SMPI's "
                     "{} B; the ping-pong times are fitted as transfers",
                     link_name(c.primary), c.model.eager_threshold)});
    return false;
  }
  c.model.eager_threshold = split->threshold;
  warn_eager_split(*split, c);
  const bool handshake = ssend_handshake(primary, c);
  fit_overheads(primary, handshake, noise, c);
  return handshake;
}

// The transfer time of the primary kind: segments, then latency, bandwidth and factors.
void fit_primary_transfer(const KindSeries& primary, double noise, bool own_overheads,
                          Calibration& c) {
  std::size_t dropped = 0;
  const std::vector<FitPoint> points =
      sorted_unique(transfer_points(primary, c.model, own_overheads, dropped));
  if (dropped > 0) {
    c.warnings.push_back(
        {"non-positive-transfer",
         fmt::format("{} {} sizes left no time for the transfer once the overheads were taken "
                     "off (noise): they are not fitted",
                     dropped, link_name(c.primary))});
  }
  if (points.size() < kMinSizes) {
    throw CalibrationError(
        fmt::format("{} sizes of {} messages have a positive transfer time: "
                    "at least {} are needed",
                    points.size(), link_name(c.primary), kMinSizes));
  }
  if (points.back().x < kMinSegmentSpan * points.front().x) {
    throw CalibrationError(fmt::format(
        "the {} sizes measured ({} to {}) are too close together to tell latency from bandwidth",
        link_name(c.primary),
        bytes_text(static_cast<std::int64_t>(points.front().x) - kEnvelopeBytes),
        bytes_text(static_cast<std::int64_t>(points.back().x) - kEnvelopeBytes)));
  }
  SegmentedFit fit =
      fit_segments_auto(points, kMaxTransferSegments, kMinSegmentPoints, noise, kMinSegmentSpan);
  borrow_slopes(points, fit, c.warnings);
  Route& primary_route = c.primary == LinkKind::CrossNode ? c.model.cross_node : c.model.same_node;
  set_factors(points, fit, c, primary_route);
}

// The other kind: its own latency and bandwidth under the same factors.
void fit_other_route(const KindSeries& s, LinkKind other, bool own_overheads, Calibration& c) {
  std::size_t other_dropped = 0;
  const std::vector<FitPoint> other_points =
      sorted_unique(transfer_points(s, c.model, own_overheads, other_dropped));
  if (other_points.size() < kMinSizes) {
    throw CalibrationError(
        fmt::format("{} sizes of {} messages have a positive transfer "
                    "time: at least {} are needed",
                    other_points.size(), link_name(other), kMinSizes));
  }
  (other == LinkKind::CrossNode ? c.model.cross_node : c.model.same_node) =
      fit_route(other_points, c.model);
  if (!c.overheads_measured || !s.has_overhead_tests()) return;
  const std::optional<EagerSplit> other_split = find_eager_split(s);
  if (other_split && other_split->threshold != c.model.eager_threshold) {
    c.warnings.push_back(
        {"eager-differs",
         fmt::format("{} messages switch to rendezvous at {} B, {} messages at {} B; SMPI "
                     "has one threshold: the platform uses {} B",
                     link_name(other), other_split->threshold, link_name(c.primary),
                     c.model.eager_threshold, c.model.eager_threshold)});
  }
}

void warn_tcp_gamma(LinkKind link, Calibration& c) {
  const Route& r = c.model.route(link);
  if (r.latency > 0 && kTcpGamma / (2 * r.latency) < r.bandwidth) {
    c.warnings.push_back(
        {"tcp-gamma", fmt::format("SimGrid caps a flow at network/TCP-gamma / (2 x latency) = "
                                  "{:.3g} B/s, below the {} bandwidth {:.3g} B/s",
                                  kTcpGamma / (2 * r.latency), link_name(link), r.bandwidth)});
  }
}

// Whether the other kind's ping-pongs follow the size factors fitted to the primary's.
void check_shape(LinkKind other, Calibration& c) {
  double worst = 0;
  std::int64_t where = 0;
  for (const Comparison& cmp : c.comparisons) {
    if (cmp.link == other && cmp.test == Test::PingPong && cmp.pairs == 1 &&
        std::fabs(cmp.error) > worst) {
      worst = std::fabs(cmp.error), where = cmp.bytes;
    }
  }
  if (worst > std::max(0.05, 3 * c.covered(other).noise)) {
    c.warnings.push_back(
        {"shape-differs",
         fmt::format("{} ping-pongs do not follow the size factors fitted to {} messages (SMPI "
                     "applies one set to every link): up to {:.1f} % off, at {}",
                     link_name(other), link_name(c.primary), 100 * worst, bytes_text(where))});
  }
}

// The sizes beyond the measurements, where the platform extrapolates.
void note_extrapolated_sizes(const KindSeries& primary, Calibration& c) {
  for (LinkKind link : kLinkKinds) {
    const LinkCoverage& cov = c.covered(link);
    if (!cov.measured) continue;
    c.extrapolated.push_back(
        fmt::format("{} messages were measured from {} to {}; larger ones take the last "
                    "segment's factors (extrapolated)",
                    link_name(link), bytes_text(cov.min_bytes), bytes_text(cov.max_bytes)));
  }
  if (c.overheads_measured && !primary.isend_overhead.empty() &&
      primary.isend_overhead.points().back().bytes < c.covered(c.primary).max_bytes) {
    c.extrapolated.push_back(fmt::format(
        "the overhead bursts stop at {}: smpi/ois above comes from the pingpong-isend minus "
        "pingpong difference",
        bytes_text(primary.isend_overhead.points().back().bytes)));
  }
}

}  // namespace

// What the platform says of ranks that share cores, and how far to trust it.
void note_shared_core(Calibration& c) {
  const SharedCoreFit& f = c.shared_core;
  if (!f.measured) {
    c.extrapolated.emplace_back(
        "no round test ran with more ranks than cores on a node (p3s-calibrate-bench "
        "--rounds-only, oversubscribed): a host given more ranks than cores adds no scheduling "
        "cost to their communication rounds");
    return;
  }
  double least = f.comparisons.front().ranks_per_core, most = least;
  for (const SharedCoreComparison& x : f.comparisons) {
    least = std::min(least, x.ranks_per_core);
    most = std::max(most, x.ranks_per_core);
  }
  c.extrapolated.push_back(fmt::format(
      "the cost of a communication round on shared cores was measured at {:.3g} to {:.3g} ranks "
      "per core; at other counts it is {:.3g} us x (ranks per core - 1)",
      least, most, f.round_seconds * 1e6));
  if (f.max_error > kSharedCoreTolerance) {
    c.warnings.push_back(
        {"shared-core-rounds",
         fmt::format("the round tests do not follow y x rounds x (ranks per core - "
                     "1): up to {:.0f} % off",
                     100 * f.max_error)});
  }
}

Calibration calibrate(const Measurements& m) {
  if (!m.benchmark) return calibrate_from_app_messages(m);
  Calibration c;
  c.simulated = m.simulated;
  const std::array<KindSeries, 2> series = {KindSeries(m.messages, LinkKind::SameNode),
                                            KindSeries(m.messages, LinkKind::CrossNode)};
  cover_links(series, c);
  c.primary = c.covered(LinkKind::CrossNode).measured ? LinkKind::CrossNode : LinkKind::SameNode;
  warn_unmeasured_links(c);

  const KindSeries& primary = series[index(c.primary)];
  const LinkCoverage& pcov = c.covered(c.primary);
  // The fit uses each size's least repetition, which varies far less than the repetitions do.
  const double noise = std::clamp(pcov.noise, kNoiseFloor, kNoiseCeiling);
  if (pcov.noise > 0.1) {
    c.warnings.push_back({"noisy", fmt::format("{} ping-pong repetitions differ by {:.0f} % "
                                               "(median half-range): the fit is no better than "
                                               "that",
                                               link_name(c.primary), 100 * pcov.noise)});
  }

  const bool handshake = fit_eager_and_overheads(primary, noise, c);
  const bool own_overheads = c.overheads_measured && !handshake;
  fit_primary_transfer(primary, noise, own_overheads, c);
  const LinkKind other =
      c.primary == LinkKind::CrossNode ? LinkKind::SameNode : LinkKind::CrossNode;
  if (c.covered(other).measured) fit_other_route(series[index(other)], other, own_overheads, c);

  for (LinkKind link : kLinkKinds) {
    if (!c.covered(link).measured) continue;
    warn_tcp_gamma(link, c);
    compare(series[index(link)], link, c.model, c.comparisons);
    check_sharing(m, series[index(link)], link, c.model, c);
  }
  set_worst(c);
  if (c.covered(other).measured) check_shape(other, c);
  segment_quality(c, c.fitted);

  c.compute = fit_compute(m.compute);
  if (!c.compute.measured) {
    c.warnings.push_back(
        {"no-compute-probe", "no compute probe of one rank alone: the host speed is not measured"});
  }

  c.shared_core = fit_shared_core(m.rounds);
  note_shared_core(c);
  note_extrapolated_sizes(primary, c);
  return c;
}

}  // namespace p3s::calibrate
