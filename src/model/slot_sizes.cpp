#include "model/slot_sizes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <variant>

#include "model/scaling_model_search.hpp"
#include "model/slot_feeding.hpp"

namespace p3s::model {
namespace {

using signature::EventToken;

// The ranks of a run send one size in a slot when their means lie within this factor (after
// adding kSizeSlack to both): data noise (atoms that leave a subdomain, keys that fall in a
// bucket) differs from rank to rank by that much over a few repetitions; a different message
// (a face of another size) by more.
constexpr double kSizeFactor = 4.0;
constexpr double kSizeSlack = 4096;
// Under strong scaling, a message across one grid dimension of at least this size is taken to
// be a halo, whose bytes follow the grid's face.
constexpr double kLeastHaloBytes = 256;

// `noise_pct`: how far the values scatter by themselves (data-dependent sizes); 0 for exact
// ones.
ScalingFit fit_sizes(const std::vector<ScalingPoint>& points, double noise_pct,
                     const std::vector<GridFace>& faces, bool prefer_faces) {
  ScalingFitOptions options;
  options.noise_pct = noise_pct;
  options.faces = faces;
  options.prefer_faces = prefer_faces;
  return fit_scaling_model(points, options);
}

// Members of the communicator an event of rank r's collective is on: n for the world.
double communicator_size(const PhaseRun& run, const EventToken& e, std::size_t rank) {
  if (e.comm == 0 || rank >= run.comms.size() ||
      static_cast<std::size_t>(e.comm) >= run.comms[rank].size()) {
    return static_cast<double>(run.n);
  }
  return static_cast<double>(run.comms[rank][static_cast<std::size_t>(e.comm)].members.size());
}

// The position of slot `slot` in rank r's events of `run`, if the rank has it.
std::optional<std::size_t> event_of(const AlignedRun& run, std::size_t rank, std::size_t slot) {
  const std::vector<std::int32_t>& order = run.order[rank];
  const auto it = std::find(order.begin(), order.end(), static_cast<std::int32_t>(slot));
  if (it == order.end()) return std::nullopt;
  return static_cast<std::size_t>(it - order.begin());
}

// One side of a slot template: what fit_bytes fits.
struct SizeSide {
  std::size_t slot = 0;
  bool receive_side = false;
};

// One side's sizes of a slot in one run, over the ranks and repetitions that make the call.
struct RunSizes {
  double low = 0;
  double high = 0;
  double sum = 0;
  // The widest a rank's sizes range over its repetitions, as a share of twice its mean.
  double widest = 0;
  std::size_t count = 0;
  std::size_t low_rank = 0;
  std::size_t high_rank = 0;
  bool rooted = false;  // the last event seen is a rooted collective's

  void add(double mean, std::size_t rank) {
    if (count == 0 || mean < low) {
      low = mean;
      low_rank = rank;
    }
    if (count == 0 || mean > high) {
      high = mean;
      high_rank = rank;
    }
    sum += mean;
    ++count;
  }
};

// One side's bytes of rank r's event, per member where the call's count is per member.
double event_bytes(const PhaseRun& source, const EventToken& e, std::size_t rank,
                   bool receive_side) {
  double mean = static_cast<double>(receive_side ? e.rbytes : e.bytes);
  if (core::bytes_per_member(e.op, receive_side)) mean /= communicator_size(source, e, rank);
  return mean;
}

// How far rank r's sizes in slot `slot` range over its repetitions, as a share of twice their
// mean; 0 when the run does not say.
double repetition_spread(const AlignedRun& run, const PhaseRun& source, std::size_t rank,
                         std::size_t slot, double mean, bool receive_side) {
  const auto at = event_of(run, rank, slot);
  if (!at || !(mean > 0)) return 0;
  const auto& ranges = receive_side ? source.rbytes_range : source.bytes_range;
  if (rank >= ranges.size() || *at >= ranges[rank].size()) return 0;
  return (ranges[rank][*at].second - ranges[rank][*at].first) / (2 * mean);
}

RunSizes run_sizes(const AlignedRun& run, const PhaseRun& source,
                   const std::vector<std::size_t>& slots, bool receive_side) {
  RunSizes sizes;
  for (const std::size_t s : slots) {
    for (std::size_t r = 0; r < run.slot_events[s].size(); ++r) {
      const auto& e = run.slot_events[s][r];
      if (!e) continue;
      sizes.rooted = e->root != core::kNone;
      const double mean = event_bytes(source, *e, r, receive_side);
      sizes.widest =
          std::max(sizes.widest, repetition_spread(run, source, r, s, mean, receive_side));
      sizes.add(mean, r);
    }
  }
  return sizes;
}

// The run's bytes for the side: the root's for a rooted collective, else the ranks' mean,
// with `spread` widened to hold the ranks' sizes. Nothing, with the reason in `failures`, when
// the ranks' sizes differ beyond a data spread and `how` does not let them.
std::optional<double> run_bytes(const RunSizes& sizes, std::int64_t n, SizeSide side,
                                double& spread, SizeModelling& how, std::vector<std::string>& notes,
                                std::vector<std::string>& failures) {
  const double value = sizes.sum / static_cast<double>(sizes.count);
  if (sizes.rooted) return sizes.high;
  if (sizes.high + kSizeSlack > kSizeFactor * (sizes.low + kSizeSlack)) {
    const std::string what =
        fmt::format("slot {}: ranks at n = {} {} different sizes, {} (rank {}) to {} (rank {})",
                    side.slot, n, side.receive_side ? "receive" : "send", sizes.low, sizes.low_rank,
                    sizes.high, sizes.high_rank);
    if (!how.by_rank) {
      how.failed = true;
      failures.push_back(what + ", beyond a data spread");
      return std::nullopt;
    }
    notes.push_back(what + ": modelled by their mean, " + number_text(std::round(value)) +
                    " bytes; the volume of single ranks is approximate");
    spread = std::max({spread, sizes.widest, (sizes.high - sizes.low) / (2 * value)});
  } else if (value > 0) {
    spread = std::max({spread, sizes.widest, (sizes.high - sizes.low) / (2 * value)});
  }
  return value;
}

// Every face of the grids an application lays out, each dimension of each shape.
const std::vector<GridFace>& any_grid_face() {
  static const std::vector<GridFace> faces = [] {
    std::vector<GridFace> out;
    for (GridShape shape : {GridShape::Balanced2D, GridShape::Compact2D, GridShape::Balanced3D,
                            GridShape::Compact3D}) {
      for (int d = 0; d < grid_dimensions(shape); ++d) out.push_back({shape, d, 0});
    }
    return out;
  }();
  return faces;
}

// One side's bytes of a slot template as a fit in n, with its spread; nothing when no run
// sends any, or, with the reason in `failures`, when the ranks' sizes cannot be one fit.
std::optional<ScalingFit> fit_bytes(const Alignment& alignment,
                                    std::span<const PhaseRun> phase_runs,
                                    const std::vector<std::vector<std::size_t>>& slots_of_run,
                                    SizeSide side, const std::vector<GridFace>& faces,
                                    double& spread, SizeModelling& how,
                                    std::vector<std::string>& notes,
                                    std::vector<std::string>& failures) {
  std::vector<ScalingPoint> points;
  bool any = false;
  for (std::size_t i = 0; i < alignment.runs.size(); ++i) {
    const AlignedRun& run = alignment.runs[i];
    const RunSizes sizes = run_sizes(run, phase_runs[i], slots_of_run[i], side.receive_side);
    if (sizes.count == 0) continue;
    const std::optional<double> value = run_bytes(sizes, run.n, side, spread, how, notes, failures);
    if (!value) return std::nullopt;
    any = any || *value != 0;
    points.push_back({static_cast<double>(run.n), std::round(*value)});
  }
  if (!any || points.empty()) return std::nullopt;
  // Scalars and metadata stay what they are whatever the grid; a face of a few dozen values
  // or more is a halo.
  const bool halo = std::all_of(points.begin(), points.end(),
                                [](const ScalingPoint& p) { return p.y >= kLeastHaloBytes; });
  ScalingFit fit = fit_sizes(points, 100 * spread, faces, how.prefer_faces && halo);
  if (fit.quality.within_noise) return fit;
  // A message whose peers are no grid neighbours (a row's reduction, a transpose) may still
  // carry a share of the process grid's face: na / nprows values on a grid the program lays out
  // itself. Taken only when such a share explains every run where nothing else did.
  ScalingFit shared = fit_sizes(points, 100 * spread, any_grid_face(), true);
  if (shared.quality.within_noise && shared.form == ScalingForm::Face) return shared;
  return fit;
}

// The face of the process grid a template's peer rule crosses, when it is a neighbour across
// exactly one dimension.
std::vector<GridFace> faces_of(const std::optional<SlotSequenceModel>& rules, std::size_t t) {
  if (!rules || t >= rules->rules.size()) return {};
  const auto* grid = std::get_if<GridPeerRule>(&rules->rules[t].form);
  if (!grid) return {};
  std::vector<int> crossed;
  for (std::size_t d = 0; d < grid->offset.size(); ++d) {
    if (!grid->offset[d].terms.empty() || grid->offset[d].constant != 0) {
      crossed.push_back(static_cast<int>(d));
    }
  }
  if (crossed.size() != 1) return {};
  return {GridFace{grid->shape, crossed.front(), static_cast<std::int32_t>(grid->planes)}};
}

// Both sides' bytes of every template, the faces their peer rules cross offered to the fits.
// False as soon as a template's sizes leave `errors`.
bool fit_template_sizes(const Alignment& alignment, std::span<const PhaseRun> phase_runs,
                        const SlotTemplates& templates, const PhaseModel& phase, SizeModelling& how,
                        std::vector<SlotModel>& slots, std::vector<std::string>& notes,
                        std::vector<std::string>& errors) {
  for (std::size_t t = 0; t < slots.size(); ++t) {
    SlotModel& slot = slots[t];
    const std::vector<std::vector<std::size_t>>& slots_of_run = templates.slots_of[t];
    slot.bytes_spread = slot.rbytes_spread = 0;
    slot.bytes = fit_bytes(alignment, phase_runs, slots_of_run, {t, false},
                           faces_of(phase.dst_rules, t), slot.bytes_spread, how, notes, errors);
    slot.rbytes = fit_bytes(alignment, phase_runs, slots_of_run, {t, true},
                            faces_of(phase.src_rules, t), slot.rbytes_spread, how, notes, errors);
    if (!errors.empty()) return false;
  }
  return true;
}

}  // namespace

bool fit_slot_sizes(const Alignment& alignment, std::span<const PhaseRun> phase_runs,
                    const SlotTemplates& templates, SizeModelling& sizes, PhaseModel& phase,
                    std::vector<SlotModel>& slots, std::vector<std::string>& failures) {
  std::vector<std::string> size_notes;
  if (!fit_template_sizes(alignment, phase_runs, templates, phase, sizes, slots, size_notes,
                          failures)) {
    return false;
  }
  const auto on_face = [](const std::optional<ScalingFit>& f) {
    return f && f->form == ScalingForm::Face;
  };
  const bool some_faces = std::any_of(slots.begin(), slots.end(), [&](const SlotModel& s) {
    return on_face(s.bytes) || on_face(s.rbytes);
  });
  if (some_faces && !sizes.prefer_faces) {
    SizeModelling faces_first = sizes;
    faces_first.prefer_faces = true;
    size_notes.clear();
    if (!fit_template_sizes(alignment, phase_runs, templates, phase, faces_first, slots, size_notes,
                            failures)) {
      return false;
    }
  }
  phase.notes.insert(phase.notes.end(), size_notes.begin(), size_notes.end());
  return true;
}

void tie_receive_sizes(const AlignedRun& run, PhaseModel& phase) {
  if (phase.layout.grows()) return;
  std::vector<std::optional<std::int32_t>> feeder = feeding_slots(run, phase.slots.size());
  decide_feeders_by_rules(phase, run.n, feeder);
  for (std::size_t s = 0; s < phase.slots.size(); ++s) {
    if (!feeder[s]) continue;
    const SlotModel& from = phase.slots[static_cast<std::size_t>(*feeder[s])];
    phase.slots[s].rbytes = from.bytes;
    phase.slots[s].rbytes_spread = from.bytes_spread;
  }
}

}  // namespace p3s::model
