#include "model/slot_templates.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <tuple>

#include "model/slot_layout_inference.hpp"
#include "model/subcommunicator_model.hpp"

namespace p3s::model {
namespace {

using signature::EventToken;

// slots_of and template_of_slot of every run's slots under `layout`.
SlotTemplates place_slots(const Alignment& alignment, const SlotLayout& layout) {
  SlotTemplates placed;
  placed.layout = layout;
  placed.slots_of.assign(static_cast<std::size_t>(layout.templates),
                         std::vector<std::vector<std::size_t>>(alignment.runs.size()));
  for (std::size_t i = 0; i < alignment.runs.size(); ++i) {
    const AlignedRun& run = alignment.runs[i];
    placed.template_of_slot.emplace_back();
    for (std::size_t k = 0; k < run.slot_events.size(); ++k) {
      const auto t = static_cast<std::size_t>(
          layout.place(static_cast<std::int64_t>(k), run.n).template_index);
      placed.slots_of[t][i].push_back(k);
      placed.template_of_slot.back().push_back(t);
    }
  }
  return placed;
}

// An event of template t in slot k of a run at n, its tags taken back to the block's first
// repetition at the largest run's n.
EventToken at_first_repetition(const SlotTemplates& templates, std::size_t t, std::size_t k,
                               std::int64_t n, EventToken e) {
  const auto ti = static_cast<std::int64_t>(t);
  const std::int64_t s =
      templates.layout.in_block(ti) ? templates.layout.place(static_cast<std::int64_t>(k), n).s : 0;
  const auto shift = static_cast<std::int32_t>(templates.layout.tag_shift_at(ti, n));
  const auto back = [&](std::int32_t tag, std::int32_t step) {
    return tag < 0 ? tag : tag - shift - static_cast<std::int32_t>(s) * step;
  };
  e.tag = back(e.tag, templates.tag_step[t]);
  e.rtag = back(e.rtag, templates.rtag_step[t]);
  return e;
}

// The first event of template t, in run and slot order, its tags taken back to the block's first
// repetition, when every event of it makes the same call; nothing, with a failure, when calls
// differ or no rank makes it.
std::optional<EventToken> template_example(const Alignment& alignment,
                                           const SlotTemplates& templates, std::size_t t,
                                           std::vector<std::string>& failures) {
  std::optional<EventToken> example;
  for (std::size_t i = 0; i < alignment.runs.size(); ++i) {
    const AlignedRun& run = alignment.runs[i];
    for (const std::size_t k : templates.slots_of[t][i]) {
      for (const auto& e : run.slot_events[k]) {
        if (!e) continue;
        const EventToken first = at_first_repetition(templates, t, k, run.n, *e);
        if (!example) example = first;
        if (first.op != example->op || first.tag != example->tag || first.rtag != example->rtag) {
          failures.push_back(fmt::format("slot {}: calls differ at n = {} ({} and {})", t, run.n,
                                         core::op_name(example->op), core::op_name(e->op)));
          return std::nullopt;
        }
      }
    }
  }
  if (!example) failures.push_back(fmt::format("slot {} is never used", t));
  return example;
}

// A template's call, tags and sides, as its example makes them.
SlotModel slot_of_example(const EventToken& example) {
  SlotModel slot;
  slot.op = example.op;
  slot.tag = example.tag;
  slot.rtag = example.rtag;
  slot.sends = example.dst >= 0;
  slot.receives = example.src >= 0;
  slot.rooted = example.root >= 0;
  return slot;
}

// Whether two places are in the same repetition of the same block.
bool same_repetition(const SlotLayout& layout, const SlotLayout::Place& a,
                     const SlotLayout::Place& b) {
  return a.s == b.s && layout.block_of(a.template_index) == layout.block_of(b.template_index);
}

// Adds what each of `rank`'s completions completes, as templates, to `completes`; false when
// one completes a request an earlier repetition of its block posted.
bool add_rank_completions(const SlotLayout& layout, std::int64_t n,
                          const std::vector<std::int32_t>& order,
                          const std::vector<std::vector<std::int32_t>>& rank_completes,
                          std::vector<std::set<std::int32_t>>& completes) {
  for (std::size_t e = 0; e < rank_completes.size() && e < order.size(); ++e) {
    const SlotLayout::Place by = layout.place(order[e], n);
    for (const std::int32_t posted : rank_completes[e]) {
      if (posted < 0 || static_cast<std::size_t>(posted) >= order.size()) continue;
      const SlotLayout::Place of = layout.place(order[static_cast<std::size_t>(posted)], n);
      if (layout.in_block(of.template_index) && !same_repetition(layout, of, by)) return false;
      completes[static_cast<std::size_t>(by.template_index)].insert(
          static_cast<std::int32_t>(of.template_index));
    }
  }
  return true;
}

// Per template, the templates whose requests it completes, read off every rank of every run
// (a halo exchange's waitall its irecvs, which an idle rank skips with them). Nothing for any
// template when a completion completes a request an earlier repetition of its block posted:
// templates alone cannot name that one.
std::vector<std::vector<std::int32_t>> template_completions(const Alignment& alignment,
                                                            std::span<const PhaseRun> phase_runs,
                                                            const SlotTemplates& templates) {
  std::vector<std::set<std::int32_t>> completes(templates.slots_of.size());
  for (std::size_t i = 0; i < alignment.runs.size() && i < phase_runs.size(); ++i) {
    const AlignedRun& run = alignment.runs[i];
    for (std::size_t r = 0; r < run.order.size() && r < phase_runs[i].completes.size(); ++r) {
      if (!add_rank_completions(templates.layout, run.n, run.order[r], phase_runs[i].completes[r],
                                completes)) {
        return {};
      }
    }
  }
  std::vector<std::vector<std::int32_t>> out;
  out.reserve(completes.size());
  for (const std::set<std::int32_t>& c : completes) out.emplace_back(c.begin(), c.end());
  return out;
}

}  // namespace

std::optional<SlotTemplates> infer_slot_templates(Alignment& alignment, LeadingRepetitions leading,
                                                  std::vector<std::string>& failures) {
  std::string layout_failure;
  const std::optional<InferredLayout> inferred = infer_layout(alignment, leading, layout_failure);
  if (!inferred) {
    failures.push_back(layout_failure);
    return std::nullopt;
  }
  SlotTemplates templates = place_slots(alignment, inferred->layout);
  templates.tag_step = inferred->tag_step;
  templates.rtag_step = inferred->rtag_step;
  return templates;
}

std::optional<std::vector<SlotModel>> template_slot_models(const Alignment& alignment,
                                                           std::span<const PhaseRun> phase_runs,
                                                           const SlotTemplates& templates,
                                                           std::vector<std::string>& failures) {
  std::vector<SlotModel> slots;
  const std::vector<std::vector<std::int32_t>> completions =
      alignment.slot_completes.empty() || templates.layout.grows()
          ? template_completions(alignment, phase_runs, templates)
          : alignment.slot_completes;
  for (std::size_t t = 0; t < templates.slots_of.size(); ++t) {
    const std::optional<EventToken> example = template_example(alignment, templates, t, failures);
    if (!example) return std::nullopt;
    SlotModel slot = slot_of_example(*example);
    slot.tag_step = templates.tag_step[t];
    slot.rtag_step = templates.rtag_step[t];
    // A message's peers are world ranks whatever communicator carries it, so point-to-point
    // calls on a sub-communicator are modelled like the world's; a collective's members are the
    // communicator's, with its root among them.
    if (example->comm != 0 && core::op_kind(slot.op) == core::OpKind::Collective &&
        !model_subcommunicator(alignment, phase_runs, templates.slots_of[t], t, slot, failures)) {
      return std::nullopt;
    }
    slot.bytes_per_member = core::bytes_per_member(slot.op, false);
    slot.rbytes_per_member = core::bytes_per_member(slot.op, true);
    if (t < completions.size()) slot.completes = completions[t];
    slots.push_back(slot);
  }
  return slots;
}

namespace {

// The slots of run i that posted what its slot k completes: those of the templates `slot`
// names, in k's repetition where they are in k's block.
std::vector<std::size_t> posting_slots(const SlotTemplates& templates, std::size_t i,
                                       std::int64_t n, std::size_t k, const SlotModel& slot) {
  const SlotLayout& layout = templates.layout;
  const SlotLayout::Place at = layout.place(static_cast<std::int64_t>(k), n);
  std::vector<std::size_t> out;
  for (const std::int32_t t : slot.completes) {
    for (const std::size_t posted : templates.slots_of[static_cast<std::size_t>(t)][i]) {
      const SlotLayout::Place of = layout.place(static_cast<std::int64_t>(posted), n);
      if (!layout.in_block(t) || same_repetition(layout, of, at)) out.push_back(posted);
    }
  }
  return out;
}

// The first rank of run i's slot k that calls it without a request of its own posted, or
// posts one and does not call it.
std::optional<std::size_t> rank_unlike_its_requests(const SlotTemplates& templates, std::size_t i,
                                                    const AlignedRun& run, std::size_t k,
                                                    const SlotModel& slot) {
  const std::vector<std::size_t> posting = posting_slots(templates, i, run.n, k, slot);
  for (std::size_t r = 0; r < run.slot_events[k].size(); ++r) {
    const bool posted = std::any_of(posting.begin(), posting.end(), [&](std::size_t p) {
      return run.slot_events[p][r].has_value();
    });
    if (run.slot_events[k][r].has_value() != posted) return r;
  }
  return std::nullopt;
}

// The post templates that follow template t on some rank up to its next completion: the sends
// a pipeline's wait is made for (`if (down >= 0) { MPI_Waitall; ...; MPI_Isend }`).
std::vector<std::int32_t> guarded_templates(const Alignment& alignment,
                                            const SlotTemplates& templates, std::size_t t,
                                            std::span<const SlotModel> slots) {
  std::set<std::int32_t> guarded;
  for (std::size_t i = 0; i < alignment.runs.size(); ++i) {
    const std::vector<std::size_t>& template_of = templates.template_of_slot[i];
    for (const std::vector<std::int32_t>& order : alignment.runs[i].order) {
      bool after = false;
      for (const std::int32_t k : order) {
        const std::size_t of = template_of[static_cast<std::size_t>(k)];
        const core::Op op = slots[of].op;
        if (of == t) {
          after = true;
        } else if (core::op_kind(op) == core::OpKind::Completion) {
          after = false;
        } else if (after && core::is_point_to_point(op) && core::is_nonblocking(op)) {
          guarded.insert(static_cast<std::int32_t>(of));
        }
      }
    }
  }
  return {guarded.begin(), guarded.end()};
}

// Whether every rank of every run makes template t exactly where it makes one of the posts it
// guards and, when `with_request`, has posted one of the requests it completes.
bool made_for_its_posts(const Alignment& alignment, const SlotTemplates& templates, std::size_t t,
                        const SlotModel& slot, const std::vector<std::int32_t>& guarded,
                        bool with_request) {
  for (std::size_t i = 0; i < alignment.runs.size(); ++i) {
    const AlignedRun& run = alignment.runs[i];
    for (const std::size_t k : templates.slots_of[t][i]) {
      const std::vector<std::size_t> posting = posting_slots(templates, i, run.n, k, slot);
      for (std::size_t r = 0; r < run.slot_events[k].size(); ++r) {
        const auto made = [&](std::size_t p) { return run.slot_events[p][r].has_value(); };
        const bool posts = std::any_of(guarded.begin(), guarded.end(), [&](std::int32_t g) {
          const auto& of = templates.slots_of[static_cast<std::size_t>(g)][i];
          return std::any_of(of.begin(), of.end(), made);
        });
        const bool requested = !with_request || std::any_of(posting.begin(), posting.end(), made);
        if (run.slot_events[k][r].has_value() != (posts && requested)) return false;
      }
    }
  }
  return true;
}

// Sets slot.guards where template t is made exactly for the posts after it (with one of its
// requests, when `with_request`); false when it is not, or the layout grows.
bool decide_guards(const Alignment& alignment, const SlotTemplates& templates, std::size_t t,
                   std::span<const SlotModel> slots, SlotModel& slot, bool with_request) {
  if (templates.layout.grows() || slot.op != core::Op::Waitall) return false;
  std::vector<std::int32_t> guarded = guarded_templates(alignment, templates, t, slots);
  if (guarded.empty() || !made_for_its_posts(alignment, templates, t, slot, guarded, with_request))
    return false;
  slot.guards = std::move(guarded);
  slot.needs_request = with_request;
  return true;
}

// A waitall with its slots known is made by every rank, by exactly the ranks that posted one of
// its requests (then it needs one), or, in a fixed layout, by exactly the ranks that make one of
// the posts after it (a wait for the last step's sends before sending again, which a rank that
// sends nothing next skips although its last sends are pending). False, naming the rank, when
// none holds.
bool decide_needs_request(const Alignment& alignment, const SlotTemplates& templates, std::size_t t,
                          std::span<const SlotModel> slots, SlotModel& slot,
                          std::vector<std::string>& failures) {
  bool every = true;
  for (std::size_t i = 0; i < alignment.runs.size(); ++i) {
    for (const std::size_t k : templates.slots_of[t][i]) {
      for (const auto& e : alignment.runs[i].slot_events[k]) every = every && e.has_value();
    }
  }
  if (every) return true;
  for (std::size_t i = 0; i < alignment.runs.size(); ++i) {
    const AlignedRun& run = alignment.runs[i];
    for (const std::size_t k : templates.slots_of[t][i]) {
      const std::optional<std::size_t> r = rank_unlike_its_requests(templates, i, run, k, slot);
      if (!r) continue;
      if (decide_guards(alignment, templates, t, slots, slot, false) ||
          decide_guards(alignment, templates, t, slots, slot, true)) {
        return true;
      }
      const bool calls = run.slot_events[k][*r].has_value();
      failures.push_back(fmt::format("n = {}: rank {} {} {} (slot {}) with {} request of its own",
                                     run.n, *r, calls ? "calls" : "does not call",
                                     core::op_name(slot.op), t, calls ? "no" : "a"));
      return false;
    }
  }
  slot.needs_request = true;
  return true;
}

// Whether every rank makes every slot of template t in every run; false, naming the first
// rank that does not, otherwise.
bool every_rank_calls(const Alignment& alignment, const SlotTemplates& templates, std::size_t t,
                      const SlotModel& slot, std::vector<std::string>& failures) {
  for (std::size_t i = 0; i < alignment.runs.size(); ++i) {
    const AlignedRun& run = alignment.runs[i];
    for (const std::size_t k : templates.slots_of[t][i]) {
      for (std::size_t r = 0; r < run.slot_events[k].size(); ++r) {
        if (run.slot_events[k][r]) continue;
        failures.push_back(fmt::format("n = {}: rank {} does not call {} (slot {})", run.n, r,
                                       core::op_name(slot.op), t));
        return false;
      }
    }
  }
  return true;
}

}  // namespace

bool every_rank_calls_peerless_slots(const Alignment& alignment, const SlotTemplates& templates,
                                     std::vector<SlotModel>& slots,
                                     std::vector<std::string>& failures) {
  for (std::size_t t = 0; t < slots.size(); ++t) {
    SlotModel& slot = slots[t];
    if (slot.sends || slot.receives || core::completes_one(slot.op)) continue;
    if (!slot.completes.empty()) {
      if (!decide_needs_request(alignment, templates, t, slots, slot, failures)) return false;
      continue;
    }
    // A waitall of nothing the repetition posted (its requests come from before): made by every
    // rank, or for the posts after it; else the ranks that do not make it are the failure.
    std::vector<std::string> not_every;
    if (every_rank_calls(alignment, templates, t, slot, not_every) ||
        decide_guards(alignment, templates, t, slots, slot, false)) {
      continue;
    }
    failures.insert(failures.end(), not_every.begin(), not_every.end());
    return false;
  }
  return true;
}

}  // namespace p3s::model
