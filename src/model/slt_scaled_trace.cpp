#include "model/slt_scaled_trace.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "model/instruction_groups.hpp"

namespace p3s::model {
namespace {

std::int64_t bytes_at(const std::optional<ScalingFit>& fit, int n) {
  if (!fit) return 0;
  return std::max<std::int64_t>(0, std::llround(fit->at(n)));
}

bool point_to_point(core::Op op) {
  return core::op_kind(op) == core::OpKind::PointToPoint;
}

PeerMap map_of(const std::optional<SlotSequenceModel>& rules, bool used, int n,
               const SlotLayout::Place& at) {
  if (!rules || !used) return [](std::int64_t) { return kNoPeer; };
  return rules->rules.at(static_cast<std::size_t>(at.template_index)).at(n, at.s);
}

}  // namespace

double SltScaledTrace::InstantiatedPhase::compute_ns(int rank) const {
  for (const GroupCompute& g : groups) {
    if (rank < g.first || rank >= g.end) continue;
    if (std::find(g.residues.begin(), g.residues.end(), rank % g.modulus) != g.residues.end()) {
      return g.ns;
    }
  }
  return 0;
}

SltScaledTrace::SltScaledTrace(const Slt& slt, int nprocs, const InstantiateOptions& options)
    : nprocs_(nprocs) {
  if (nprocs < 1) throw std::domain_error("the process count must be at least 1");
  for (std::size_t k = 0; k < slt.phases.size(); ++k) {
    const PhaseModel& phase = slt.phases[k];
    try {
      InstantiatedPhase inst = instantiate(slt, k, options);
      phases_.push_back({phase.name, std::max(0.0, std::round(phase.weight.at(nprocs)))});
      instantiated_.push_back(std::move(inst));
    } catch (const std::domain_error& e) {
      if (!options.omit_unavailable) throw;
      omitted_.push_back({phase.name, e.what()});
    }
  }
}

SltScaledTrace::InstantiatedPhase SltScaledTrace::instantiate(const Slt& slt, std::size_t k,
                                                              const InstantiateOptions& options) {
  const int nprocs = nprocs_;
  const PhaseModel& phase = slt.phases[k];
  InstantiatedPhase inst;
  inst.model = &phase;
  if (k < slt.compute.phases.size()) {
    const PhaseCompute& compute = slt.compute.phases[k];
    for (const InstructionGroup& g : compute.groups) {
      const auto [first, end] = group_ranks(g.first, g.end, nprocs);
      inst.groups.push_back(
          {first, end, g.modulus, g.residues, std::max(0.0, g.per_rank_ns.at(nprocs))});
    }
    inst.slot_shares = compute.slot_shares;
  }
  if (!phase.pattern_modelled) {
    if (!options.carry_nearest || !phase.carried) {
      throw std::domain_error(fmt::format(
          "{}: its communication pattern is not modelled ({}); generate refuses N = {} "
          "(--carry-nearest tiles the largest run's pattern instead)",
          phase.name, phase.failures.empty() ? "no rule" : phase.failures.front(), nprocs));
    }
    if (nprocs % phase.carried->n != 0) {
      throw std::domain_error(
          fmt::format("{}: carrying the pattern of n = {} needs N a "
                      "multiple of {}",
                      phase.name, phase.carried->n, phase.carried->n));
    }
    warnings_.push_back(
        fmt::format("{}: NOT MODELLED -- the pattern measured at n = {} is "
                    "carried to N = {} by tiling; its peers are a guess",
                    phase.name, phase.carried->n, nprocs));
    return inst;
  }
  try {
    const std::optional<std::int64_t> count = phase.layout.slots_at(nprocs);
    if (!count) {
      throw std::domain_error(
          fmt::format("its repeated block of calls ({} times) is undefined "
                      "at N = {}",
                      phase.layout.block->count.text(), nprocs));
    }
    for (std::int64_t slot_index = 0; slot_index < *count; ++slot_index) {
      const SlotLayout::Place at = phase.layout.place(slot_index, nprocs);
      const SlotModel& model = phase.slots.at(static_cast<std::size_t>(at.template_index));
      InstantiatedSlot slot;
      slot.model = &model;
      slot.dst = map_of(phase.dst_rules, model.sends, nprocs, at);
      slot.src = map_of(phase.src_rules, model.receives, nprocs, at);
      slot.root = map_of(phase.root_rules, model.rooted, nprocs, at);
      // A rooted collective whose root rule leaves 0..N-1 at N has no root to replay.
      if (model.rooted && (slot.root(0) == kNoPeer || slot.root(nprocs - 1) == kNoPeer)) {
        throw std::domain_error(fmt::format("slot {} ({}): its root is outside 0..{} at N = {}",
                                            slot_index, core::op_name(model.op), nprocs - 1,
                                            nprocs));
      }
      slot.bytes = bytes_at(model.bytes, nprocs);
      slot.rbytes = bytes_at(model.rbytes, nprocs);
      inst.slots.push_back(std::move(slot));
    }
  } catch (const std::domain_error& e) {
    throw std::domain_error(fmt::format("{}: {}", phase.name, e.what()));
  }
  // Slots without a share of their own (a growing phase's) share the repetition equally.
  if (!inst.slots.empty()) {
    inst.slot_shares.resize(inst.slots.size(), 1.0 / static_cast<double>(inst.slots.size()));
  }
  if (phase.layout.block) {
    inst.growing_order.resize(inst.slots.size());
    std::iota(inst.growing_order.begin(), inst.growing_order.end(), 0);
  }
  return inst;
}

void SltScaledTrace::phase_events(int phase, int rank, std::vector<core::Event>& out) const {
  const InstantiatedPhase& inst = instantiated_.at(static_cast<std::size_t>(phase));
  if (!inst.model->pattern_modelled) {
    carried_events(inst, rank, out);
    return;
  }
  const PhaseModel& model = *inst.model;
  const std::vector<std::int32_t>& sequence =
      model.layout.block
          ? inst.growing_order
          : model.order.variants[static_cast<std::size_t>(rank % model.order.modulus)];
  // Requests are numbered per repetition; a wait completes the oldest pending one, a waitall
  // all of them, as the phases' bodies did in the runs.
  std::vector<core::RequestRecord> pending;
  std::int64_t next_request = 0;
  const double compute = inst.compute_ns(rank);
  // Compute before a null communication (a border rank's missing neighbour) goes before the
  // next call the rank makes, or before its first one if none follows, so the repetition's
  // compute is kept whole.
  double unplaced = 0;
  const std::size_t first_out = out.size();
  for (std::int32_t s : sequence) {
    // The SLT reader checks slot orders; a model built otherwise must not read past its slots.
    if (s < 0 || static_cast<std::size_t>(s) >= inst.slots.size()) {
      throw std::out_of_range(
          fmt::format("{}: its slot order names slot {}, which does not exist", model.name, s));
    }
    const InstantiatedSlot& slot = inst.slots[static_cast<std::size_t>(s)];
    const SlotModel& m = *slot.model;
    core::Event e;
    e.op = m.op;
    unplaced += compute * inst.slot_shares[static_cast<std::size_t>(s)];
    if (m.sends) e.dst = static_cast<std::int32_t>(slot.dst(rank));
    if (m.receives) e.src = static_cast<std::int32_t>(slot.src(rank));
    if (point_to_point(m.op) && e.dst == core::kNone && e.src == core::kNone) continue;
    e.burst_cpu = std::llround(unplaced);
    unplaced = 0;
    if (m.rooted) e.root = static_cast<std::int32_t>(slot.root(rank));
    if (e.dst != core::kNone || !point_to_point(m.op)) {
      e.tag = m.tag;
      e.bytes = slot.bytes;
    }
    if (e.src != core::kNone || !point_to_point(m.op)) {
      e.rtag = m.rtag;
      e.rbytes = slot.rbytes;
    }
    if (core::is_nonblocking(m.op) && point_to_point(m.op)) {
      e.req = next_request++;
      const bool send = e.dst != core::kNone;
      pending.push_back(
          {e.req, send, send ? e.dst : e.src, send ? e.tag : e.rtag, send ? e.bytes : e.rbytes});
    } else if (m.op == core::Op::Wait && !pending.empty()) {
      e.requests = {pending.front()};
      pending.erase(pending.begin());
    } else if (m.op == core::Op::Waitall) {
      e.requests = std::move(pending);
      pending.clear();
    }
    out.push_back(std::move(e));
  }
  if (unplaced > 0 && out.size() > first_out) out[first_out].burst_cpu += std::llround(unplaced);
}

void SltScaledTrace::carried_events(const InstantiatedPhase& inst, int rank,
                                    std::vector<core::Event>& out) const {
  const CarriedPattern& carried = *inst.model->carried;
  const std::int64_t block = rank / carried.n * carried.n;
  const auto& events = carried.ranks[static_cast<std::size_t>(rank % carried.n)];
  auto peer = [&](std::int32_t relative) {
    if (relative < 0) return relative;
    return static_cast<std::int32_t>(block + (rank - block + relative) % carried.n);
  };
  const std::int64_t burst = std::llround(
      inst.compute_ns(rank) / static_cast<double>(std::max<std::size_t>(1, events.size())));
  for (const CarriedRankEvent& c : events) {
    core::Event e;
    e.op = c.op;
    e.burst_cpu = burst;
    e.dst = peer(c.dst);
    e.src = peer(c.src);
    e.root = peer(c.root);
    e.tag = c.tag;
    e.rtag = c.rtag;
    e.bytes = c.bytes;
    e.rbytes = c.rbytes;
    out.push_back(std::move(e));
  }
}

double SltScaledTrace::compute_ns(int phase, int rank) const {
  return instantiated_.at(static_cast<std::size_t>(phase)).compute_ns(rank);
}

std::vector<core::Communicator> SltScaledTrace::communicators(int) const {
  core::Communicator world;
  world.members.resize(static_cast<std::size_t>(nprocs_));
  std::iota(world.members.begin(), world.members.end(), 0);
  return {world};
}

}  // namespace p3s::model
