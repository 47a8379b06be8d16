#include "model/slot_templates.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <tuple>

#include "model/integer_formula_fit.hpp"
#include "model/subcommunicator_model.hpp"

namespace p3s::model {
namespace {

using signature::EventToken;

// (operation, tags) of each slot of a run: what a slot template is, whatever the peers.
using SlotCall = std::tuple<core::Op, std::int32_t, std::int32_t>;

std::vector<SlotCall> slot_calls(const AlignedRun& run) {
  std::vector<SlotCall> calls;
  for (const auto& slot_events : run.slot_events) {
    SlotCall call{core::Op::Barrier, -1, -1};
    for (const auto& e : slot_events) {
      if (e) {
        call = {e->op, e->tag, e->rtag};
        break;
      }
    }
    calls.push_back(call);
  }
  return calls;
}

// The calls a run's slots are made of, at each k from the start (or with `from_end`, the
// end), that every run has in common.
std::size_t common_calls(const std::vector<std::vector<SlotCall>>& calls, std::size_t shortest,
                         bool from_end) {
  auto at = [from_end](const std::vector<SlotCall>& c, std::size_t k) {
    return from_end ? c[c.size() - 1 - k] : c[k];
  };
  std::size_t k = 0;
  while (k < shortest && std::all_of(calls.begin(), calls.end(), [&](const auto& c) {
           return at(c, k) == at(calls.front(), k);
         })) {
    ++k;
  }
  return k;
}

// Whether, in every run, the calls between the `before` and `after` common ones are the
// `period` calls that follow `before` in the longest run, repeated.
bool repeats_between(const std::vector<std::vector<SlotCall>>& calls,
                     const std::vector<SlotCall>& longest, std::size_t before, std::size_t after,
                     std::size_t period) {
  const auto body = longest.begin() + static_cast<std::ptrdiff_t>(before);
  for (const std::vector<SlotCall>& c : calls) {
    const std::size_t middle = c.size() - before - after;
    if (middle % period != 0) return false;
    for (std::size_t k = 0; k < middle; ++k) {
      if (c[before + k] != *(body + static_cast<std::ptrdiff_t>(k % period))) return false;
    }
  }
  return true;
}

// When every run but the smallest agrees, the smallest is the likely cause: a process grid
// that is degenerate at small n (an extent of 1 or 2 makes an application skip or merge
// exchanges).
std::string smallest_run_hint(const std::vector<FormulaSample>& counts) {
  if (counts.size() < 3) return "";
  const auto smallest =
      std::min_element(counts.begin(), counts.end(),
                       [](const FormulaSample& a, const FormulaSample& b) { return a.n < b.n; });
  const FormulaSample& other = smallest == counts.begin() ? counts.back() : counts.front();
  const bool others_agree = std::all_of(counts.begin(), counts.end(), [&](const FormulaSample& c) {
    return &c == &*smallest || c.value == other.value;
  });
  if (!others_agree || smallest->value == other.value) return "";
  return fmt::format(
      " (every run but the smallest, n = {}, agrees: the application may split its work "
      "differently there, e.g. on a process grid with an extent of 1 or 2; leave that run out "
      "of the training, or add runs at larger n)",
      smallest->n);
}

// The layout with a block of the `period` calls that follow `before` in the longest run,
// repeated as often as a formula in n says. Nothing, with `failure` saying why, when the
// repetitions follow no formula.
std::optional<SlotLayout> block_layout(const Alignment& alignment,
                                       const std::vector<std::vector<SlotCall>>& calls,
                                       const std::vector<SlotCall>& longest, std::size_t before,
                                       std::size_t after, std::size_t period,
                                       std::string& failure) {
  const auto body = longest.begin() + static_cast<std::ptrdiff_t>(before);
  // Copies of the block the common calls took before or after it belong to it (the one
  // exchange a run at n = 2 still makes is the block's first repetition, not a fixed slot).
  auto copy_at = [&](std::size_t at) {
    return std::equal(body, body + static_cast<std::ptrdiff_t>(period),
                      longest.begin() + static_cast<std::ptrdiff_t>(at));
  };
  std::size_t first = before, last = after;
  while (first >= period && copy_at(first - period)) first -= period;
  while (last >= period && copy_at(longest.size() - last)) last -= period;
  std::vector<FormulaSample> counts;
  counts.reserve(calls.size());
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const std::size_t middle = calls[i].size() - first - last;
    counts.push_back({alignment.runs[i].n, 0, static_cast<std::int64_t>(middle / period)});
  }
  const std::optional<IntegerFormula> count = fit_integer_formula(counts, size_bases());
  if (!count) {
    std::vector<std::string> seen;
    seen.reserve(counts.size());
    for (const FormulaSample& c : counts) seen.push_back(fmt::format("{} at n = {}", c.value, c.n));
    failure = fmt::format(
        "the calls of one repetition change with n: a block of {} call(s) repeats {} times, "
        "which follows no formula in n{}",
        period, fmt::join(seen, "; "), smallest_run_hint(counts));
    return std::nullopt;
  }
  return SlotLayout{
      static_cast<std::int64_t>(first + period + last),
      SlotBlock{static_cast<std::int64_t>(first), static_cast<std::int64_t>(period), *count}};
}

// How a phase's slots at each n come from templates: the same slots in every run, or fixed
// slots before and after a block of calls that repeats a number of times given by a formula
// in n (a butterfly's exchanges, after an alltoall). Nothing, with `failure` saying why, when
// the runs' calls follow no such layout.
std::optional<SlotLayout> infer_layout(const Alignment& alignment, std::string& failure) {
  std::vector<std::vector<SlotCall>> calls;
  calls.reserve(alignment.runs.size());
  for (const AlignedRun& run : alignment.runs) calls.push_back(slot_calls(run));
  const bool same = std::all_of(calls.begin(), calls.end(),
                                [&](const auto& c) { return c.size() == calls.front().size(); });
  if (same) return SlotLayout{static_cast<std::int64_t>(calls.front().size()), std::nullopt};
  std::size_t shortest = calls.front().size();
  for (const auto& c : calls) shortest = std::min(shortest, c.size());
  const std::size_t before = common_calls(calls, shortest, false);
  const std::size_t after = std::min(common_calls(calls, shortest, true), shortest - before);
  const std::vector<SlotCall>& longest = *std::max_element(
      calls.begin(), calls.end(), [](const auto& a, const auto& b) { return a.size() < b.size(); });
  for (std::size_t period = 1; before + period + after <= longest.size(); ++period) {
    if (repeats_between(calls, longest, before, after, period)) {
      return block_layout(alignment, calls, longest, before, after, period, failure);
    }
  }
  failure =
      "the calls of one repetition change with n, and not as a block that repeats between "
      "the same calls";
  return std::nullopt;
}

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

// The first event of template t, in run and slot order, when every event of it makes the same
// call; nothing, with a failure, when calls differ or no rank makes it.
std::optional<EventToken> template_example(const Alignment& alignment,
                                           const SlotTemplates& templates, std::size_t t,
                                           std::vector<std::string>& failures) {
  std::optional<EventToken> example;
  for (std::size_t i = 0; i < alignment.runs.size(); ++i) {
    const AlignedRun& run = alignment.runs[i];
    for (const std::size_t k : templates.slots_of[t][i]) {
      for (const auto& e : run.slot_events[k]) {
        if (!e) continue;
        if (!example) example = e;
        if (e->op != example->op || e->tag != example->tag || e->rtag != example->rtag) {
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

std::optional<SlotTemplates> infer_slot_templates(const Alignment& alignment,
                                                  std::vector<std::string>& failures) {
  std::string layout_failure;
  const std::optional<SlotLayout> layout = infer_layout(alignment, layout_failure);
  if (!layout) {
    failures.push_back(layout_failure);
    return std::nullopt;
  }
  return place_slots(alignment, *layout);
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
    // A message's peers are world ranks whatever communicator carries it, so point-to-point
    // calls on a sub-communicator are modelled like the world's; a collective's members are the
    // communicator's, with its root among them.
    if (example->comm != 0 && core::op_kind(slot.op) == core::OpKind::Collective &&
        !model_subcommunicator(alignment, phase_runs, templates.slots_of[t], t, slot, failures)) {
      return std::nullopt;
    }
    slot.bytes_per_member = core::bytes_per_member(slot.op, false);
    slot.rbytes_per_member = core::bytes_per_member(slot.op, true);
    if (t < alignment.slot_completes.size() && !templates.layout.block) {
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
