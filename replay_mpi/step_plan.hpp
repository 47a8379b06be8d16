#pragma once
// How the Synthetic Signature covers an ST4NP of N ranks with M measurable processes (001 sec.
// 4.1-4.2): per phase, steps that each load M ranks (the RangesST), until every measurement unit
// of every event of every rank has been measured exactly once. A unit (event_peers.hpp) is
// measured in the first step that loads its rank and its peers, so its time comes from real
// messages; in every other step that loads its rank the event is executed, against a black hole
// when its peer is not loaded. One black hole per measurable process with an external
// communication (eq. 5).
#include <cstdint>
#include <vector>

#include "core/rank_mapping.hpp"
#include "core/scaled_trace.hpp"

namespace p3s::replay {

struct PlanOptions {
  int measurable = 1;  // M: ranks loaded per step
  // The application's placement at N: which ranks share a node.
  std::int64_t ranks_per_node = 1;
  core::Mapping mapping = core::Mapping::Block;
  // Keeping that placement on the measurable processes: at most `node_slots` loaded ranks of
  // one application node, at most `nodes` application nodes per step; slot i of a step is
  // measurable process i, and the ranks of its g-th node take slots g*node_slots onwards.
  // 0 = not kept (any rank in any slot, filled in order).
  int nodes = 0;
  int node_slots = 0;
  std::vector<int> phases;  // phases to plan, in order (empty: all)
};

struct PlannedStep {
  int phase = 0;
  // ranks[i]: the rank measurable process i plays, -1 when it plays none (it still joins the
  // collectives).
  std::vector<std::int32_t> ranks;
  // measured[i]: the units of ranks[i] measured here, numbered over one repetition's calls in
  // order (event_units of call 0 first).
  std::vector<std::vector<std::uint32_t>> measured;
  // black_hole[i]: the black hole (0..) that answers slot i's messages to ranks not loaded, -1
  // when it has none (no external communication).
  std::vector<std::int32_t> black_hole;
  int black_holes = 0;  // eq. 5 for this step
};

struct PhaseTraffic {
  // Point-to-point messages of one repetition at N whose ends are on different nodes of the
  // application's placement (each counted at its sender), and their mean size.
  std::int64_t network_messages = 0;
  double mean_bytes = 0;
};

struct Plan {
  int measurable = 0;
  int black_holes = 0;                // the most any step needs
  std::vector<PlannedStep> steps;     // phase by phase, in the order asked
  std::vector<PhaseTraffic> traffic;  // per phase of the trace
};

// Repetitions a step plays before it measures: one, to warm the machine up; with black holes,
// as many as the step loads ranks (at most 16). The ranks a step loads then form chains whose
// ends the black holes feed, and what differs there as the step starts (a message that is
// there at once) crosses one rank per repetition until the chain settles into the pace the
// application keeps.
int warmup_repetitions(const PlannedStep& step);

// Throws std::invalid_argument naming the phase, rank and event when an event depends on more
// ranks than a step can load (R too small), or the placement cannot be kept.
Plan plan_steps(const core::ScaledTrace& trace, const PlanOptions& options);

// The plan as integers and back, for broadcasting it from the process that made it.
std::vector<std::int64_t> encode_plan(const Plan& plan);
Plan decode_plan(const std::vector<std::int64_t>& data);

}  // namespace p3s::replay
