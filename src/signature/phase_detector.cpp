#include "signature/phase_detector.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <span>
#include <string_view>
#include <unordered_map>

#include "signature/comm_shapes.hpp"
#include "signature/phase_extraction.hpp"
#include "signature/reference_cut.hpp"
#include "signature/repetition_units.hpp"
#include "signature/sequence_hash.hpp"
#include "signature/token_sequence.hpp"

namespace p3s::signature {
namespace {

constexpr std::string_view kInstructionCounter = "PAPI_TOT_INS";
// Added to both sizes before comparing them (see PhaseOptions::size_tolerance).
constexpr double kSizeSlack = 4096;

class RankAnalysis {
 public:
  RankAnalysis(const core::RankTrace& trace, const PhaseOptions& options)
      : trace_(trace), options_(options), shapes_(trace) {
    const auto& names = trace.counter_names;
    auto it = std::find(names.begin(), names.end(), kInstructionCounter);
    if (it != names.end()) instruction_slot_ = static_cast<int>(it - names.begin());
  }

  RankPhases run(ExtractionRecord* record) {
    seq_ = tokenize(trace_, shapes_);
    std::vector<Segment> segments;
    std::vector<std::int32_t> segment_phase;  // cut like a reference: its phase of each segment
    if (options_.reference) {
      const ReferenceCut& reference = *options_.reference;
      for (const IdentifiedSegment& s :
           cut_like(seq_, reference.program_for(trace_.rank), reference, trace_.rank)) {
        segments.push_back(s.segment);
        segment_phase.push_back(s.phase);
      }
    } else {
      segments = extract_segments(seq_, trace_, shapes_, options_.repeats, options_.bodies, record);
    }
    std::vector<std::vector<std::size_t>> repetitions;
    std::vector<std::int32_t> repetition_reference;
    std::vector<std::vector<std::vector<std::size_t>>> units =
        repetition_units(segments, seq_, trace_);
    for (std::size_t s = 0; s < units.size(); ++s) {
      for (std::vector<std::size_t>& rep : units[s]) {
        repetitions.push_back(std::move(rep));
        if (options_.reference) repetition_reference.push_back(segment_phase[s]);
      }
    }
    const std::vector<std::size_t> phase_of =
        options_.reference ? phases_by_reference(repetitions, repetition_reference)
                           : assign_phases(repetitions);
    for (std::size_t k = 0; k < repetitions.size(); ++k) {
      add_repetition(phases_[phase_of[k]], repetitions[k]);
      repetition_phase_.push_back(phase_of[k]);
    }
    count_occurrences();
    return summarise();
  }

 private:
  bool counts_instructions() const { return instruction_slot_ >= 0; }

  // When event i ended, as far as the run's time goes: the finalize call's own duration is
  // the MPI library shutting down, not the program.
  std::int64_t end_ns(std::size_t i) const {
    const core::Event& e = trace_.events[i];
    return e.op == core::Op::Finalize ? e.t_start : e.t_end;
  }

  std::int64_t begin_ns(std::size_t event) const { return event == 0 ? 0 : end_ns(event - 1); }

  double instructions(std::size_t i) const {
    return static_cast<double>(
        std::max<std::int64_t>(0, trace_.events[i].counters[instruction_slot_]));
  }

  // The size class of every repetition's call at `slot` (sent, then received): the sizes of
  // all repetitions sorted, a new class wherever two neighbours are further apart than the
  // tolerance. Sizes that spread evenly (ghost atoms, 0 bytes in the first step) stay one
  // class however wide their range; levels that stand apart (a multigrid's) do not.
  std::vector<std::size_t> size_classes(const std::vector<std::vector<std::size_t>>& repetitions,
                                        const std::vector<std::size_t>& members, std::size_t slot,
                                        bool received) const {
    std::vector<double> sizes;
    sizes.reserve(members.size());
    for (std::size_t k : members) {
      const core::Event& e = trace_.events[seq_.units[repetitions[k][slot]].key];
      sizes.push_back(static_cast<double>(received ? e.rbytes : e.bytes));
    }
    std::vector<double> sorted = sizes;
    std::sort(sorted.begin(), sorted.end());
    std::vector<double> class_floor = {sorted.front()};
    for (std::size_t i = 1; i < sorted.size(); ++i) {
      if (sorted[i] + kSizeSlack > (1 + options_.size_tolerance) * (sorted[i - 1] + kSizeSlack)) {
        class_floor.push_back(sorted[i]);
      }
    }
    std::vector<std::size_t> classes;
    classes.reserve(sizes.size());
    for (double size : sizes) {
      classes.push_back(static_cast<std::size_t>(
          std::upper_bound(class_floor.begin(), class_floor.end(), size) - class_floor.begin()));
    }
    return classes;
  }

  RankPhase new_phase(const std::vector<std::size_t>& units) const {
    RankPhase phase;
    phase.first_event = seq_.units[*std::min_element(units.begin(), units.end())].first;
    phase.slots.resize(units.size());
    for (std::size_t u : units) phase.events.push_back(seq_.tokens[seq_.ids[u]]);
    return phase;
  }

  // The phase of each repetition: repetitions of one body (the same calls) are one phase per
  // combination of their calls' size classes.
  std::vector<std::size_t> assign_phases(const std::vector<std::vector<std::size_t>>& repetitions) {
    // The repetitions of each body, bodies in the order first seen.
    std::unordered_map<std::vector<std::uint32_t>, std::size_t, SequenceHash> group_of_body;
    std::vector<std::vector<std::size_t>> groups;
    for (std::size_t k = 0; k < repetitions.size(); ++k) {
      std::vector<std::uint32_t> body;
      body.reserve(repetitions[k].size());
      for (std::size_t u : repetitions[k]) body.push_back(seq_.ids[u]);
      auto [it, inserted] = group_of_body.try_emplace(std::move(body), groups.size());
      if (inserted) groups.emplace_back();
      groups[it->second].push_back(k);
    }
    std::vector<std::size_t> phase_of(repetitions.size(), 0);
    for (const std::vector<std::size_t>& members : groups) {
      const std::size_t slots = repetitions[members.front()].size();
      std::vector<std::vector<std::size_t>> variant(members.size());
      for (std::size_t slot = 0; slot < slots; ++slot) {
        for (const bool received : {false, true}) {
          const std::vector<std::size_t> classes =
              size_classes(repetitions, members, slot, received);
          for (std::size_t m = 0; m < members.size(); ++m) variant[m].push_back(classes[m]);
        }
      }
      std::map<std::vector<std::size_t>, std::size_t> phase_of_variant;
      for (std::size_t m = 0; m < members.size(); ++m) {
        auto [it, inserted] = phase_of_variant.try_emplace(variant[m], phases_.size());
        if (inserted) phases_.push_back(new_phase(repetitions[members[m]]));
        phase_of[members[m]] = it->second;
      }
    }
    return phase_of;
  }

  // Repetitions cut like the reference are its phases: one per reference phase, whose
  // repetitions must all make the same calls.
  std::vector<std::size_t> phases_by_reference(
      const std::vector<std::vector<std::size_t>>& repetitions,
      const std::vector<std::int32_t>& reference_phase) {
    std::map<std::int32_t, std::size_t> index;
    std::vector<std::size_t> phase_of(repetitions.size(), 0);
    for (std::size_t k = 0; k < repetitions.size(); ++k) {
      auto [it, inserted] = index.try_emplace(reference_phase[k], phases_.size());
      if (inserted) {
        phases_.push_back(new_phase(repetitions[k]));
        phases_.back().id = reference_phase[k];
      } else if (!same_body(repetitions[k], phases_[it->second])) {
        throw ReferenceCutMismatch(fmt::format(
            "rank {}: its repetitions of the reference's phase {} make different calls (from "
            "its event {})",
            trace_.rank, reference_phase[k], seq_.units[repetitions[k].front()].key));
      }
      phase_of[k] = it->second;
    }
    return phase_of;
  }

  bool same_body(const std::vector<std::size_t>& units, const RankPhase& phase) const {
    return std::equal(
        units.begin(), units.end(), phase.events.begin(), phase.events.end(),
        [&](std::size_t u, const EventToken& t) { return seq_.tokens[seq_.ids[u]] == t; });
  }

  // A stretch is a run of consecutive repetitions of one phase.
  void count_occurrences() {
    std::size_t previous = static_cast<std::size_t>(-1);
    for (std::size_t phase : repetition_phase_) {
      if (phase != previous) {
        ++phases_[phase].occurrences;
        stretches_.push_back({static_cast<std::int32_t>(phase), 0});
      }
      ++stretches_.back().repeats;
      previous = phase;
    }
  }

  // One unit's compute: its folded polls' bursts and its own.
  double unit_cpu(const TokenUnit& unit) const {
    double cpu = 0;
    for (std::size_t i = unit.first; i <= unit.key; ++i) {
      cpu += static_cast<double>(trace_.events[i].burst_cpu);
    }
    return cpu;
  }

  double unit_instructions(const TokenUnit& unit) const {
    double ins = 0;
    for (std::size_t i = unit.first; i <= unit.key; ++i) ins += instructions(i);
    return ins;
  }

  // A repetition's time is its units' spans, each from the end of the event before it: the
  // repetitions of all phases tile the run even where a post was moved (repetition_units.hpp).
  void add_repetition(RankPhase& phase, const std::vector<std::size_t>& units) {
    std::int64_t time = 0;
    for (std::size_t u : units) {
      time += end_ns(seq_.units[u].key) - begin_ns(seq_.units[u].first);
    }
    double cpu = 0;
    double ins = 0;
    for (std::size_t s = 0; s < phase.slots.size(); ++s) {
      const TokenUnit& unit = seq_.units[units[s]];
      const core::Event& e = trace_.events[unit.key];
      SlotStats& slot = phase.slots[s];
      const double unit_cpu_ns = unit_cpu(unit);
      slot.cpu_ns.add(unit_cpu_ns);
      slot.burst_ns.add(static_cast<double>(e.t_start - begin_ns(unit.first)));
      slot.call_ns.add(static_cast<double>(e.t_end - e.t_start));
      slot.bytes.add(static_cast<double>(e.bytes));
      slot.rbytes.add(static_cast<double>(e.rbytes));
      cpu += unit_cpu_ns;
      if (counts_instructions()) {
        const double unit_ins = unit_instructions(unit);
        slot.instructions.add(unit_ins);
        ins += unit_ins;
      }
    }
    if (phase.weight == 0) phase.completes = completions(units);
    ++phase.weight;
    phase.total_ns += time;
    phase.time_ns.add(static_cast<double>(time));
    phase.cpu_ns.add(cpu);
    if (counts_instructions()) phase.instructions.add(ins);
  }

  // Per unit of a repetition, the units of it whose requests it completes.
  std::vector<std::vector<std::int32_t>> completions(const std::vector<std::size_t>& units) const {
    std::unordered_map<std::int64_t, std::int32_t> posted_at;
    std::vector<std::vector<std::int32_t>> completes(units.size());
    for (std::size_t s = 0; s < units.size(); ++s) {
      const TokenUnit& unit = seq_.units[units[s]];
      const core::Event& e = trace_.events[unit.key];
      if (core::op_kind(e.op) == core::OpKind::Completion) {
        for (const core::RequestRecord& r : e.requests) {
          const auto it = posted_at.find(r.req);
          if (it != posted_at.end()) completes[s].push_back(it->second);
        }
      }
      for (std::int64_t id : posted_requests(e)) posted_at[id] = static_cast<std::int32_t>(s);
    }
    return completes;
  }

  RankPhases summarise() {
    RankPhases out;
    out.rank = trace_.rank;
    out.nprocs = trace_.nprocs;
    out.events = static_cast<std::int64_t>(trace_.events.size());
    out.run_ns = trace_.events.empty() ? 0 : end_ns(trace_.events.size() - 1);
    out.instructions = counts_instructions();
    out.end = trace_.end;
    out.comms = shapes_.shapes();
    std::vector<std::size_t> by_first(phases_.size());
    std::iota(by_first.begin(), by_first.end(), 0);
    std::stable_sort(by_first.begin(), by_first.end(), [&](std::size_t a, std::size_t b) {
      return phases_[a].first_event < phases_[b].first_event;
    });
    std::vector<std::int32_t> kept_as(phases_.size(), -1);
    for (std::size_t k : by_first) {
      RankPhase& phase = phases_[k];
      // The sizes a phase stands for are the mean over its repetitions; their range stays in
      // the slot statistics.
      for (std::size_t s = 0; s < phase.events.size(); ++s) {
        phase.events[s].bytes = std::llround(phase.slots[s].bytes.mean());
        phase.events[s].rbytes = std::llround(phase.slots[s].rbytes.mean());
      }
      ++out.phase_count;
      kept_as[k] = static_cast<std::int32_t>(out.phases.size());
      out.phases.push_back(std::move(phase));
    }
    for (PhaseStretch& stretch : stretches_) {
      stretch.phase = kept_as[static_cast<std::size_t>(stretch.phase)];
    }
    out.stretches = std::move(stretches_);
    out.dims_created = trace_.dims_created;
    keep_relevant(out, options_.threshold);
    return out;
  }

  const core::RankTrace& trace_;
  const PhaseOptions& options_;
  CommShapes shapes_;
  int instruction_slot_ = -1;
  TokenSequence seq_;
  std::vector<RankPhase> phases_;
  // The phase of every repetition, in trace order, and the runs of them.
  std::vector<std::size_t> repetition_phase_;
  std::vector<PhaseStretch> stretches_;
};

}  // namespace

void keep_relevant(RankPhases& rank, double threshold) {
  const double relevant_ns = threshold * static_cast<double>(rank.run_ns);
  std::vector<std::int32_t> kept_as(rank.phases.size(), -1);
  std::vector<RankPhase> kept;
  for (std::size_t k = 0; k < rank.phases.size(); ++k) {
    RankPhase& phase = rank.phases[k];
    if (static_cast<double>(phase.total_ns) >= relevant_ns) {
      kept_as[k] = static_cast<std::int32_t>(kept.size());
      kept.push_back(std::move(phase));
    } else {
      rank.other_events += phase.weight * static_cast<std::int64_t>(phase.slots.size());
      rank.other_ns += phase.total_ns;
    }
  }
  for (PhaseStretch& stretch : rank.stretches) {
    if (stretch.phase >= 0) stretch.phase = kept_as[static_cast<std::size_t>(stretch.phase)];
  }
  rank.phases = std::move(kept);
}

RankPhases detect_phases(const core::RankTrace& trace, const PhaseOptions& options,
                         ExtractionRecord* record) {
  return RankAnalysis(trace, options).run(record);
}

}  // namespace p3s::signature
