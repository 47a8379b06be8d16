#include "signature/phase_detector.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <string_view>
#include <unordered_map>

#include "signature/comm_shapes.hpp"
#include "signature/phase_extraction.hpp"
#include "signature/repetition_units.hpp"
#include "signature/sequence_hash.hpp"
#include "signature/token_sequence.hpp"

namespace p3s::signature {
namespace {

constexpr std::string_view kInstructionCounter = "PAPI_TOT_INS";
// Added to both sizes before comparing them (see PhaseOptions::size_tolerance).
constexpr double kSizeSlack = 4096;

bool sizes_close(const RunningStats& sizes, double bytes, double tolerance) {
  if (sizes.count() == 0) return true;
  const double low = std::min(sizes.min(), bytes) + kSizeSlack;
  const double high = std::max(sizes.max(), bytes) + kSizeSlack;
  return high <= (1 + tolerance) * low;
}

class RankAnalysis {
 public:
  RankAnalysis(const core::RankTrace& trace, const PhaseOptions& options)
      : trace_(trace), options_(options), shapes_(trace) {
    const auto& names = trace.counter_names;
    auto it = std::find(names.begin(), names.end(), kInstructionCounter);
    if (it != names.end()) instruction_slot_ = static_cast<int>(it - names.begin());
  }

  RankPhases run() {
    seq_ = tokenize(trace_, shapes_);
    const std::vector<Segment> segments = extract_segments(seq_, trace_, options_.repeats);
    for (const auto& repetitions : repetition_units(segments, seq_, trace_)) {
      for (const std::vector<std::size_t>& units : repetitions) {
        std::vector<std::uint32_t> body;
        body.reserve(units.size());
        for (std::size_t u : units) body.push_back(seq_.ids[u]);
        std::vector<std::size_t>& variants = by_body_[body];
        const std::size_t index = phase_for(variants, units);
        add_repetition(phases_[index], units);
        repetition_phase_.push_back(index);
      }
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

  // The repetition made of `units` fits the phase when every call's sizes are close to the
  // ones the phase has seen.
  bool fits(const RankPhase& phase, const std::vector<std::size_t>& units) const {
    for (std::size_t s = 0; s < phase.slots.size(); ++s) {
      const core::Event& e = trace_.events[seq_.units[units[s]].key];
      if (!sizes_close(phase.slots[s].bytes, static_cast<double>(e.bytes),
                       options_.size_tolerance) ||
          !sizes_close(phase.slots[s].rbytes, static_cast<double>(e.rbytes),
                       options_.size_tolerance)) {
        return false;
      }
    }
    return true;
  }

  // The phase among this body's variants (same calls, other sizes) the repetition made of
  // `units` fits, or a new one.
  std::size_t phase_for(std::vector<std::size_t>& variants, const std::vector<std::size_t>& units) {
    for (std::size_t index : variants) {
      if (fits(phases_[index], units)) return index;
    }
    RankPhase phase;
    phase.first_event = seq_.units[*std::min_element(units.begin(), units.end())].first;
    phase.slots.resize(units.size());
    for (std::size_t u : units) phase.events.push_back(seq_.tokens[seq_.ids[u]]);
    phases_.push_back(std::move(phase));
    variants.push_back(phases_.size() - 1);
    return phases_.size() - 1;
  }

  // A stretch is a run of consecutive repetitions of one phase.
  void count_occurrences() {
    std::size_t previous = static_cast<std::size_t>(-1);
    for (std::size_t phase : repetition_phase_) {
      if (phase != previous) ++phases_[phase].occurrences;
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
    ++phase.weight;
    phase.total_ns += time;
    phase.time_ns.add(static_cast<double>(time));
    phase.cpu_ns.add(cpu);
    if (counts_instructions()) phase.instructions.add(ins);
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
    const double relevant_ns = options_.threshold * static_cast<double>(out.run_ns);
    std::stable_sort(phases_.begin(), phases_.end(), [](const RankPhase& a, const RankPhase& b) {
      return a.first_event < b.first_event;
    });
    for (RankPhase& phase : phases_) {
      // The sizes a phase stands for are the mean over its repetitions; their range stays in
      // the slot statistics.
      for (std::size_t s = 0; s < phase.events.size(); ++s) {
        phase.events[s].bytes = std::llround(phase.slots[s].bytes.mean());
        phase.events[s].rbytes = std::llround(phase.slots[s].rbytes.mean());
      }
      ++out.phase_count;
      if (static_cast<double>(phase.total_ns) >= relevant_ns) {
        out.phases.push_back(std::move(phase));
      } else {
        out.other_events += phase.weight * static_cast<std::int64_t>(phase.slots.size());
        out.other_ns += phase.total_ns;
      }
    }
    return out;
  }

  const core::RankTrace& trace_;
  const PhaseOptions& options_;
  CommShapes shapes_;
  int instruction_slot_ = -1;
  TokenSequence seq_;
  std::vector<RankPhase> phases_;
  // The phase of every repetition, in trace order.
  std::vector<std::size_t> repetition_phase_;
  // Indexes into phases_ of the variants of each body (structure of one repetition).
  std::unordered_map<std::vector<std::uint32_t>, std::vector<std::size_t>, SequenceHash> by_body_;
};

}  // namespace

RankPhases detect_phases(const core::RankTrace& trace, const PhaseOptions& options) {
  return RankAnalysis(trace, options).run();
}

}  // namespace p3s::signature
