#include "model/slot_templates.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstddef>
#include <optional>
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
      const auto ti = static_cast<std::int64_t>(t);
      const std::int64_t s = templates.layout.in_block(ti)
                                 ? templates.layout.place(static_cast<std::int64_t>(k), run.n).s
                                 : 0;
      const auto shift = static_cast<std::int32_t>(templates.layout.tag_shift_at(ti, run.n));
      const auto back = [&](std::int32_t tag, std::int32_t step) {
        return tag < 0 ? tag : tag - shift - static_cast<std::int32_t>(s) * step;
      };
      for (const auto& e : run.slot_events[k]) {
        if (!e) continue;
        EventToken first = *e;
        first.tag = back(first.tag, templates.tag_step[t]);
        first.rtag = back(first.rtag, templates.rtag_step[t]);
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

}  // namespace

std::optional<SlotTemplates> infer_slot_templates(Alignment& alignment,
                                                  std::vector<std::string>& failures) {
  std::string layout_failure;
  const std::optional<InferredLayout> inferred = infer_layout(alignment, layout_failure);
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
    if (t < alignment.slot_completes.size() && !templates.layout.grows()) {
      slot.completes = alignment.slot_completes[t];
    }
    slots.push_back(slot);
  }
  return slots;
}

namespace {

// Whether rank r of `run` made any of the calls whose requests `slot` completes.
bool posts_for(const AlignedRun& run, const SlotModel& slot, std::size_t r) {
  return std::any_of(slot.completes.begin(), slot.completes.end(), [&](std::int32_t posted) {
    return run.slot_events[static_cast<std::size_t>(posted)][r].has_value();
  });
}

// A waitall with its slots known is made by every rank, or by exactly the ranks that posted
// one of its requests (then it needs one). False, naming the rank, when neither holds.
bool decide_needs_request(const Alignment& alignment, std::size_t k, SlotModel& slot,
                          std::vector<std::string>& failures) {
  bool every = true;
  for (const AlignedRun& run : alignment.runs) {
    for (const auto& e : run.slot_events[k]) every = every && e.has_value();
  }
  if (every) return true;
  for (const AlignedRun& run : alignment.runs) {
    for (std::size_t r = 0; r < run.slot_events[k].size(); ++r) {
      if (run.slot_events[k][r].has_value() != posts_for(run, slot, r)) {
        failures.push_back(fmt::format("n = {}: rank {} {} {} (slot {}) with {} request of its own",
                                       run.n, r, run.slot_events[k][r] ? "calls" : "does not call",
                                       core::op_name(slot.op), k,
                                       posts_for(run, slot, r) ? "a" : "no"));
        return false;
      }
    }
  }
  slot.needs_request = true;
  return true;
}

}  // namespace

bool every_rank_calls_peerless_slots(const Alignment& alignment, const SlotTemplates& templates,
                                     std::vector<SlotModel>& slots,
                                     std::vector<std::string>& failures) {
  for (std::size_t i = 0; i < alignment.runs.size(); ++i) {
    const AlignedRun& run = alignment.runs[i];
    for (std::size_t k = 0; k < run.slot_events.size(); ++k) {
      const std::size_t t = templates.template_of_slot[i][k];
      SlotModel& slot = slots[t];
      if (slot.sends || slot.receives || core::completes_one(slot.op)) continue;
      if (!slot.completes.empty()) {
        if (!decide_needs_request(alignment, k, slot, failures)) return false;
        continue;
      }
      for (std::size_t r = 0; r < run.slot_events[k].size(); ++r) {
        if (!run.slot_events[k][r]) {
          failures.push_back(fmt::format("n = {}: rank {} does not call {} (slot {})", run.n, r,
                                         core::op_name(slot.op), t));
          return false;
        }
      }
    }
  }
  return true;
}

}  // namespace p3s::model
