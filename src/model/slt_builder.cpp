#include "model/slt_builder.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <span>
#include <stdexcept>

#include "model/phase_alignment.hpp"
#include "model/phase_compute_model.hpp"
#include "model/phase_matching.hpp"
#include "model/scaling_model_search.hpp"
#include "model/slot_templates.hpp"

namespace p3s::model {
namespace {

using signature::EventToken;

enum class Role : std::uint8_t { Dst, Src, Root };

std::int32_t relative_of(const EventToken& t, Role role) {
  switch (role) {
    case Role::Dst:
      return t.dst;
    case Role::Src:
      return t.src;
    case Role::Root:
      return t.root;
  }
  return -1;
}

std::string_view role_name(Role role) {
  switch (role) {
    case Role::Dst:
      return "destination";
    case Role::Src:
      return "source";
    case Role::Root:
      return "root";
  }
  return "?";
}

std::string describe_failure(const SlotSequenceInference& inference, Role role) {
  std::string text = fmt::format("{}: {}", role_name(role), inference.reason);
  for (const PeerRuleInference& slot : inference.slots) {
    if (slot.modelled()) continue;
    for (const PeerMismatch& m : slot.mismatches) {
      text += fmt::format("; n = {} slot {} rank {}: peer {}, rule '{}' gives {}", m.n, m.slot,
                          m.rank, m.expected, slot.closest, m.predicted);
    }
    break;
  }
  return text;
}

// `noise_pct`: how far the values scatter by themselves (data-dependent sizes); 0 for exact
// ones.
ScalingFit fit_points(const std::vector<ScalingPoint>& points, bool with_displacement,
                      double noise_pct = 0, const std::vector<GridFace>& faces = {},
                      bool prefer_faces = false) {
  ScalingFitOptions options;
  options.noise_pct = noise_pct;
  options.faces = faces;
  options.prefer_faces = prefer_faces;
  if (with_displacement) {
    std::vector<std::int64_t> counts;
    for (const ScalingPoint& p : points) counts.push_back(static_cast<std::int64_t>(p.n));
    options.displacement_families = families_containing(counts);
  }
  return fit_scaling_model(points, options);
}

// The ranks of a run send one size in a slot when their means lie within this factor (after
// adding kSizeSlack to both): data noise (atoms that leave a subdomain, keys that fall in a
// bucket) differs from rank to rank by that much over a few repetitions; a different message
// (a face of another size) by more.
constexpr double kSizeFactor = 4.0;
constexpr double kSizeSlack = 4096;
// Under strong scaling, a message across one grid dimension of at least this size is taken to
// be a halo, whose bytes follow the grid's face.
constexpr double kLeastHaloBytes = 256;

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

// Bytes of one side of a slot per run: the mean over the ranks and repetitions that make the
// call. Data-dependent sizes are modelled by that mean and their spread recorded: the ranks'
// own means must agree within kSizeFactor (beyond it they send different messages, which the
// slot does not express), while over its repetitions a rank's sizes may range wider (an
// initial lattice's ghost counts are not a liquid's). A rooted collective's root may receive
// (gather) or send (scatter) for all: its side is the largest, and the other ranks ignore it.
// When no alignment keeps the ranks' sizes within kSizeFactor (`by_rank` set: an irregular
// system whose subdomains hold very different numbers of atoms), the slot is modelled by the
// mean over its ranks, their range recorded as its spread and in `notes`.
struct SizeModelling {
  bool by_rank = false;
  bool failed = false;  // set when sizes differed by rank beyond kSizeFactor
  // Declared strong scaling: a halo's bytes follow its grid face whenever that explains them.
  bool prefer_faces = false;
};

std::optional<ScalingFit> fit_bytes(const Alignment& alignment,
                                    std::span<const PhaseRun> phase_runs,
                                    const std::vector<std::vector<std::size_t>>& slots_of_run,
                                    std::size_t slot, bool receive_side,
                                    const std::vector<GridFace>& faces, double& spread,
                                    SizeModelling& tolerance, std::vector<std::string>& notes,
                                    std::vector<std::string>& failures) {
  std::vector<ScalingPoint> points;
  bool any = false;
  for (std::size_t i = 0; i < alignment.runs.size(); ++i) {
    const AlignedRun& run = alignment.runs[i];
    const PhaseRun& source = phase_runs[i];
    double low = 0, high = 0, sum = 0, widest = 0;
    std::size_t count = 0;
    bool rooted = false;
    std::size_t low_rank = 0, high_rank = 0;
    for (const std::size_t s : slots_of_run[i]) {
      for (std::size_t r = 0; r < run.slot_events[s].size(); ++r) {
        const auto& e = run.slot_events[s][r];
        if (!e) continue;
        rooted = e->root != core::kNone;
        double mean = static_cast<double>(receive_side ? e->rbytes : e->bytes);
        if (core::bytes_per_member(e->op, receive_side)) {
          mean /= communicator_size(source, *e, r);
        }
        if (const auto at = event_of(run, r, s); at && mean > 0) {
          const auto& ranges = receive_side ? source.rbytes_range : source.bytes_range;
          if (r < ranges.size() && *at < ranges[r].size()) {
            widest = std::max(widest, (ranges[r][*at].second - ranges[r][*at].first) / (2 * mean));
          }
        }
        if (count == 0 || mean < low) low = mean, low_rank = r;
        if (count == 0 || mean > high) high = mean, high_rank = r;
        sum += mean;
        ++count;
      }
    }
    if (count == 0) continue;
    double value = sum / static_cast<double>(count);
    if (rooted) {
      value = high;
    } else if (high + kSizeSlack > kSizeFactor * (low + kSizeSlack)) {
      const std::string what = fmt::format(
          "slot {}: ranks at n = {} {} different sizes, {} (rank {}) to {} (rank {})", slot, run.n,
          receive_side ? "receive" : "send", low, low_rank, high, high_rank);
      if (!tolerance.by_rank) {
        tolerance.failed = true;
        failures.push_back(what + ", beyond a data spread");
        return std::nullopt;
      }
      notes.push_back(what + ": modelled by their mean, " + number_text(std::round(value)) +
                      " bytes; the volume of single ranks is approximate");
      spread = std::max({spread, widest, (high - low) / (2 * value)});
    } else if (value > 0) {
      spread = std::max({spread, widest, (high - low) / (2 * value)});
    }
    any = any || value != 0;
    points.push_back({static_cast<double>(run.n), std::round(value)});
  }
  if (!any || points.empty()) return std::nullopt;
  // Scalars and metadata stay what they are whatever the grid; a face of a few dozen values
  // or more is a halo.
  const bool halo = std::all_of(points.begin(), points.end(),
                                [](const ScalingPoint& p) { return p.y >= kLeastHaloBytes; });
  return fit_points(points, false, 100 * spread, faces, tolerance.prefer_faces && halo);
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
  return {GridFace{grid->shape, crossed.front()}};
}

// Each rank's order of its slots as a variant chosen by r mod m, for the smallest m that
// reproduces every rank of every run.
std::optional<SlotOrder> infer_order(const Alignment& alignment, std::size_t slot_count) {
  auto reproduces = [&](const SlotOrder& order) {
    for (const AlignedRun& run : alignment.runs) {
      for (std::size_t r = 0; r < run.order.size(); ++r) {
        std::vector<std::int32_t> expected;
        for (std::int32_t s : order.variants[r % static_cast<std::size_t>(order.modulus)]) {
          if (run.slot_events[static_cast<std::size_t>(s)][r]) expected.push_back(s);
        }
        if (expected != run.order[r]) return false;
      }
    }
    return true;
  };
  // The slots' own order, which the alignment made one every rank follows when it could.
  SlotOrder in_order{1, {std::vector<std::int32_t>(slot_count)}};
  std::iota(in_order.variants[0].begin(), in_order.variants[0].end(), 0);
  if (reproduces(in_order)) return in_order;
  for (std::int64_t m = 1; m <= 4; ++m) {
    SlotOrder order;
    order.modulus = m;
    order.variants.assign(static_cast<std::size_t>(m), {});
    for (std::int64_t c = 0; c < m; ++c) {
      std::vector<std::int32_t>& variant = order.variants[static_cast<std::size_t>(c)];
      for (const AlignedRun& run : alignment.runs) {
        for (std::size_t r = static_cast<std::size_t>(c); r < run.order.size();
             r += static_cast<std::size_t>(m)) {
          if (run.order[r].size() > variant.size()) variant = run.order[r];
        }
      }
      for (std::size_t s = 0; s < slot_count; ++s) {
        const auto slot = static_cast<std::int32_t>(s);
        if (std::find(variant.begin(), variant.end(), slot) == variant.end())
          variant.push_back(slot);
      }
    }
    if (reproduces(order)) return order;
  }
  return std::nullopt;
}

// Whether the slot has a peer of this role.
bool plays_role(const SlotModel& slot, Role role) {
  return role == Role::Dst ? slot.sends : role == Role::Src ? slot.receives : slot.rooted;
}

// Every run's peers on one side of its slots, as world ranks (kNoPeer where a rank has no
// event in the slot).
std::vector<PhasePeers> peers_in_role(const Alignment& alignment, const SlotTemplates& templates,
                                      const std::vector<SlotModel>& slots, Role role) {
  std::vector<PhasePeers> peers;
  for (std::size_t i = 0; i < alignment.runs.size(); ++i) {
    const AlignedRun& run = alignment.runs[i];
    PhasePeers p;
    p.n = run.n;
    for (std::size_t k = 0; k < run.slot_events.size(); ++k) {
      const auto& slot_events = run.slot_events[k];
      std::vector<std::int64_t> of_slot(slot_events.size(), kNoPeer);
      // A sub-communicator's root is a place among its members (SlotModel::comm_root).
      const bool sub_root = role == Role::Root && slots[templates.template_of_slot[i][k]].comm;
      for (std::size_t r = 0; r < slot_events.size() && !sub_root; ++r) {
        if (slot_events[r]) {
          of_slot[r] = absolute_peer(relative_of(*slot_events[r], role),
                                     static_cast<std::int64_t>(r), run.n);
        }
      }
      p.slots.push_back(std::move(of_slot));
    }
    peers.push_back(std::move(p));
  }
  return peers;
}

// The peer rules of every slot, one side at a time (destinations, sources, roots; a side no
// slot has is skipped), into the phase's rules and notes.
bool infer_peer_rules(const Alignment& alignment, const SlotTemplates& templates,
                      const std::vector<SlotModel>& slots, PhaseModel& phase,
                      std::vector<std::string>& failures) {
  for (Role role : {Role::Dst, Role::Src, Role::Root}) {
    const bool used = std::any_of(slots.begin(), slots.end(),
                                  [&](const SlotModel& slot) { return plays_role(slot, role); });
    if (!used) continue;
    SlotSequenceInference inference =
        infer_slot_sequence(peers_in_role(alignment, templates, slots, role), templates.layout);
    if (!inference.modelled()) {
      failures.push_back(describe_failure(inference, role));
      return false;
    }
    for (const std::string& note : inference.notes) {
      phase.notes.push_back(fmt::format("{}: {}", role_name(role), note));
    }
    (role == Role::Dst   ? phase.dst_rules
     : role == Role::Src ? phase.src_rules
                         : phase.root_rules) = inference.model;
  }
  return true;
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
    slot.bytes = fit_bytes(alignment, phase_runs, slots_of_run, t, false,
                           faces_of(phase.dst_rules, t), slot.bytes_spread, how, notes, errors);
    slot.rbytes = fit_bytes(alignment, phase_runs, slots_of_run, t, true,
                            faces_of(phase.src_rules, t), slot.rbytes_spread, how, notes, errors);
    if (!errors.empty()) return false;
  }
  return true;
}

// Sizes, once the peers are known: a halo message across one dimension of a process grid
// may follow the grid's face (GridFace). The halos of one phase are of one decomposition:
// when some follow their faces, the others are taken to as well (across a dimension that
// every training grid gave the same extent, a face and a constant cannot be told apart).
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

// The order each rank makes its calls in, into phase.order.
bool infer_slot_order(const Alignment& alignment, const SlotTemplates& templates,
                      std::size_t slot_count, PhaseModel& phase,
                      std::vector<std::string>& failures) {
  if (templates.layout.block) {
    // Every rank makes the calls of a growing phase in the same order: its slots' order.
    phase.order = SlotOrder{1, {{}}};
    return true;
  }
  auto order = infer_order(alignment, slot_count);
  if (!order) {
    failures.push_back("ranks order their calls in ways no rule over r mod 1..4 reproduces");
    return false;
  }
  phase.order = *order;
  return true;
}

// The communication pattern of one phase under one alignment; failures says why not.
bool model_pattern(const Alignment& alignment, std::span<const PhaseRun> phase_runs,
                   PhaseModel& phase, SizeModelling& sizes, std::vector<std::string>& failures) {
  const std::optional<SlotTemplates> templates = infer_slot_templates(alignment, failures);
  if (!templates) return false;
  std::optional<std::vector<SlotModel>> slots =
      template_slot_models(alignment, phase_runs, *templates, failures);
  if (!slots || !every_rank_calls_peerless_slots(alignment, *templates, *slots, failures) ||
      !infer_peer_rules(alignment, *templates, *slots, phase, failures) ||
      !fit_slot_sizes(alignment, phase_runs, *templates, sizes, phase, *slots, failures) ||
      !infer_slot_order(alignment, *templates, slots->size(), phase, failures)) {
    return false;
  }
  phase.slots = std::move(*slots);
  phase.layout = templates->layout;
  return true;
}

// A message's size is the sender's: the receive slot that takes it gets the send slot's size
// fit, so that at N both ends agree to the byte even where sizes are data-dependent means
// fitted apart. Which send slot feeds a receive slot is read off the largest run by MPI's
// matching order (the k-th receive from a peer with a tag takes that peer's k-th send to it
// with that tag); a receive slot fed by different send slots on different ranks keeps its own.
void tie_receive_sizes(const AlignedRun& run, PhaseModel& phase) {
  if (phase.layout.block) return;
  const auto n = static_cast<std::size_t>(run.n);
  struct Sent {
    std::int32_t slot;
    std::int32_t tag;
    std::int64_t to;
  };
  std::vector<std::vector<Sent>> sends(n);
  for (std::size_t r = 0; r < n; ++r) {
    for (std::int32_t slot : run.order[r]) {
      const auto& e = run.slot_events[static_cast<std::size_t>(slot)][r];
      if (e && e->dst >= 0 && core::op_kind(e->op) == core::OpKind::PointToPoint) {
        sends[r].push_back(
            {slot, e->tag, absolute_peer(e->dst, static_cast<std::int64_t>(r), run.n)});
      }
    }
  }
  std::vector<std::optional<std::int32_t>> feeder(phase.slots.size());
  std::vector<bool> mixed(phase.slots.size(), false);
  for (std::size_t r = 0; r < n; ++r) {
    std::map<std::pair<std::int64_t, std::int32_t>, std::size_t> taken;  // (peer, tag) -> count
    for (std::int32_t slot : run.order[r]) {
      const auto& e = run.slot_events[static_cast<std::size_t>(slot)][r];
      if (!e || e->src < 0 || core::op_kind(e->op) != core::OpKind::PointToPoint) continue;
      const std::int64_t from = absolute_peer(e->src, static_cast<std::int64_t>(r), run.n);
      const std::size_t k = taken[{from, e->rtag}]++;
      std::optional<std::int32_t> source;
      std::size_t seen = 0;
      for (const Sent& sent : sends[static_cast<std::size_t>(from)]) {
        if (sent.to != static_cast<std::int64_t>(r) || sent.tag != e->rtag) continue;
        if (seen++ == k) {
          source = sent.slot;
          break;
        }
      }
      const auto s = static_cast<std::size_t>(slot);
      if (!source || (feeder[s] && *feeder[s] != *source)) mixed[s] = true;
      feeder[s] = source;
    }
  }
  for (std::size_t s = 0; s < phase.slots.size(); ++s) {
    if (mixed[s] || !feeder[s]) continue;
    const SlotModel& from = phase.slots[static_cast<std::size_t>(*feeder[s])];
    phase.slots[s].rbytes = from.bytes;
    phase.slots[s].rbytes_spread = from.bytes_spread;
  }
}

CarriedPattern carry_largest(std::span<const PhaseRun> runs) {
  const auto largest = std::max_element(
      runs.begin(), runs.end(), [](const PhaseRun& a, const PhaseRun& b) { return a.n < b.n; });
  CarriedPattern carried;
  carried.n = largest->n;
  for (const auto& events : largest->ranks) {
    std::vector<CarriedRankEvent> out;
    for (const EventToken& t : events) {
      out.push_back({t.op, t.dst, t.src, t.root, t.tag, t.rtag, t.bytes, t.rbytes});
    }
    carried.ranks.push_back(std::move(out));
  }
  return carried;
}

// "irecv x4, isend x4, waitall, allreduce", "(irecv, send, wait) x12": the calls of one
// repetition, repeated groups of up to four calls counted.
std::string calls_text(const std::vector<EventToken>& events) {
  constexpr std::size_t kLongestGroup = 4;
  auto same = [&](std::size_t a, std::size_t b, std::size_t length) {
    for (std::size_t k = 0; k < length; ++k) {
      if (events[a + k].op != events[b + k].op) return false;
    }
    return true;
  };
  std::string out;
  for (std::size_t i = 0; i < events.size();) {
    std::size_t best_length = 1, best_repeats = 1;
    for (std::size_t length = 1; length <= kLongestGroup; ++length) {
      std::size_t repeats = 1;
      while (i + (repeats + 1) * length <= events.size() && same(i, i + repeats * length, length)) {
        ++repeats;
      }
      if (repeats >= 2 && repeats * length > best_repeats * best_length) {
        best_length = length;
        best_repeats = repeats;
      }
    }
    std::string group;
    for (std::size_t k = 0; k < best_length; ++k) {
      group += fmt::format("{}{}", k > 0 ? ", " : "", core::op_name(events[i + k].op));
    }
    if (best_length > 1) group = "(" + group + ")";
    if (best_repeats > 1) group += fmt::format(" x{}", best_repeats);
    out += (out.empty() ? "" : ", ") + group;
    i += best_length * best_repeats;
  }
  return out.empty() ? "no calls" : out;
}

// One phase in the runs it appears in, in increasing n.
struct FamilyRun {
  const LogicalRun* run = nullptr;
  const LogicalPhase* phase = nullptr;
  std::string pairing;
};

PhaseRun phase_run(const FamilyRun& f) {
  PhaseRun pr;
  pr.n = f.run->n;
  pr.comms = f.run->rank_comms;
  for (const LogicalRankPhase& r : f.phase->ranks) {
    pr.ranks.push_back(r.events);
    pr.bytes_range.push_back(r.bytes_range);
    pr.rbytes_range.push_back(r.rbytes_range);
  }
  return pr;
}

// `largest_order` gets the slots each rank of the largest run performs, in its order, under
// the alignment that modelled the pattern.
PhaseModel model_phase(const std::vector<FamilyRun>& runs, std::int32_t index, WorkScaling scaling,
                       std::vector<std::vector<std::int32_t>>& largest_order) {
  PhaseModel phase;
  phase.index = index;
  phase.name = fmt::format("phase {}", index);
  const LogicalPhase& largest = *runs.back().phase;
  phase.calls = calls_text(largest.ranks[largest.fullest_rank()].events);
  std::vector<PhaseRun> phase_runs;
  std::vector<ScalingPoint> weights;
  for (const FamilyRun& f : runs) {
    phase.runs_n.push_back(f.run->n);
    std::vector<std::size_t> one{static_cast<std::size_t>(f.phase->id)};
    phase.shares.push_back(f.run->share_of(one));
    phase.pairing.push_back(f.pairing);
    weights.push_back(
        {static_cast<double>(f.run->n), static_cast<double>(f.phase->common_weight())});
    phase_runs.push_back(phase_run(f));
  }
  phase.weight = fit_points(weights, true);

  // Alignments that keep every slot's sizes alike across ranks first; only when none models
  // the pattern for that reason alone, ranks' sizes may differ (SizeModelling).
  SizeModelling sizes;
  sizes.prefer_faces = scaling == WorkScaling::Strong;
  for (const bool by_rank : {false, true}) {
    if (phase.pattern_modelled || (by_rank && !sizes.failed)) break;
    sizes.by_rank = by_rank;
    for (AlignmentMethod method :
         {AlignmentMethod::Position, AlignmentMethod::Centered, AlignmentMethod::Signed}) {
      const Alignment alignment = align_phase(phase_runs, method);
      std::vector<std::string> failures;
      if (!alignment.aligned()) {
        if (!by_rank) failures.push_back(alignment.failure);
      } else {
        PhaseModel attempt = phase;
        if (model_pattern(alignment, phase_runs, attempt, sizes, failures)) {
          tie_receive_sizes(alignment.runs.back(), attempt);
          attempt.pattern_modelled = true;
          attempt.alignment = alignment_method_name(method);
          phase = std::move(attempt);
          largest_order = alignment.runs.back().order;
          break;
        }
      }
      for (const std::string& f : failures)
        phase.failures.push_back(fmt::format("{} alignment: {}", alignment_method_name(method), f));
    }
  }
  if (phase.pattern_modelled) {
    phase.failures.clear();
  } else {
    phase.carried = carry_largest(phase_runs);
  }
  return phase;
}

PhaseComputeRun compute_run(const LogicalRun& run, const LogicalPhase& phase) {
  PhaseComputeRun out;
  out.n = run.n;
  if (run.workload) out.workload = run.workload->size;
  for (const LogicalRankPhase& r : phase.ranks) {
    out.cpu_ns.push_back(r.cpu_ns);
    if (run.instructions) out.instructions.push_back(r.instructions);
    out.weight.push_back(r.weight);
  }
  return out;
}

// Compute before each slot as a share of the repetition, from the largest run: each rank's
// events, in `order` (its slots; border ranks lack some), summed per slot. None for a growing
// phase or an unmodelled one: their slots at N share the repetition equally.
std::vector<double> slot_shares(const PhaseModel& phase, const LogicalPhase& largest,
                                const std::vector<std::vector<std::int32_t>>& order) {
  if (phase.layout.block || !phase.pattern_modelled) return {};
  const std::size_t count = phase.slots.size();
  std::vector<double> slot_cpu(count, 0.0);
  for (std::size_t r = 0; r < largest.ranks.size() && r < order.size(); ++r) {
    const std::vector<double>& cpu = largest.ranks[r].slot_cpu_ns;
    for (std::size_t e = 0; e < order[r].size() && e < cpu.size(); ++e) {
      const auto slot = static_cast<std::size_t>(order[r][e]);
      if (slot < count) slot_cpu[slot] += cpu[e];
    }
  }
  double total = 0;
  for (double c : slot_cpu) total += c;
  std::vector<double> shares;
  for (std::size_t s = 0; s < count; ++s) {
    shares.push_back(total <= 0 ? 1.0 / static_cast<double>(count) : slot_cpu[s] / total);
  }
  return shares;
}

// The training runs' workload, which measurable runs must share the label of.
std::optional<core::Workload> common_workload(const std::vector<const LogicalRun*>& runs,
                                              const std::vector<LogicalRun>& measurable) {
  const std::optional<core::Workload> workload = runs.front()->workload;
  for (const LogicalRun* run : runs) {
    if (run->workload != workload) {
      throw std::invalid_argument(
          "the training runs declare different workloads; runs of a smaller workload go "
          "after --measurable");
    }
  }
  for (const LogicalRun& run : measurable) {
    if (workload && run.workload && run.workload->label != workload->label) {
      throw std::invalid_argument(
          fmt::format("measurable run at n = {} declares workload '{}', the training runs '{}'",
                      run.n, run.workload->label, workload->label));
    }
    if ((!workload || !run.workload) && !run.instructions) {
      throw std::invalid_argument(
          fmt::format("measurable run at n = {}: without hardware counters, every run needs "
                      "p3s trace --workload LABEL=SIZE to place it by",
                      run.n));
    }
  }
  return workload;
}

// Why a family of phases is not in the SLT, or not modelled exactly: for coverage.
struct FamilyStatus {
  std::optional<std::size_t> slt_phase;  // index in slt.phases
  std::string why;                       // empty when modelled exactly
};

// Missing entries smaller than this share of a run are summed into one line.
constexpr double kListedShare = 0.005;

std::vector<RunCoverage> coverage_of(const std::vector<const LogicalRun*>& runs,
                                     const std::vector<PhaseFamily>& families,
                                     const std::vector<FamilyStatus>& status, const Slt& slt) {
  std::vector<RunCoverage> out;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const LogicalRun& run = *runs[i];
    RunCoverage c;
    c.n = run.n;
    c.run = run.dir;
    std::vector<std::size_t> modelled;
    double small = 0;
    std::size_t small_count = 0;
    for (std::size_t f = 0; f < families.size(); ++f) {
      const auto& member = families[f].members[i];
      if (!member) continue;
      if (status[f].why.empty()) {
        modelled.push_back(member->phase);
        continue;
      }
      const double share = run.share_of({member->phase});
      if (share < kListedShare) {
        small += share;
        ++small_count;
        continue;
      }
      const LogicalPhase& p = run.phases[member->phase];
      const std::string name = status[f].slt_phase
                                   ? fmt::format("{} ({})", slt.phases[*status[f].slt_phase].name,
                                                 slt.phases[*status[f].slt_phase].calls)
                                   : fmt::format("run phase {} ({})", p.id,
                                                 calls_text(p.ranks[p.fullest_rank()].events));
      c.missing.push_back({name, share, status[f].why});
    }
    std::sort(c.missing.begin(), c.missing.end(),
              [](const auto& a, const auto& b) { return a.share > b.share; });
    if (small_count > 0) {
      c.missing.push_back(
          {fmt::format("{} phases of less than {:.1f} % each", small_count, 100 * kListedShare),
           small, "too small to list"});
    }
    c.modelled = run.share_of(modelled);
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace

double Slt::least_coverage() const {
  double least = 1;
  for (const RunCoverage& c : coverage) least = std::min(least, c.modelled);
  return least;
}

BuiltSlt build_slt(const SltInputs& inputs) {
  std::vector<const LogicalRun*> sorted;
  for (const LogicalRun& run : inputs.runs) sorted.push_back(&run);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const LogicalRun* a, const LogicalRun* b) { return a->n < b->n; });
  if (sorted.size() < 2 || sorted.front()->n == sorted.back()->n) {
    throw std::invalid_argument("p3s model needs runs at two process counts at least");
  }
  std::vector<const LogicalRun*> extra;
  for (const LogicalRun& run : inputs.measurable) extra.push_back(&run);
  if (inputs.holdout) extra.push_back(&*inputs.holdout);
  const std::vector<PhaseFamily> families = match_phases(sorted, extra);

  BuiltSlt built;
  Slt& slt = built.slt;
  for (const LogicalRun* run : sorted) slt.runs.push_back(run->n);
  slt.compute.workload = common_workload(sorted, inputs.measurable);
  slt.compute.machine = sorted.back()->host;
  const bool counters = std::all_of(sorted.begin(), sorted.end(),
                                    [](const LogicalRun* r) { return r->instructions; });
  slt.compute.metric = counters ? "instructions" : "cpu_time";
  slt.compute.scaling = inputs.scaling;

  std::vector<FamilyStatus> status(families.size());
  for (std::size_t f = 0; f < families.size(); ++f) {
    const PhaseFamily& family = families[f];
    if (family.relevance < inputs.threshold) {
      status[f].why =
          fmt::format("below the relevance threshold ({:.3g} %)", 100 * inputs.threshold);
      continue;
    }
    std::vector<FamilyRun> present;
    std::set<std::int64_t> counts;
    for (std::size_t i = 0; i < sorted.size(); ++i) {
      if (!family.members[i]) continue;
      present.push_back(
          {sorted[i], &sorted[i]->phases[family.members[i]->phase], family.members[i]->reason});
      counts.insert(sorted[i]->n);
    }
    if (counts.size() < 2) {
      status[f].why = fmt::format("appears only at n = {}: nothing to learn its scaling from",
                                  fmt::join(counts, ", "));
      slt.notes.push_back(fmt::format(
          "a phase with {:.1f} % of some run ({}) appears only at n = {}; not modelled",
          100 * family.relevance,
          calls_text(present.back().phase->ranks[present.back().phase->fullest_rank()].events),
          fmt::join(counts, ", ")));
      continue;
    }
    std::vector<std::vector<std::int32_t>> largest_order;
    const auto index = static_cast<std::int32_t>(slt.phases.size());
    slt.phases.push_back(model_phase(present, index, inputs.scaling, largest_order));
    status[f].slt_phase = slt.phases.size() - 1;
    if (!slt.phases.back().pattern_modelled) {
      status[f].why = "pattern not modelled: " + slt.phases.back().failures.front();
    }
    std::vector<PhaseComputeRun> training;
    for (const FamilyRun& fr : present) training.push_back(compute_run(*fr.run, *fr.phase));
    std::vector<PhaseComputeRun> points;
    std::vector<std::string> missing;
    for (std::size_t m = 0; m < inputs.measurable.size(); ++m) {
      const LogicalRun& run = inputs.measurable[m];
      if (family.extra[m]) {
        points.push_back(compute_run(run, run.phases[family.extra[m]->phase]));
      } else {
        missing.push_back(
            fmt::format("measurable run at n = {} has no counterpart of {}; not used for it", run.n,
                        slt.phases.back().name));
      }
    }
    std::optional<double> size;
    if (slt.compute.workload) size = slt.compute.workload->size;
    ComputeModelOptions compute_options;
    compute_options.scaling = inputs.scaling;
    PhaseCompute compute =
        model_phase_compute(training, points, slt.phases.back().weight, size, compute_options);
    compute.notes.insert(compute.notes.begin(), missing.begin(), missing.end());
    compute.slot_shares = slot_shares(slt.phases.back(), *present.back().phase, largest_order);
    slt.compute.phases.push_back(std::move(compute));
    if (inputs.holdout) {
      const auto& member = family.extra.back();
      built.holdout_phase.push_back(member ? std::optional(member->phase) : std::nullopt);
    }
  }
  slt.coverage = coverage_of(sorted, families, status, slt);
  return built;
}

Slt build_slt(const std::vector<LogicalRun>& runs, const std::vector<LogicalRun>& measurable,
              double threshold) {
  return build_slt(SltInputs{runs, measurable, std::nullopt, threshold}).slt;
}

}  // namespace p3s::model
