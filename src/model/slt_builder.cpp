#include "model/slt_builder.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "model/phase_alignment.hpp"
#include "model/phase_compute_model.hpp"
#include "model/scaling_model_search.hpp"

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

ScalingFit fit_points(const std::vector<ScalingPoint>& points, bool with_displacement) {
  ScalingFitOptions options;
  if (with_displacement) {
    std::vector<std::int64_t> counts;
    for (const ScalingPoint& p : points) counts.push_back(static_cast<std::int64_t>(p.n));
    options.displacement_families = families_containing(counts);
  }
  return fit_scaling_model(points, options);
}

// Bytes of one side of a slot per run; ranks of one run must agree.
std::optional<ScalingFit> fit_bytes(const Alignment& alignment, bool growing, std::size_t slot,
                                    bool receive_side, std::vector<std::string>& failures) {
  std::vector<ScalingPoint> points;
  bool any = false;
  for (const AlignedRun& run : alignment.runs) {
    std::optional<std::int64_t> value;
    for (std::size_t s = 0; s < run.slot_events.size(); ++s) {
      if (!growing && s != slot) continue;
      for (std::size_t r = 0; r < run.slot_events[s].size(); ++r) {
        const auto& e = run.slot_events[s][r];
        if (!e) continue;
        const std::int64_t bytes = receive_side ? e->rbytes : e->bytes;
        if (value && *value != bytes) {
          failures.push_back(
              fmt::format("slot {}: ranks of n = {} disagree on {} bytes ({} and "
                          "{} on rank {})",
                          slot, run.n, receive_side ? "received" : "sent", *value, bytes, r));
          return std::nullopt;
        }
        value = bytes;
      }
    }
    if (!value) continue;
    any = any || *value != 0;
    points.push_back({static_cast<double>(run.n), static_cast<double>(*value)});
  }
  if (!any || points.empty()) return std::nullopt;
  return fit_points(points, false);
}

// Each rank's order of its slots as a variant chosen by r mod m, for the smallest m that
// reproduces every rank of every run.
std::optional<SlotOrder> infer_order(const Alignment& alignment, std::size_t slot_count) {
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
    bool reproduces = true;
    for (const AlignedRun& run : alignment.runs) {
      for (std::size_t r = 0; r < run.order.size() && reproduces; ++r) {
        std::vector<std::int32_t> expected;
        for (std::int32_t s : order.variants[r % static_cast<std::size_t>(m)]) {
          if (run.slot_events[static_cast<std::size_t>(s)][r]) expected.push_back(s);
        }
        reproduces = expected == run.order[r];
      }
    }
    if (reproduces) return order;
  }
  return std::nullopt;
}

// The communication pattern of one phase under one alignment; failures says why not.
bool model_pattern(const Alignment& alignment, PhaseModel& phase,
                   std::vector<std::string>& failures) {
  const std::size_t first_count = alignment.runs.front().slot_events.size();
  bool growing = false;
  for (const AlignedRun& run : alignment.runs) growing |= run.slot_events.size() != first_count;
  std::vector<SlotModel> slots;
  std::size_t template_count = growing ? 1 : first_count;
  // The first event seen in each slot gives its operation and tags.
  for (std::size_t s = 0; s < template_count; ++s) {
    std::optional<EventToken> example;
    for (const AlignedRun& run : alignment.runs) {
      for (std::size_t rs = 0; rs < run.slot_events.size(); ++rs) {
        if (!growing && rs != s) continue;
        for (const auto& e : run.slot_events[rs]) {
          if (!e) continue;
          if (!example) example = e;
          if (e->op != example->op || e->tag != example->tag || e->rtag != example->rtag) {
            failures.push_back(fmt::format("slot {}: calls differ at n = {} ({} and {})", s, run.n,
                                           core::op_name(example->op), core::op_name(e->op)));
            return false;
          }
        }
      }
    }
    if (!example) {
      failures.push_back(fmt::format("slot {} is never used", s));
      return false;
    }
    SlotModel slot;
    slot.op = example->op;
    slot.tag = example->tag;
    slot.rtag = example->rtag;
    slot.sends = example->dst >= 0;
    slot.receives = example->src >= 0;
    slot.rooted = example->root >= 0;
    if (example->comm != 0) {
      failures.push_back(
          fmt::format("slot {} ({}) uses a sub-communicator, which this model "
                      "does not express yet",
                      s, core::op_name(slot.op)));
      return false;
    }
    slot.bytes = fit_bytes(alignment, growing, s, false, failures);
    slot.rbytes = fit_bytes(alignment, growing, s, true, failures);
    if (!failures.empty()) return false;
    slots.push_back(slot);
  }
  // A call with no peer must be made by every rank: only peers may be null.
  for (const AlignedRun& run : alignment.runs) {
    for (std::size_t s = 0; s < run.slot_events.size(); ++s) {
      const SlotModel& slot = slots[growing ? 0 : s];
      if (slot.sends || slot.receives) continue;
      for (std::size_t r = 0; r < run.slot_events[s].size(); ++r) {
        if (!run.slot_events[s][r]) {
          failures.push_back(fmt::format("n = {}: rank {} does not call {} (slot {})", run.n, r,
                                         core::op_name(slot.op), s));
          return false;
        }
      }
    }
  }
  for (Role role : {Role::Dst, Role::Src, Role::Root}) {
    bool used = false;
    for (const SlotModel& slot : slots) {
      used |= role == Role::Dst ? slot.sends : role == Role::Src ? slot.receives : slot.rooted;
    }
    if (!used) continue;
    std::vector<PhasePeers> peers;
    for (const AlignedRun& run : alignment.runs) {
      PhasePeers p;
      p.n = run.n;
      for (const auto& slot_events : run.slot_events) {
        std::vector<std::int64_t> of_slot(slot_events.size(), kNoPeer);
        for (std::size_t r = 0; r < slot_events.size(); ++r) {
          if (slot_events[r]) {
            of_slot[r] = absolute_peer(relative_of(*slot_events[r], role),
                                       static_cast<std::int64_t>(r), run.n);
          }
        }
        p.slots.push_back(std::move(of_slot));
      }
      peers.push_back(std::move(p));
    }
    SlotSequenceInference inference = infer_slot_sequence(peers);
    if (!inference.modelled()) {
      failures.push_back(describe_failure(inference, role));
      return false;
    }
    (role == Role::Dst   ? phase.dst_rules
     : role == Role::Src ? phase.src_rules
                         : phase.root_rules) = inference.model;
  }
  if (growing) {
    phase.order.variants = {{0}};
  } else {
    auto order = infer_order(alignment, slots.size());
    if (!order) {
      failures.push_back("ranks order their calls in ways no rule over r mod 1..4 reproduces");
      return false;
    }
    phase.order = *order;
  }
  phase.slots = std::move(slots);
  phase.growing = growing;
  return true;
}

CarriedPattern carry_largest(const std::vector<PhaseRun>& runs) {
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

std::int64_t common_weight(const LogicalPhase& phase) {
  std::map<std::int64_t, int> counts;
  for (const LogicalRankPhase& r : phase.ranks) ++counts[r.weight];
  return std::max_element(counts.begin(), counts.end(),
                          [](const auto& a, const auto& b) { return a.second < b.second; })
      ->first;
}

// `largest_order` gets the slots each rank of the largest run (the last) performs, in its
// order, under the alignment that modelled the pattern.
PhaseModel model_phase(const std::vector<const LogicalRun*>& runs, std::size_t k,
                       std::vector<std::vector<std::int32_t>>& largest_order) {
  PhaseModel phase;
  phase.index = static_cast<std::int32_t>(k);
  phase.name = fmt::format("phase {}", k);
  std::vector<PhaseRun> phase_runs;
  std::vector<ScalingPoint> weights;
  for (const LogicalRun* run : runs) {
    const LogicalPhase& lp = run->phases[k];
    PhaseRun pr;
    pr.n = run->n;
    for (const LogicalRankPhase& r : lp.ranks) pr.ranks.push_back(r.events);
    phase.runs_n.push_back(run->n);
    weights.push_back({static_cast<double>(run->n), static_cast<double>(common_weight(lp))});
    phase_runs.push_back(std::move(pr));
  }
  phase.weight = fit_points(weights, true);

  for (AlignmentMethod method :
       {AlignmentMethod::Position, AlignmentMethod::Centered, AlignmentMethod::Signed}) {
    const Alignment alignment = align_phase(phase_runs, method);
    std::vector<std::string> failures;
    if (!alignment.aligned()) {
      failures.push_back(alignment.failure);
    } else {
      PhaseModel attempt = phase;
      if (model_pattern(alignment, attempt, failures)) {
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
  if (phase.growing || !phase.pattern_modelled) return {};
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

}  // namespace

Slt build_slt(const std::vector<LogicalRun>& runs, const std::vector<LogicalRun>& measurable,
              double threshold) {
  std::vector<const LogicalRun*> sorted;
  for (const LogicalRun& run : runs) sorted.push_back(&run);
  std::sort(sorted.begin(), sorted.end(),
            [](const LogicalRun* a, const LogicalRun* b) { return a->n < b->n; });
  if (sorted.size() < 2 || sorted.front()->n == sorted.back()->n) {
    throw std::invalid_argument("p3s model needs runs at two process counts at least");
  }
  Slt slt;
  std::size_t common = sorted.front()->phases.size();
  for (const LogicalRun* run : sorted) {
    slt.runs.push_back(run->n);
    common = std::min(common, run->phases.size());
    for (const std::string& note : run->notes) slt.notes.push_back(note);
  }
  for (const LogicalRun* run : sorted) {
    for (std::size_t k = common; k < run->phases.size(); ++k) {
      slt.notes.push_back(
          fmt::format("n = {}: logical phase {} has no counterpart in "
                      "every run; not modelled",
                      run->n, k));
    }
  }
  slt.compute.workload = common_workload(sorted, measurable);
  slt.compute.machine = sorted.back()->host;
  const bool counters = std::all_of(sorted.begin(), sorted.end(),
                                    [](const LogicalRun* r) { return r->instructions; });
  slt.compute.metric = counters ? "instructions" : "cpu_time";
  for (std::size_t k = 0; k < common; ++k) {
    const bool relevant = std::any_of(sorted.begin(), sorted.end(), [&](const LogicalRun* run) {
      return run->phases[k].relevance() >= threshold;
    });
    if (!relevant) {
      slt.notes.push_back(fmt::format(
          "logical phase {} takes less than {:.3g} % of every rank's run in every run; not "
          "modelled",
          k, 100 * threshold));
      continue;
    }
    std::vector<std::vector<std::int32_t>> largest_order;
    slt.phases.push_back(model_phase(sorted, k, largest_order));
    std::vector<PhaseComputeRun> training;
    for (const LogicalRun* run : sorted) training.push_back(compute_run(*run, run->phases[k]));
    std::vector<PhaseComputeRun> points;
    std::vector<std::string> missing;
    for (const LogicalRun& run : measurable) {
      if (k < run.phases.size()) {
        points.push_back(compute_run(run, run.phases[k]));
      } else {
        missing.push_back(
            fmt::format("measurable run at n = {} has no logical phase {}; "
                        "not used for it",
                        run.n, k));
      }
    }
    std::optional<double> size;
    if (slt.compute.workload) size = slt.compute.workload->size;
    PhaseCompute compute = model_phase_compute(training, points, slt.phases.back().weight, size);
    compute.notes.insert(compute.notes.begin(), missing.begin(), missing.end());
    compute.slot_shares = slot_shares(slt.phases.back(), sorted.back()->phases[k], largest_order);
    slt.compute.phases.push_back(std::move(compute));
  }
  return slt;
}

}  // namespace p3s::model
