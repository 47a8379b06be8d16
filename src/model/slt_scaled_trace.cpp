#include "model/slt_scaled_trace.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "model/instruction_groups.hpp"
#include "model/undecided_rules.hpp"

namespace p3s::model {
namespace {

// The fit's value at n. A fit that has gone negative there is refused, not clamped: the form
// was extrapolated past zero and says nothing. One that has turned back (it grew, now it
// shrinks) is used, with a warning naming where it stopped being trusted.
double extrapolated(const ScalingFit& fit, int n, std::string_view what,
                    std::vector<std::string>& warnings) {
  const double value = fit.at(n);
  if (!std::isfinite(value) || value < 0) {
    throw std::domain_error(fmt::format(
        "its {} ({}) is {:.4g} at N = {}: the fit goes negative beyond the training runs and is "
        "not extrapolated",
        what, fit.equation(), value, n));
  }
  if (!fit.trusted_at(n)) {
    warnings.push_back(fmt::format(
        "{} ({}) changes direction beyond n = {:.0f}: its value at N = {} ({:.4g}) is an "
        "extrapolation past that turn",
        what, fit.equation(), *fit.quality.trusted_up_to, n, value));
  }
  return value;
}

std::int64_t bytes_at(const std::optional<ScalingFit>& fit, int n, std::string_view what,
                      std::vector<std::string>& warnings) {
  if (!fit) return 0;
  const double value = extrapolated(*fit, n, what, warnings);
  const std::int64_t bytes = std::llround(value);
  // A message the model has but that carries under half a byte is no message MPI can send.
  if (value > 0 && bytes == 0) {
    throw std::domain_error(fmt::format(
        "{}: {} = {:.3g} at N = {}: less than one byte per rank, which MPI cannot send (the fit "
        "is extrapolated past what it can mean)",
        what, fit->equation(), value, n));
  }
  return bytes;
}

bool gathers(core::Op op) {
  using core::Op;
  return op == Op::Gather || op == Op::Gatherv || op == Op::Igather || op == Op::Igatherv;
}

bool scatters(core::Op op) {
  using core::Op;
  return op == Op::Scatter || op == Op::Scatterv || op == Op::Iscatter || op == Op::Iscatterv;
}

PeerMap map_of(const std::optional<SlotSequenceModel>& rules, bool used, int n,
               const SlotLayout::Place& at) {
  if (!rules || !used) return [](std::int64_t) { return kNoPeer; };
  return rules->rules.at(static_cast<std::size_t>(at.template_index)).at(n, at.s);
}

// A phase whose pattern is not modelled is instantiated only by carrying the largest run's
// pattern, which tiles N in blocks of that run's size; throws std::domain_error otherwise.
void check_carried(const PhaseModel& phase, const InstantiateOptions& options, int nprocs) {
  if (!options.carry_nearest || !phase.carried) {
    throw std::domain_error(fmt::format(
        "{}: its communication pattern is not modelled ({}); generate refuses N = {} "
        "(--carry-nearest tiles the largest run's pattern instead)",
        phase.name, phase.failures.empty() ? "no rule" : phase.failures.front(), nprocs));
  }
  for (const auto& rank : phase.carried->ranks) {
    for (const CarriedRankEvent& e : rank) {
      if (e.src == core::kAnySource) {
        throw std::domain_error(fmt::format(
            "{}: its pattern, carried from n = {}, receives from any source where no run "
            "recorded which; it cannot be carried to N = {}",
            phase.name, phase.carried->n, nprocs));
      }
    }
  }
  if (nprocs % phase.carried->n != 0) {
    throw std::domain_error(
        fmt::format("{}: carrying the pattern of n = {} needs N a "
                    "multiple of {}",
                    phase.name, phase.carried->n, phase.carried->n));
  }
}

// The sides of a slot's event: tags and bytes where the rank sends or receives (a
// collective's both), bytes per member multiplied out over `members`.
// A slot's tags and bytes at N, at its repetition of its block.
struct Sides {
  std::int32_t tag = core::kNone;
  std::int32_t rtag = core::kNone;
  std::int64_t bytes = 0;
  std::int64_t rbytes = 0;
};

void add_sides(core::Event& e, const SlotModel& m, const Sides& sides, std::int64_t members,
               int rank) {
  if (e.dst != core::kNone || !core::is_point_to_point(m.op)) {
    e.tag = sides.tag;
    e.bytes = sides.bytes;
  }
  if (e.src != core::kNone || !core::is_point_to_point(m.op)) {
    e.rtag = sides.rtag;
    e.rbytes = sides.rbytes;
  }
  if (m.bytes_per_member) e.bytes *= members;
  if (m.rbytes_per_member) e.rbytes *= members;
  // A rooted collective's fit is the root's side; the other ranks' side of a gather or a
  // scatter is empty, as the tracer records it.
  if (m.rooted && e.root != rank) {
    if (gathers(m.op)) e.rbytes = 0;
    if (scatters(m.op)) e.bytes = 0;
  }
}

// Requests are numbered per repetition; a completion completes those its slot's model names,
// or else the oldest pending one (a wait) or all of them (a waitall), as the phases' bodies did
// in the runs (signature/repetition_units.hpp keeps each request in the repetition that
// completes it).
struct PendingRequests {
  std::vector<core::RequestRecord> pending;
  std::vector<std::int32_t> posted_by;  // the slot template that posted each pending request
  std::int64_t next = 0;

  // Numbers e's request (a non-blocking point-to-point call) and keeps it pending.
  void post(core::Event& e, std::int32_t slot) {
    e.req = next++;
    const bool send = e.dst != core::kNone;
    pending.push_back(
        {e.req, send, send ? e.dst : e.src, send ? e.tag : e.rtag, send ? e.bytes : e.rbytes});
    posted_by.push_back(slot);
  }

  // A wait completes the oldest pending request, a waitall all of them; false when a wait has
  // none to complete.
  bool complete_in_order(core::Event& e) {
    if (core::completes_one(e.op)) {
      if (pending.empty()) return false;
      complete(0, e);
    } else if (e.op == core::Op::Waitall) {
      while (!pending.empty()) complete(0, e);
    }
    return true;
  }

  void complete(std::size_t k, core::Event& e) {
    e.requests.push_back(pending[k]);
    pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(k));
    posted_by.erase(posted_by.begin() + static_cast<std::ptrdiff_t>(k));
  }

  // Completes the pending requests posted by the slots m names (the first one for a wait).
  void complete_named(const SlotModel& m, core::Event& e) {
    for (std::size_t k = 0; k < pending.size();) {
      if (std::find(m.completes.begin(), m.completes.end(), posted_by[k]) == m.completes.end()) {
        ++k;
        continue;
      }
      complete(k, e);
      if (core::completes_one(m.op)) return;
    }
  }
};

// Numbers e's request when it posts one, or gives it the requests it completes. False for a
// completion with nothing of its own to complete where the runs made none: a wait whose request
// was never posted, a waitall the rank skips without requests.
bool track_requests(core::Event& e, const SlotModel& m, std::int32_t slot,
                    PendingRequests& requests) {
  if (core::is_nonblocking(m.op) && core::is_point_to_point(m.op)) {
    requests.post(e, slot);
  } else if (!m.completes.empty()) {
    requests.complete_named(m, e);
    if (e.requests.empty() && (core::completes_one(m.op) || m.needs_request)) return false;
  } else {
    // The oldest pending one completes (for waitany and waitsome, which one came first in the
    // run), or all of them.
    return requests.complete_in_order(e);
  }
  return true;
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
      std::vector<std::string> notes;
      InstantiatedPhase inst = instantiate(slt, k, options);
      double weight = 0;
      try {
        weight = std::round(extrapolated(phase.weight, nprocs, "weight", notes));
      } catch (const std::domain_error& e) {
        throw std::domain_error(fmt::format("{}: {}", phase.name, e.what()));
      }
      for (const std::string& note : notes) warnings_.push_back(phase.name + ": " + note);
      phases_.push_back({phase.name, weight});
      instantiated_.push_back(std::move(inst));
    } catch (const std::domain_error& e) {
      if (!options.omit_unavailable) throw;
      omitted_.push_back({phase.name, e.what()});
    }
  }
}

std::vector<SltScaledTrace::GroupCompute> SltScaledTrace::group_computes(
    const PhaseCompute& compute, const PhaseModel& phase, std::vector<std::string>& notes) const {
  std::vector<GroupCompute> groups;
  groups.reserve(compute.groups.size());
  for (std::size_t j = 0; j < compute.groups.size(); ++j) {
    const InstructionGroup& g = compute.groups[j];
    const auto [first, end] = group_ranks(g.first, g.end, nprocs_);
    double ns = 0;
    try {
      ns = extrapolated(g.per_rank_ns, nprocs_,
                        fmt::format("compute per rank of instruction group {}", j), notes);
    } catch (const std::domain_error& e) {
      throw std::domain_error(fmt::format("{}: {}", phase.name, e.what()));
    }
    groups.push_back({first, end, g.modulus, g.residues, ns});
  }
  return groups;
}

std::vector<SltScaledTrace::InstantiatedSlot> SltScaledTrace::instantiate_slots(
    const PhaseModel& phase, std::vector<std::string>& notes) {
  const int nprocs = nprocs_;
  const std::optional<std::int64_t> count = phase.layout.slots_at(nprocs);
  if (!count) {
    std::vector<std::string> counts;
    for (const SlotBlock& block : phase.layout.blocks) counts.push_back(block.count.text());
    throw std::domain_error(
        fmt::format("its repeated blocks of calls ({} times) are undefined or negative at N = {}",
                    fmt::join(counts, ", "), nprocs));
  }
  std::vector<InstantiatedSlot> slots;
  for (std::int64_t slot_index = 0; slot_index < *count; ++slot_index) {
    const SlotLayout::Place at = phase.layout.place(slot_index, nprocs);
    const SlotModel& model = phase.slots.at(static_cast<std::size_t>(at.template_index));
    InstantiatedSlot slot;
    slot.model = &model;
    slot.template_index = static_cast<std::int32_t>(at.template_index);
    slot.dst = map_of(phase.dst_rules, model.sends, nprocs, at);
    slot.src = map_of(phase.src_rules, model.receives, nprocs, at);
    slot.root = map_of(phase.root_rules, model.rooted, nprocs, at);
    // A rooted collective whose root rule leaves 0..N-1 at N has no root to replay (on a
    // sub-communicator the root is a member's place, checked with the members).
    if (model.rooted && !model.comm &&
        (slot.root(0) == kNoPeer || slot.root(nprocs - 1) == kNoPeer)) {
      throw std::domain_error(fmt::format("slot {} ({}): its root is outside 0..{} at N = {}",
                                          slot_index, core::op_name(model.op), nprocs - 1, nprocs));
    }
    const std::int64_t s = phase.layout.in_block(at.template_index) ? at.s : 0;
    const std::int64_t shift = phase.layout.tag_shift_at(at.template_index, nprocs);
    // No tag (kNone) and any tag (kAnyTag) stay what they are.
    const auto tag_at = [&](std::int32_t tag, std::int32_t step) {
      return tag < 0 ? tag : static_cast<std::int32_t>(tag + shift + s * step);
    };
    slot.tag = tag_at(model.tag, model.tag_step);
    slot.rtag = tag_at(model.rtag, model.rtag_step);
    slot.bytes =
        bytes_at(model.bytes, nprocs, fmt::format("slot {} bytes", at.template_index), notes);
    slot.rbytes = bytes_at(model.rbytes, nprocs,
                           fmt::format("slot {} received bytes", at.template_index), notes);
    if (model.comm) slot.comm = sub_communicator(model, at.template_index, slot.comm_root);
    slots.push_back(std::move(slot));
  }
  return slots;
}

SltScaledTrace::InstantiatedPhase SltScaledTrace::instantiate(const Slt& slt, std::size_t k,
                                                              const InstantiateOptions& options) {
  const PhaseModel& phase = slt.phases[k];
  InstantiatedPhase inst;
  inst.model = &phase;
  // What the phase's fits say beyond where they are trusted, kept only if the phase is.
  std::vector<std::string> notes;
  if (k < slt.compute.phases.size()) {
    const PhaseCompute& compute = slt.compute.phases[k];
    inst.groups = group_computes(compute, phase, notes);
    inst.slot_shares = compute.slot_shares;
  }
  if (!phase.pattern_modelled) {
    check_carried(phase, options, nprocs_);
    warnings_.push_back(
        fmt::format("{}: NOT MODELLED -- the pattern measured at n = {} is "
                    "carried to N = {} by tiling; its peers are a guess",
                    phase.name, phase.carried->n, nprocs_));
    for (const std::string& note : notes) warnings_.push_back(phase.name + ": " + note);
    return inst;
  }
  if (const UndecidedRule* undecided = undecided_at(phase, nprocs_)) {
    // No one run settles every open slot within 16 x the largest training run: the first n
    // where this slot's two rules differ settles this one.
    const std::string settle =
        phase.settled_by
            ? fmt::format("a training run at n = {} settles it", *phase.settled_by)
            : fmt::format(
                  "a training run at n = {} settles this slot (no one run up to 16 times "
                  "the largest settles them all)",
                  undecided->undecided.differs_from);
    if (!options.accept_undecided) {
      throw std::domain_error(fmt::format(
          "{}: the training runs do not decide its peers at N = {}: {}, and they differ there; "
          "{} (--accept-ambiguous uses the rule the model chose)",
          phase.name, nprocs_, undecided_text(phase, *undecided), settle));
    }
    notes.push_back(fmt::format("AMBIGUOUS at N = {}, used anyway (--accept-ambiguous): {}; {}",
                                nprocs_, undecided_text(phase, *undecided), settle));
  }
  try {
    inst.slots = instantiate_slots(phase, notes);
  } catch (const std::domain_error& e) {
    throw std::domain_error(fmt::format("{}: {}", phase.name, e.what()));
  }
  // Slots without a share of their own (a growing phase's) share the repetition equally.
  if (!inst.slots.empty()) {
    inst.slot_shares.resize(inst.slots.size(), 1.0 / static_cast<double>(inst.slots.size()));
  }
  if (phase.layout.grows()) {
    inst.growing_order.resize(inst.slots.size());
    std::iota(inst.growing_order.begin(), inst.growing_order.end(), 0);
  }
  // A growing phase makes its templates' slots many times: each note once.
  std::sort(notes.begin(), notes.end());
  notes.erase(std::unique(notes.begin(), notes.end()), notes.end());
  for (const std::string& note : notes) warnings_.push_back(phase.name + ": " + note);
  return inst;
}

bool SltScaledTrace::makes_a_guarded_post(const InstantiatedPhase& inst, const SlotModel& m,
                                          int rank) const {
  // Guards exist only in fixed layouts (the SLT reader checks), where slot g is template g.
  return m.guards.empty() || std::any_of(m.guards.begin(), m.guards.end(), [&](std::int32_t g) {
           return slot_event(inst.slots.at(static_cast<std::size_t>(g)), rank).has_value();
         });
}

std::optional<core::Event> SltScaledTrace::slot_event(const InstantiatedSlot& slot,
                                                      int rank) const {
  const SlotModel& m = *slot.model;
  core::Event e;
  e.op = m.op;
  if (m.sends) e.dst = static_cast<std::int32_t>(slot.dst(rank));
  if (m.receives) e.src = static_cast<std::int32_t>(slot.src(rank));
  if (core::is_point_to_point(m.op) && e.dst == core::kNone && e.src == core::kNone)
    return std::nullopt;
  if (m.rooted) e.root = static_cast<std::int32_t>(slot.root(rank));
  std::int64_t members = nprocs_;
  if (m.comm) {
    const std::vector<std::int64_t> mine = m.comm->members_of(rank, nprocs_);
    members = static_cast<std::int64_t>(mine.size());
    e.comm = slot.comm;
    if (m.rooted)
      e.root = static_cast<std::int32_t>(mine[static_cast<std::size_t>(slot.comm_root)]);
  }
  add_sides(e, m, {slot.tag, slot.rtag, slot.bytes, slot.rbytes}, members, rank);
  return e;
}

void SltScaledTrace::phase_events(int phase, int rank, std::vector<core::Event>& out) const {
  const InstantiatedPhase& inst = instantiated_.at(static_cast<std::size_t>(phase));
  if (!inst.model->pattern_modelled) {
    carried_events(inst, rank, out);
    return;
  }
  const PhaseModel& model = *inst.model;
  const std::vector<std::int32_t>& sequence =
      model.layout.grows()
          ? inst.growing_order
          : model.order.variants[static_cast<std::size_t>(rank % model.order.modulus)];
  PendingRequests requests;
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
    unplaced += compute * inst.slot_shares[static_cast<std::size_t>(s)];
    std::optional<core::Event> e = slot_event(slot, rank);
    if (!e) continue;
    e->burst_cpu = std::llround(unplaced);
    unplaced = 0;
    // Completions name the templates whose requests they complete, whichever repetition; a
    // waitall made for the posts after it only where the rank makes one of them.
    if (!makes_a_guarded_post(inst, *slot.model, rank) ||
        !track_requests(*e, *slot.model, slot.template_index, requests)) {
      unplaced = static_cast<double>(e->burst_cpu);
      continue;
    }
    out.push_back(std::move(*e));
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
  // The pattern keeps no requests: they are numbered and completed in the order of the calls,
  // as a modelled phase's without named completions are. A request the repetition leaves open
  // stays so, and the simulation says which.
  PendingRequests requests;
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
    if (core::is_nonblocking(e.op) && core::is_point_to_point(e.op)) {
      requests.post(e, core::kNone);
    } else {
      requests.complete_in_order(e);
    }
    out.push_back(std::move(e));
  }
}

double SltScaledTrace::compute_ns(int phase, int rank) const {
  return instantiated_.at(static_cast<std::size_t>(phase)).compute_ns(rank);
}

std::int32_t SltScaledTrace::sub_communicator(const SlotModel& slot, std::int64_t template_index,
                                              std::int64_t& root_place) {
  // Where the rule holds at N, it holds for rank 0's communicator as for any.
  const std::vector<std::int64_t> members = slot.comm->members_of(0, nprocs_);
  if (slot.comm_root) {
    root_place = slot.comm_root->at(nprocs_);
    if (root_place < 0 || root_place >= static_cast<std::int64_t>(members.size())) {
      throw std::domain_error(
          fmt::format("slot {}: the root's place {} ({}) is not among the {} members of its "
                      "sub-communicator at N = {}",
                      template_index, root_place, slot.comm_root->text(), members.size(), nprocs_));
    }
  }
  const auto known = std::find_if(sub_rules_.begin(), sub_rules_.end(),
                                  [&](const CommunicatorRule* r) { return *r == *slot.comm; });
  if (known != sub_rules_.end()) {
    return kFirstSubId + static_cast<std::int32_t>(known - sub_rules_.begin());
  }
  sub_rules_.push_back(&*slot.comm);
  return kFirstSubId + static_cast<std::int32_t>(sub_rules_.size() - 1);
}

std::vector<core::Communicator> SltScaledTrace::communicators(int rank) const {
  core::Communicator world;
  world.members.resize(static_cast<std::size_t>(nprocs_));
  std::iota(world.members.begin(), world.members.end(), 0);
  std::vector<core::Communicator> out = {world};
  for (std::size_t k = 0; k < sub_rules_.size(); ++k) {
    core::Communicator sub;
    sub.id = kFirstSubId + static_cast<std::int32_t>(k);
    for (std::int64_t m : sub_rules_[k]->members_of(rank, nprocs_)) {
      sub.members.push_back(static_cast<std::int32_t>(m));
    }
    out.push_back(std::move(sub));
  }
  return out;
}

}  // namespace p3s::model
