#include "signature/phase_detector.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <span>
#include <string_view>
#include <unordered_map>

#include "signature/comm_shapes.hpp"
#include "signature/sequence_hash.hpp"
#include "signature/token_sequence.hpp"

namespace p3s::signature {
namespace {

// Compute differences below these never split a phase. For CPU time: about what timer
// resolution, page faults and cache refills add to one burst. For instructions: what a core
// retires in about that time.
constexpr double kCpuFloorNs = 20'000;
constexpr double kInstructionFloor = 50'000;
// Nor do differences below this share of the phase's repetition (wall time for CPU time,
// instructions for instructions): they change the phase's time too little to matter for a
// prediction, and on an oversubscribed node CPU time alone varies by that much.
constexpr double kPhaseFloorShare = 0.05;

// A variant of a phase (same events, other compute) with fewer repetitions than this share of
// all repetitions of those events is taken for noise (a slow iteration, a page-fault storm)
// and joins the variant closest in compute: it is too rare to be a phase of its own, and
// splitting it off would only take weight from the real one.
constexpr double kRareVariantShare = 0.05;

constexpr std::string_view kInstructionCounter = "PAPI_TOT_INS";

class RankAnalysis {
 public:
  RankAnalysis(const core::RankTrace& trace, const PhaseOptions& options)
      : trace_(trace), options_(options), shapes_(trace) {
    const auto& names = trace.counter_names;
    auto it = std::find(names.begin(), names.end(), kInstructionCounter);
    if (it != names.end()) instruction_slot_ = static_cast<int>(it - names.begin());
  }

  RankPhases run() {
    const TokenSequence seq = tokenize(trace_, shapes_);
    for (const Repeat& repeat : find_repeats(seq.ids, options_.repeats)) {
      auto body = std::span(seq.ids).subspan(repeat.first, repeat.length);
      std::vector<std::size_t>& variants = by_body_[{body.begin(), body.end()}];
      for (std::size_t k = 0; k < repeat.repeats; ++k) {
        const std::size_t first = repeat.first + k * repeat.length;
        const std::size_t index = phase_for(variants, seq, first, repeat.length);
        add_repetition(phases_[index], first);
        repetition_phase_.push_back(index);
      }
    }
    absorbed_into_.resize(phases_.size());
    for (std::size_t i = 0; i < phases_.size(); ++i) absorbed_into_[i] = i;
    for (auto& [body, variants] : by_body_) absorb_rare_variants(variants);
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

  std::int64_t begin_ns(std::size_t first) const { return first == 0 ? 0 : end_ns(first - 1); }

  double instructions(std::size_t i) const {
    return static_cast<double>(
        std::max<std::int64_t>(0, trace_.events[i].counters[instruction_slot_]));
  }

  // The compute the similarity test compares: instructions when counted, else CPU time.
  double compute(std::size_t i) const {
    return counts_instructions() ? instructions(i)
                                 : static_cast<double>(trace_.events[i].burst_cpu);
  }

  double compute_mean(const SlotStats& slot) const {
    return counts_instructions() ? slot.instructions.mean() : slot.cpu_ns.mean();
  }

  bool similar(const RankPhase& phase, std::size_t first) const {
    const double floor =
        counts_instructions()
            ? std::max(kInstructionFloor, kPhaseFloorShare * phase.instructions.mean())
            : std::max(kCpuFloorNs, kPhaseFloorShare * phase.time_ns.mean());
    const double tolerance = 1.0 - options_.similarity;
    for (std::size_t s = 0; s < phase.slots.size(); ++s) {
      const double x = compute(first + s);
      const double mean = compute_mean(phase.slots[s]);
      const double diff = std::abs(x - mean);
      if (diff > floor && diff > tolerance * std::max(x, mean)) return false;
    }
    return true;
  }

  // The phase among this body's variants whose compute the repetition at `first` matches,
  // or a new one.
  std::size_t phase_for(std::vector<std::size_t>& variants, const TokenSequence& seq,
                        std::size_t first, std::size_t length) {
    for (std::size_t index : variants) {
      if (similar(phases_[index], first)) return index;
    }
    RankPhase phase;
    phase.first_event = first;
    phase.slots.resize(length);
    for (std::size_t s = 0; s < length; ++s) phase.events.push_back(seq.tokens[seq.ids[first + s]]);
    phases_.push_back(std::move(phase));
    variants.push_back(phases_.size() - 1);
    return phases_.size() - 1;
  }

  double compute_mean(const RankPhase& phase) const {
    return counts_instructions() ? phase.instructions.mean() : phase.cpu_ns.mean();
  }

  void absorb_rare_variants(const std::vector<std::size_t>& variants) {
    std::int64_t repetitions = 0;
    for (std::size_t v : variants) repetitions += phases_[v].weight;
    auto rare = [&](std::size_t v) {
      return static_cast<double>(phases_[v].weight) <
             kRareVariantShare * static_cast<double>(repetitions);
    };
    std::vector<std::size_t> common;
    std::copy_if(variants.begin(), variants.end(), std::back_inserter(common),
                 [&](std::size_t v) { return !rare(v); });
    if (common.empty() || common.size() == variants.size()) return;
    for (std::size_t v : variants) {
      if (!rare(v)) continue;
      const double compute = compute_mean(phases_[v]);
      const std::size_t closest =
          *std::min_element(common.begin(), common.end(), [&](std::size_t a, std::size_t b) {
            return std::abs(compute_mean(phases_[a]) - compute) <
                   std::abs(compute_mean(phases_[b]) - compute);
          });
      absorb(phases_[closest], phases_[v]);
      absorbed_into_[v] = closest;
    }
  }

  // A stretch is a run of consecutive repetitions of one phase, counted once variants have
  // been absorbed (a slow first iteration does not start a second stretch of its loop).
  void count_occurrences() {
    std::size_t previous = std::numeric_limits<std::size_t>::max();
    for (std::size_t index : repetition_phase_) {
      const std::size_t phase = absorbed_into_[index];
      if (phase != previous) ++phases_[phase].occurrences;
      previous = phase;
    }
  }

  // Moves every repetition of `from` into `into`; `from` is left with weight 0.
  static void absorb(RankPhase& into, RankPhase& from) {
    for (std::size_t s = 0; s < into.slots.size(); ++s) {
      into.slots[s].cpu_ns.merge(from.slots[s].cpu_ns);
      into.slots[s].instructions.merge(from.slots[s].instructions);
      into.slots[s].burst_ns.merge(from.slots[s].burst_ns);
      into.slots[s].call_ns.merge(from.slots[s].call_ns);
    }
    into.weight += from.weight;
    into.first_event = std::min(into.first_event, from.first_event);
    into.time_ns.merge(from.time_ns);
    into.cpu_ns.merge(from.cpu_ns);
    into.instructions.merge(from.instructions);
    into.total_ns += from.total_ns;
    from.weight = 0;
  }

  void add_repetition(RankPhase& phase, std::size_t first) {
    const std::size_t last = first + phase.slots.size() - 1;
    const std::int64_t time = end_ns(last) - begin_ns(first);
    double cpu = 0;
    double ins = 0;
    for (std::size_t s = 0; s < phase.slots.size(); ++s) {
      const std::size_t i = first + s;
      const core::Event& e = trace_.events[i];
      SlotStats& slot = phase.slots[s];
      slot.cpu_ns.add(static_cast<double>(e.burst_cpu));
      slot.burst_ns.add(static_cast<double>(trace_.burst_wall(i)));
      slot.call_ns.add(static_cast<double>(e.t_end - e.t_start));
      cpu += static_cast<double>(e.burst_cpu);
      if (counts_instructions()) {
        slot.instructions.add(instructions(i));
        ins += instructions(i);
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
    // Phases were created in order of their first repetition, but a variant absorbed into a
    // later one moves that one's start earlier.
    std::stable_sort(phases_.begin(), phases_.end(), [](const RankPhase& a, const RankPhase& b) {
      return a.first_event < b.first_event;
    });
    for (RankPhase& phase : phases_) {
      if (phase.weight == 0) continue;  // absorbed
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
  std::vector<RankPhase> phases_;
  // The phase of every repetition, in trace order, and where each phase went when absorbed.
  std::vector<std::size_t> repetition_phase_;
  std::vector<std::size_t> absorbed_into_;
  // Indexes into phases_ of the variants of each body (token sequence of one repetition).
  std::unordered_map<std::vector<std::uint32_t>, std::vector<std::size_t>, SequenceHash> by_body_;
};

}  // namespace

RankPhases detect_phases(const core::RankTrace& trace, const PhaseOptions& options) {
  return RankAnalysis(trace, options).run();
}

}  // namespace p3s::signature
