#pragma once
// The Scalable Logical Trace (SLT): what `p3s model` learns from runs at a few n and
// `p3s generate` instantiates at any N. Everything is a rule or a fit in n, with its quality;
// the compute model is the only machine-dependent part and is kept apart, in Slt::compute
// (format in core/FORMATS.md, "Scalable Logical Trace").
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/op.hpp"
#include "core/run_dir.hpp"
#include "model/communicator_rule.hpp"
#include "model/scaling_fit.hpp"
#include "model/scaling_model_search.hpp"
#include "model/slot_sequence.hpp"

namespace p3s::model {

inline constexpr std::string_view kSltFormat = "p3s-slt 5";

// One communication (or collective, or completion) of a phase: a slot every rank has, absent
// on the ranks whose peer rule says kNoPeer (border ranks: null communications).
struct SlotModel {
  core::Op op = core::Op::Barrier;
  std::int32_t tag = -1;
  std::int32_t rtag = -1;
  // In a block, the tags of repetition s are tag + s tag_step (a pipeline stage's tag naming its
  // cell); 0 elsewhere.
  std::int32_t tag_step = 0;
  std::int32_t rtag_step = 0;
  bool sends = false;     // has a destination
  bool receives = false;  // has a source
  bool rooted = false;
  std::optional<ScalingFit> bytes;   // send side / contribution, bytes per rank in n
  std::optional<ScalingFit> rbytes;  // receive side
  // Data-dependent sizes: the largest half-range over the ranks and repetitions of a training
  // run, relative to the mean the fit is of (0 when every message had the same size).
  double bytes_spread = 0;
  double rbytes_spread = 0;
  // The fits are of bytes per member of the collective's communicator (an alltoall, a gather's
  // root side: core::bytes_per_member), multiplied by its size at N.
  bool bytes_per_member = false;
  bool rbytes_per_member = false;
  // A collective on a sub-communicator: which ranks it holds, and the root's place among them.
  std::optional<CommunicatorRule> comm;
  std::optional<IntegerFormula> comm_root;
  // A completion's posting slots: it completes the requests those slots posted in the
  // repetition, a wait only where its slot posted one (a border rank's missing irecv takes its
  // wait with it). Empty where the alignment does not say: a completion of one request then
  // takes the oldest pending one, a waitall all of them.
  std::vector<std::int32_t> completes;
  // A waitall made only where one of its slots posted a request (`if (nreq) MPI_Waitall`);
  // false when every rank makes it, even with nothing to complete.
  bool needs_request = false;
  // A waitall made only where the rank makes one of these post slots, which follow it up to the
  // next completion: a pipeline's wait for the last step's sends, made before sending again
  // (`if (down >= 0) { MPI_Waitall; ...; MPI_Isend }`). Empty for the others.
  std::vector<std::int32_t> guards;
};

// The order each rank performs its slots in: variants[r mod modulus] lists slot indices; a
// rank skips the slots it has no peer in. One variant when every rank uses the same order
// (a ring's even and odd ranks need two).
struct SlotOrder {
  std::int64_t modulus = 1;
  std::vector<std::vector<std::int32_t>> variants;
};

// A pattern that no rule explains: the largest run's events, rank by rank, carried to N only
// with --carry-nearest (tiled in blocks of `n` ranks, peers as offsets within the block).
struct CarriedRankEvent {
  core::Op op = core::Op::Barrier;
  std::int32_t dst = -1;  // offset (peer - rank) mod n, or -1
  std::int32_t src = -1;
  std::int32_t root = -1;
  std::int32_t tag = -1;
  std::int32_t rtag = -1;
  std::int64_t bytes = 0;
  std::int64_t rbytes = 0;
  bool operator==(const CarriedRankEvent&) const = default;
};

struct CarriedPattern {
  std::int64_t n = 0;
  std::vector<std::vector<CarriedRankEvent>> ranks;
};

// A slot whose peers the training runs leave undecided on one side ("destination", "source",
// "root"): two rules reproduce them all and differ from n = undecided.differs_from on.
struct UndecidedRule {
  std::string side;
  UndecidedSlot undecided;
  bool operator==(const UndecidedRule&) const = default;
};

struct PhaseModel {
  std::int32_t index = 0;  // place among the application's phases, in logical order
  std::string name;
  std::string calls;                 // the calls of one repetition, in words
  std::vector<std::int64_t> runs_n;  // the training runs this phase appeared in
  std::vector<double> shares;        // parallel to runs_n: its share of that run's time
  std::vector<std::string> pairing;  // parallel to runs_n: why it is this phase in that run
  ScalingFit weight;
  bool pattern_modelled = false;
  std::string alignment;  // how ranks' events were matched to slots: position, offset, signed
  std::vector<std::string> failures;  // why the pattern is not modelled, naming ranks
  // What the training runs left undecided: rules that reproduce them all but differ beyond, in
  // words and slot by slot (instantiation refuses an N where they differ).
  std::vector<std::string> notes;
  std::vector<UndecidedRule> undecided;
  // The smallest n where a training run would decide every undecided slot (undecided_rules.hpp).
  std::optional<std::int64_t> settled_by;
  std::vector<SlotModel> slots;                // the slot templates (layout.templates of them)
  SlotLayout layout;                           // how the templates make the slots at n
  std::optional<SlotSequenceModel> dst_rules;  // a rule per template
  std::optional<SlotSequenceModel> src_rules;
  std::optional<SlotSequenceModel> root_rules;
  SlotOrder order;  // with a block, every rank makes its slots in order
  std::optional<CarriedPattern> carried;
};

// One point the computation regression model (CRM) was fitted to: a training run at n, or a
// measurable point, a run of a smaller workload at n_measured placed at the n where the
// original workload gives each rank the same work (or the same instructions).
struct ComputePoint {
  double n = 0;
  double cpu_ns = 0;  // mean (or largest, for a slowest group) over the group's ranks of a
                      // repetition's CPU time
  std::optional<double> instructions;  // the same in instructions, with counters
  std::int64_t n_measured = 0;
  std::optional<double> workload;  // declared size of the run's workload
  bool measurable = false;
  bool operator==(const ComputePoint&) const = default;
};

// An instruction group (IG): ranks whose compute in a phase is within 95 % of each other (001
// sec. 3.3), with its own CRM. A block of ranks, [first, end) as shares of n, and of those the
// ranks r with r mod modulus in `residues` (the heavy ranks of a pattern that repeats every few
// ranks). When the ranks differ by no such rule, the group stands for the slowest rank, which
// sets a synchronised phase's pace: every rank is given its compute.
struct InstructionGroup {
  double first = 0;
  double end = 1;
  std::int64_t modulus = 1;
  std::vector<std::int64_t> residues = {0};
  bool slowest = false;
  ScalingFit per_rank_ns;  // CPU ns of one repetition on one rank of the group, in n
  // The IPT's constant total: the group's instructions over all its ranks and repetitions;
  // absent without counters or when the total is not constant.
  std::optional<double> total_instructions;
  std::vector<ComputePoint> points;
  bool operator==(const InstructionGroup&) const = default;
};

struct PhaseCompute {
  // Cover the ranks: blocks in order, or the classes of one block.
  std::vector<InstructionGroup> groups;
  std::vector<double> slot_shares;  // share of a repetition's compute before each slot
  std::vector<std::string> notes;   // non-constant totals, CPI regime changes, dropped points
  bool operator==(const PhaseCompute&) const = default;
};

// The machine-dependent part of the SLT: how long each phase's compute takes on the machine
// the runs were made on. Parallel to Slt::phases.
struct MachineCompute {
  std::string machine;                         // host the compute was measured on
  std::string metric = "cpu_time";             // or "instructions": groups and points by counters
  std::optional<core::Workload> workload;      // the training runs' declared workload
  WorkScaling scaling = WorkScaling::Unknown;  // as declared to p3s model --scaling
  std::vector<PhaseCompute> phases;
  bool operator==(const MachineCompute&) const = default;
};

// How much of one training run the SLT explains: the share of the run's time (summed over its
// ranks) in phases whose pattern is modelled exactly, and what the rest is.
struct RunCoverage {
  std::int64_t n = 0;
  std::string run;      // the run directory
  double modelled = 0;  // share in exactly modelled phases
  struct Missing {
    std::string phase;  // "phase 3 (irecv, send, wait)" or a run phase's calls
    double share = 0;
    std::string why;  // not modelled, not relevant, only in this run...
    // The SLT phase it is (not modelled exactly), or nothing for a run phase the SLT does not
    // hold (related to no other run's, below the relevance threshold).
    std::optional<std::int32_t> slt_phase;
    bool relevant = true;  // false: below the relevance threshold, too small to model
    bool operator==(const Missing&) const = default;
  };
  std::vector<Missing> missing;  // largest share first
  bool operator==(const RunCoverage&) const = default;
};

struct Slt {
  std::string application;         // the traced command
  std::vector<std::int64_t> runs;  // training process counts
  std::optional<std::int64_t> holdout_n;
  std::vector<PhaseModel> phases;
  std::vector<std::string> notes;     // phases seen in only some runs, etc.
  std::vector<RunCoverage> coverage;  // per training run, in the order of `runs`
  MachineCompute compute;

  // The smallest modelled share over the training runs (1 with no runs).
  double least_coverage() const;
};

}  // namespace p3s::model
