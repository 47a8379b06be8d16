#include "model/slt_builder.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>
#include <string>

#include "model/phase_alignment.hpp"
#include "model/phase_compute_model.hpp"
#include "model/phase_matching.hpp"
#include "model/scaling_model_search.hpp"
#include "model/slot_order.hpp"
#include "model/slot_peers.hpp"
#include "model/slot_sizes.hpp"
#include "model/slot_templates.hpp"
#include "model/undecided_rules.hpp"

namespace p3s::model {
namespace {

using signature::EventToken;

// The alignments tried, in turn: the same calls on every rank, then the template on grids of
// one, two and three dimensions (the paper's null communications), then offsets alone.
constexpr std::array<std::pair<AlignmentMethod, int>, 6> kAlignments = {{
    {AlignmentMethod::Position, 0},
    {AlignmentMethod::Grid, 1},
    {AlignmentMethod::Grid, 2},
    {AlignmentMethod::Grid, 3},
    {AlignmentMethod::Centered, 0},
    {AlignmentMethod::Signed, 0},
}};

// A phase's weight in n: exact counts, which a displacement in a family of process counts may
// explain as well as a form in n.
ScalingFit fit_weight(const std::vector<ScalingPoint>& points) {
  ScalingFitOptions options;
  std::vector<std::int64_t> counts;
  counts.reserve(points.size());
  for (const ScalingPoint& p : points) counts.push_back(static_cast<std::int64_t>(p.n));
  options.displacement_families = families_containing(counts);
  return fit_scaling_model(points, options);
}

// What the runs say of the application's grid: the families its MPI_Dims_create calls rule out.
PeerInferenceOptions grid_evidence(std::span<const PhaseRun> runs) {
  std::vector<std::vector<core::DimsCreate>> calls;
  std::vector<std::int64_t> ns;
  for (const PhaseRun& run : runs) {
    calls.push_back(run.dims_created);
    ns.push_back(run.n);
  }
  PeerInferenceOptions options;
  options.excluded_shapes = shapes_ruled_out(calls, ns);
  return options;
}

// The pattern of one phase from its slot templates; failures says why not.
bool model_templates(const Alignment& alignment, std::span<const PhaseRun> phase_runs,
                     const SlotTemplates& templates, PhaseModel& phase, SizeModelling& sizes,
                     std::vector<std::string>& failures) {
  std::optional<std::vector<SlotModel>> slots =
      template_slot_models(alignment, phase_runs, templates, failures);
  if (!slots || !every_rank_calls_peerless_slots(alignment, templates, *slots, failures) ||
      !infer_peer_rules(alignment, templates, *slots, grid_evidence(phase_runs), phase, failures) ||
      !fit_slot_sizes(alignment, phase_runs, templates, sizes, phase, *slots, failures) ||
      !infer_slot_order(alignment, templates, slots->size(), phase, failures)) {
    return false;
  }
  phase.slots = std::move(*slots);
  phase.layout = templates.layout;
  return true;
}

// The communication pattern of one phase under one alignment, which gets each run's slots laid
// out as the model's; failures says why not. A block whose tags start further on in smaller runs
// is read as shifted tags first, then as the repetitions before them absent.
bool model_pattern(Alignment& alignment, std::span<const PhaseRun> phase_runs, PhaseModel& phase,
                   SizeModelling& sizes, std::vector<std::string>& failures) {
  for (const LeadingRepetitions leading :
       {LeadingRepetitions::Shifted, LeadingRepetitions::Absent}) {
    Alignment laid_out = alignment;
    std::vector<std::string> why;
    const std::optional<SlotTemplates> templates = infer_slot_templates(laid_out, leading, why);
    if (templates && model_templates(laid_out, phase_runs, *templates, phase, sizes, why)) {
      alignment = std::move(laid_out);
      return true;
    }
    for (const std::string& w : why) {
      failures.push_back(leading == LeadingRepetitions::Shifted
                             ? w
                             : "with the repetitions before shifted tags absent: " + w);
    }
    const bool shifted =
        templates && std::any_of(templates->layout.blocks.begin(), templates->layout.blocks.end(),
                                 [](const SlotBlock& b) { return b.shifts_tags(); });
    if (!shifted) break;
  }
  return false;
}

CarriedPattern carry_largest(std::span<const PhaseRun> runs) {
  const auto largest = std::max_element(
      runs.begin(), runs.end(), [](const PhaseRun& a, const PhaseRun& b) { return a.n < b.n; });
  CarriedPattern carried;
  carried.n = largest->n;
  for (const auto& events : largest->ranks) {
    std::vector<CarriedRankEvent> out;
    out.reserve(events.size());
    for (const EventToken& t : events) {
      out.push_back({t.op, t.dst, t.src, t.root, t.tag, t.rtag, t.bytes, t.rbytes});
    }
    carried.ranks.push_back(std::move(out));
  }
  return carried;
}

// Whether the `length` calls from events[a] make the same operations as those from events[b].
bool same_operations(const std::vector<EventToken>& events, std::size_t a, std::size_t b,
                     std::size_t length) {
  for (std::size_t k = 0; k < length; ++k) {
    if (events[a + k].op != events[b + k].op) return false;
  }
  return true;
}

// A group of calls, and how many times in a row it comes.
struct CallGroup {
  std::size_t length = 1;
  std::size_t repeats = 1;
};

// Of the groups of up to eight calls from events[i], the one whose repetitions in a row cover
// the most calls; the single call when none repeats.
CallGroup repeated_group(const std::vector<EventToken>& events, std::size_t i) {
  constexpr std::size_t kLongestGroup = 8;
  CallGroup best;
  for (std::size_t length = 1; length <= kLongestGroup; ++length) {
    std::size_t repeats = 1;
    while (i + (repeats + 1) * length <= events.size() &&
           same_operations(events, i, i + repeats * length, length)) {
      ++repeats;
    }
    if (repeats >= 2 && repeats * length > best.repeats * best.length) best = {length, repeats};
  }
  return best;
}

std::string calls_text(const std::vector<EventToken>& events);

// "isend", "isend x4", "(irecv, send, wait) x12", "(irecv x2, send x2, waitall) x30".
std::string group_text(const std::vector<EventToken>& events, std::size_t i, CallGroup group) {
  std::string text;
  if (group.length > 1) {
    const auto first = events.begin() + static_cast<std::ptrdiff_t>(i);
    text = "(" +
           calls_text(
               std::vector<EventToken>(first, first + static_cast<std::ptrdiff_t>(group.length))) +
           ")";
  } else {
    text = std::string(core::op_name(events[i].op));
  }
  if (group.repeats > 1) text += fmt::format(" x{}", group.repeats);
  return text;
}

// "irecv x4, isend x4, waitall, allreduce", "(irecv, send, wait) x12": the calls of one
// repetition, repeated groups of up to eight calls counted. A repetition whose calls follow no
// short pattern (completions in the order messages arrived: thousands of groups) is cut after
// the groups of the first kMaxCallsText characters, with its count of calls.
std::string calls_text(const std::vector<EventToken>& events) {
  constexpr std::size_t kMaxCallsText = 240;
  std::string out;
  for (std::size_t i = 0; i < events.size();) {
    const CallGroup group = repeated_group(events, i);
    if (out.size() > kMaxCallsText) {
      return fmt::format("{}, ... ({} calls in all)", out, events.size());
    }
    if (!out.empty()) out += ", ";
    out += group_text(events, i, group);
    i += group.length * group.repeats;
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
  pr.dims_created = f.run->dims_created;
  for (const LogicalRankPhase& r : f.phase->ranks) {
    pr.ranks.push_back(r.events);
    pr.bytes_range.push_back(r.bytes_range);
    pr.rbytes_range.push_back(r.rbytes_range);
    pr.completes.push_back(r.completes);
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
  phase.weight = fit_weight(weights);

  // Alignments that keep every slot's sizes alike across ranks first; only when none models
  // the pattern for that reason alone, ranks' sizes may differ (SizeModelling).
  SizeModelling sizes;
  sizes.prefer_faces = scaling == WorkScaling::Strong;
  for (const bool by_rank : {false, true}) {
    if (phase.pattern_modelled || (by_rank && !sizes.failed)) break;
    sizes.by_rank = by_rank;
    for (const auto& [method, dimensions] : kAlignments) {
      Alignment alignment = align_phase(phase_runs, method, dimensions);
      std::vector<std::string> failures;
      if (!alignment.aligned()) {
        if (!by_rank) failures.push_back(alignment.failure);
      } else {
        PhaseModel attempt = phase;
        if (model_pattern(alignment, phase_runs, attempt, sizes, failures)) {
          tie_receive_sizes(alignment.runs.back(), attempt);
          attempt.pattern_modelled = true;
          attempt.alignment = alignment.name();
          phase = std::move(attempt);
          largest_order = alignment.runs.back().order;
          break;
        }
      }
      for (const std::string& f : failures)
        phase.failures.push_back(fmt::format("{} alignment: {}", alignment.name(), f));
    }
  }
  if (phase.pattern_modelled) {
    phase.failures.clear();
    phase.settled_by = settling_run(phase, runs.back().run->n);
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
  if (phase.layout.grows() || !phase.pattern_modelled) return {};
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
  std::optional<core::Workload> workload = runs.front()->workload;
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
  bool relevant = true;                  // false below the relevance threshold
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
      std::optional<std::int32_t> slt_phase;
      if (status[f].slt_phase) slt_phase = static_cast<std::int32_t>(*status[f].slt_phase);
      c.missing.push_back({name, share, status[f].why, slt_phase, status[f].relevant});
    }
    std::sort(c.missing.begin(), c.missing.end(),
              [](const auto& a, const auto& b) { return a.share > b.share; });
    if (small_count > 0) {
      c.missing.push_back(
          {fmt::format("{} phases of less than {:.1f} % each", small_count, 100 * kListedShare),
           small, "too small to list", std::nullopt, false});
    }
    c.modelled = run.share_of(modelled);
    out.push_back(std::move(c));
  }
  return out;
}

// The training runs in increasing n. Throws std::invalid_argument unless they hold two n.
std::vector<const LogicalRun*> runs_by_n(const std::vector<LogicalRun>& runs) {
  std::vector<const LogicalRun*> sorted;
  sorted.reserve(runs.size());
  for (const LogicalRun& run : runs) sorted.push_back(&run);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const LogicalRun* a, const LogicalRun* b) { return a->n < b->n; });
  if (sorted.size() < 2 || sorted.front()->n == sorted.back()->n) {
    throw std::invalid_argument("p3s model needs runs at two process counts at least");
  }
  return sorted;
}

// The runs related to the families without starting any: the measurable runs, then the
// hold-out run.
std::vector<const LogicalRun*> extra_runs(const SltInputs& inputs) {
  std::vector<const LogicalRun*> extra;
  extra.reserve(inputs.measurable.size() + 1);
  for (const LogicalRun& run : inputs.measurable) extra.push_back(&run);
  if (inputs.holdout) extra.push_back(&*inputs.holdout);
  return extra;
}

// What the SLT holds of its training runs: their n, and what its compute model is measured
// in and on.
void describe_training(const std::vector<const LogicalRun*>& sorted, const SltInputs& inputs,
                       Slt& slt) {
  for (const LogicalRun* run : sorted) slt.runs.push_back(run->n);
  slt.compute.workload = common_workload(sorted, inputs.measurable);
  slt.compute.machine = sorted.back()->host;
  const bool counters = std::all_of(sorted.begin(), sorted.end(),
                                    [](const LogicalRun* r) { return r->instructions; });
  const bool untimed =
      std::all_of(sorted.begin(), sorted.end(), [](const LogicalRun* r) { return r->untimed; });
  slt.compute.metric = untimed ? "none" : counters ? "instructions" : "cpu_time";
  slt.compute.scaling = inputs.scaling;
}

// The family's phase in each training run that has it, in increasing n.
std::vector<FamilyRun> runs_of_family(const PhaseFamily& family,
                                      const std::vector<const LogicalRun*>& sorted) {
  std::vector<FamilyRun> present;
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    if (!family.members[i]) continue;
    present.push_back(
        {sorted[i], &sorted[i]->phases[family.members[i]->phase], family.members[i]->reason});
  }
  return present;
}

// The compute model of the phase of `family`, from its training runs and the measurable runs
// that have a counterpart of it (the others named in its notes).
PhaseCompute phase_compute(const SltInputs& inputs, const PhaseFamily& family,
                           const std::vector<FamilyRun>& present, const PhaseModel& phase,
                           const std::vector<std::vector<std::int32_t>>& largest_order,
                           const std::optional<core::Workload>& workload) {
  std::vector<PhaseComputeRun> training;
  training.reserve(present.size());
  for (const FamilyRun& fr : present) training.push_back(compute_run(*fr.run, *fr.phase));
  std::vector<PhaseComputeRun> points;
  std::vector<std::string> missing;
  for (std::size_t m = 0; m < inputs.measurable.size(); ++m) {
    const LogicalRun& run = inputs.measurable[m];
    if (family.extra[m]) {
      points.push_back(compute_run(run, run.phases[family.extra[m]->phase]));
    } else {
      missing.push_back(fmt::format(
          "measurable run at n = {} has no counterpart of {}; not used for it", run.n, phase.name));
    }
  }
  std::optional<double> size;
  if (workload) size = workload->size;
  ComputeModelOptions compute_options;
  compute_options.scaling = inputs.scaling;
  PhaseCompute compute = model_phase_compute(training, points, phase.weight, size, compute_options);
  compute.notes.insert(compute.notes.begin(), missing.begin(), missing.end());
  compute.slot_shares = slot_shares(phase, *present.back().phase, largest_order);
  return compute;
}

// The phase of `family` (in the training runs `present`, at two n at least) and its compute
// into the SLT, with its counterpart in the hold-out run; its status for coverage.
FamilyStatus add_phase(const SltInputs& inputs, const PhaseFamily& family,
                       const std::vector<FamilyRun>& present, BuiltSlt& built) {
  Slt& slt = built.slt;
  FamilyStatus status;
  std::vector<std::vector<std::int32_t>> largest_order;
  const auto index = static_cast<std::int32_t>(slt.phases.size());
  slt.phases.push_back(model_phase(present, index, inputs.scaling, largest_order));
  status.slt_phase = slt.phases.size() - 1;
  const PhaseModel& phase = slt.phases.back();
  if (!phase.pattern_modelled) status.why = "pattern not modelled: " + phase.failures.front();
  slt.compute.phases.push_back(
      phase_compute(inputs, family, present, phase, largest_order, slt.compute.workload));
  if (inputs.holdout) {
    const auto& member = family.extra.back();
    built.holdout_phase.push_back(member ? std::optional(member->phase) : std::nullopt);
  }
  return status;
}

}  // namespace

double Slt::least_coverage() const {
  double least = 1;
  for (const RunCoverage& c : coverage) least = std::min(least, c.modelled);
  return least;
}

BuiltSlt build_slt(const SltInputs& inputs) {
  const std::vector<const LogicalRun*> sorted = runs_by_n(inputs.runs);
  const std::vector<PhaseFamily> families = match_phases(sorted, extra_runs(inputs));

  BuiltSlt built;
  Slt& slt = built.slt;
  describe_training(sorted, inputs, slt);
  std::vector<FamilyStatus> status(families.size());
  for (std::size_t f = 0; f < families.size(); ++f) {
    const PhaseFamily& family = families[f];
    if (family.relevance < inputs.threshold) {
      status[f].why =
          fmt::format("below the relevance threshold ({:.3g} %)", 100 * inputs.threshold);
      status[f].relevant = false;
      continue;
    }
    const std::vector<FamilyRun> present = runs_of_family(family, sorted);
    std::set<std::int64_t> counts;
    for (const FamilyRun& fr : present) counts.insert(fr.run->n);
    if (counts.size() < 2) {
      const LogicalPhase& only = *present.back().phase;
      status[f].why = fmt::format("appears only at n = {}: nothing to learn its scaling from",
                                  fmt::join(counts, ", "));
      slt.notes.push_back(
          fmt::format("a phase with {:.1f} % of some run ({}) appears only at n = {}; not modelled",
                      100 * family.relevance, calls_text(only.ranks[only.fullest_rank()].events),
                      fmt::join(counts, ", ")));
      continue;
    }
    status[f] = add_phase(inputs, family, present, built);
  }
  slt.coverage = coverage_of(sorted, families, status, slt);
  built.holdout = inputs.holdout;
  return built;
}

Slt build_slt(const std::vector<LogicalRun>& runs, const std::vector<LogicalRun>& measurable,
              double threshold) {
  return build_slt(SltInputs{runs, measurable, std::nullopt, threshold}).slt;
}

}  // namespace p3s::model
