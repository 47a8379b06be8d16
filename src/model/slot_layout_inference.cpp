#include "model/slot_layout_inference.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <utility>

#include "model/integer_formula_fit.hpp"

namespace p3s::model {
namespace {

using signature::EventToken;

// What a slot of a run calls: the operation and tags of its events; `used` false for a slot no
// rank of the run makes (a template's, in a run too small for it).
struct SlotCall {
  core::Op op = core::Op::Barrier;
  std::int32_t tag = -1;
  std::int32_t rtag = -1;
  bool used = false;
  bool operator==(const SlotCall&) const = default;
};

std::vector<SlotCall> slot_calls(const AlignedRun& run) {
  std::vector<SlotCall> calls;
  calls.reserve(run.slot_events.size());
  for (const auto& slot_events : run.slot_events) {
    SlotCall call;
    for (const auto& e : slot_events) {
      if (e) {
        call = {e->op, e->tag, e->rtag, true};
        break;
      }
    }
    calls.push_back(call);
  }
  return calls;
}

// Whether every run has the same slots: as many, each making the same call wherever some rank
// makes it.
bool same_slots(const std::vector<std::vector<SlotCall>>& calls) {
  for (const std::vector<SlotCall>& run : calls) {
    if (run.size() != calls.front().size()) return false;
  }
  for (std::size_t k = 0; k < calls.front().size(); ++k) {
    std::optional<SlotCall> seen;
    for (const std::vector<SlotCall>& run : calls) {
      if (!run[k].used) continue;
      if (seen && !(*seen == run[k])) return false;
      seen = run[k];
    }
  }
  return true;
}

// A fixed call of the largest run, or a block: `period` calls repeated `count` times, their tags
// advancing by a step of their own from one repetition to the next.
struct Item {
  std::size_t first = 0;  // where it starts in the largest run's calls
  std::size_t period = 1;
  std::size_t count = 1;
  bool block = false;
  std::vector<std::int32_t> tag_step, rtag_step;
};

// The longest body searched for, in calls.
constexpr std::size_t kLongestBody = 64;
// The largest step a block's tags may advance by from one repetition to the next: a stage's
// number, not the jump from one loop's tags to another's.
constexpr std::int32_t kLargestTagStep = 64;

// Repetition r of the body at `first` as a block with those steps, its tags shifted by `shift`:
// its call j.
SlotCall repeated_call(const std::vector<SlotCall>& calls, const Item& item, std::size_t r,
                       std::size_t j, std::int32_t shift = 0) {
  SlotCall c = calls[item.first + j];
  const auto advance = [&](std::int32_t tag, std::int32_t step) {
    return tag < 0 ? tag : tag + shift + static_cast<std::int32_t>(r) * step;
  };
  c.tag = advance(c.tag, item.tag_step[j]);
  c.rtag = advance(c.rtag, item.rtag_step[j]);
  return c;
}

// How many repetitions of `item`'s body (its steps set, its tags shifted by `shift`) `calls`
// has from `at` on.
std::size_t repetitions_at(const std::vector<SlotCall>& body_calls, const Item& item,
                           const std::vector<SlotCall>& calls, std::size_t at,
                           std::int32_t shift = 0) {
  std::size_t r = 0;
  while (at + (r + 1) * item.period <= calls.size()) {
    for (std::size_t j = 0; j < item.period; ++j) {
      if (!(calls[at + r * item.period + j] == repeated_call(body_calls, item, r, j, shift))) {
        return r;
      }
    }
    ++r;
  }
  return r;
}

// How far the tags of `calls` from `at` on lie from the block's in the largest run: the
// difference at the body's first tagged call (0 when it has none, or `calls` makes another
// call there).
std::int32_t shift_from_largest(const std::vector<SlotCall>& body_calls, const Item& item,
                                const std::vector<SlotCall>& calls, std::size_t at) {
  for (std::size_t j = 0; j < item.period && at + j < calls.size(); ++j) {
    const SlotCall& body = body_calls[item.first + j];
    const SlotCall& call = calls[at + j];
    if (body.op != call.op || !call.used) return 0;
    if (body.tag >= 0 && call.tag >= 0) return call.tag - body.tag;
    if (body.rtag >= 0 && call.rtag >= 0) return call.rtag - body.rtag;
  }
  return 0;
}

// The block of `period` calls at `at` of the largest run, with the step its first two
// repetitions show: one step for every tag of the body (a stage's or a reduction step's
// number), or none (0 repetitions) when its tags advance unevenly.
Item block_at(const std::vector<SlotCall>& calls, std::size_t at, std::size_t period) {
  Item item{at, period, 0, true, {}, {}};
  std::optional<std::int32_t> step;
  auto uniform = [&](std::int32_t from, std::int32_t to) {
    if (from < 0 && to < 0) return std::int32_t{0};  // no tag (kNone) or any tag, both times
    if (!step) step = to - from;
    if (*step != to - from) step = kLargestTagStep + 1;  // uneven: no block
    return *step;
  };
  for (std::size_t j = 0; j < period; ++j) {
    item.tag_step.push_back(uniform(calls[at + j].tag, calls[at + period + j].tag));
    item.rtag_step.push_back(uniform(calls[at + j].rtag, calls[at + period + j].rtag));
  }
  const bool even = !step || std::abs(*step) <= kLargestTagStep;
  if (even) item.count = repetitions_at(calls, item, calls, at);
  return item;
}

// How the largest run's calls are read as blocks, from the left: the shortest body of at least
// `shortest` calls that repeats (X X Y Y is two blocks), or, with `most_calls`, the body that
// repeats over the most calls (X Y X Y is one). The smaller runs decide which: a halo exchange of
// one message pair per split dimension reads as pairs only where the runs split fewer.
struct Reading {
  bool most_calls = false;
  std::size_t shortest = 1;
};

// The largest run's calls as fixed calls and blocks, read from the left. A block does not start
// with a completion: that completes what came before (a transpose's wait followed by exchanges
// is not an exchange that repeats).
std::vector<Item> compress(const std::vector<SlotCall>& calls, Reading reading) {
  std::vector<Item> items;
  for (std::size_t i = 0; i < calls.size();) {
    std::optional<Item> best;
    const bool completes = core::op_kind(calls[i].op) == core::OpKind::Completion;
    for (std::size_t p = reading.shortest;
         !completes && p <= kLongestBody && i + 2 * p <= calls.size(); ++p) {
      const Item candidate = block_at(calls, i, p);
      if (candidate.count < 2) continue;
      if (!best || (reading.most_calls && candidate.count * p > best->count * best->period)) {
        best = candidate;
      }
      if (!reading.most_calls) break;
    }
    if (best) {
      i += best->count * best->period;
      items.push_back(std::move(*best));
    } else {
      items.push_back({i, 1, 1, false, {0}, {0}});
      ++i;
    }
  }
  return items;
}

// The readings to try, in order: the shortest bodies, the bodies over the most calls, then the
// shortest bodies of at least each length that repeats where those two readings start a block.
std::vector<Reading> readings_of(const std::vector<SlotCall>& calls) {
  std::vector<Reading> readings = {{false, 1}, {true, 1}};
  std::set<std::size_t> periods;
  for (const Reading& reading : std::vector<Reading>(readings)) {
    for (const Item& item : compress(calls, reading)) {
      if (!item.block) continue;
      for (std::size_t p = 2; p <= kLongestBody && item.first + 2 * p <= calls.size(); ++p) {
        if (block_at(calls, item.first, p).count >= 2) periods.insert(p);
      }
    }
  }
  for (const std::size_t p : periods) readings.push_back({false, p});
  return readings;
}

// Reads a run's calls as the items: how often each comes (a fixed call once or not at all, a
// block any number of times, the most that leaves the rest readable), and how far each block's
// tags lie from the largest run's.
// How a run reads as the items: per item, how many of its repetitions (or whether the fixed
// call) the run makes, how far a block's tags lie from the largest run's, and how many
// repetitions the block lacks before those it makes (LeadingRepetitions::Absent).
struct RunReading {
  std::vector<std::size_t> counts;
  std::vector<std::int32_t> shifts;
  std::vector<std::size_t> absent;
};

class RunReader {
 public:
  RunReader(const std::vector<SlotCall>& largest, const std::vector<Item>& items,
            const std::vector<SlotCall>& calls)
      : largest_(largest),
        items_(items),
        calls_(calls),
        reading_{std::vector<std::size_t>(items.size(), 0),
                 std::vector<std::int32_t>(items.size(), 0),
                 std::vector<std::size_t>(items.size(), 0)} {}

  std::optional<RunReading> read() {
    if (!parse(0, 0)) return std::nullopt;
    return reading_;
  }

 private:
  bool parse(std::size_t item, std::size_t at) {
    if (item == items_.size()) return at == calls_.size();
    if (failed_.contains({item, at})) return false;
    const Item& it = items_[item];
    std::vector<std::size_t> choices;
    std::int32_t shift = 0;
    if (it.block) {
      shift = shift_from_largest(largest_, it, calls_, at);
      for (std::size_t c = repetitions_at(largest_, it, calls_, at, shift) + 1; c-- > 0;) {
        choices.push_back(c);
      }
    } else {
      if (at < calls_.size() && calls_[at] == largest_[it.first]) choices.push_back(1);
      choices.push_back(0);
    }
    for (std::size_t c : choices) {
      if (parse(item + 1, at + c * it.period)) {
        reading_.counts[item] = c;
        reading_.shifts[item] = c > 0 ? shift : 0;
        return true;
      }
    }
    failed_.insert({item, at});
    return false;
  }

  const std::vector<SlotCall>& largest_;
  const std::vector<Item>& items_;
  const std::vector<SlotCall>& calls_;
  RunReading reading_;
  std::set<std::pair<std::size_t, std::size_t>> failed_;
};

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

// "2 at n = 4; 3 at n = 9", or with signs "+1 at n = 4; -2 at n = 9".
std::string values_text(const std::vector<FormulaSample>& samples, bool with_sign) {
  std::vector<std::string> seen;
  seen.reserve(samples.size());
  for (const FormulaSample& s : samples) {
    seen.push_back(with_sign ? fmt::format("{:+} at n = {}", s.value, s.n)
                             : fmt::format("{} at n = {}", s.value, s.n));
  }
  return fmt::format("{}", fmt::join(seen, "; "));
}

// The block's repetitions as a formula in n; nothing, with `failure` saying why.
std::optional<IntegerFormula> block_count(const std::vector<FormulaSample>& counts,
                                          std::size_t period, std::string& failure) {
  std::optional<IntegerFormula> count = fit_integer_formula(counts, size_bases());
  if (count) return count;
  failure = fmt::format(
      "the calls of one repetition change with n: a block of {} call(s) repeats {} times, which "
      "follows no formula in n{}",
      period, values_text(counts, false), smallest_run_hint(counts));
  return std::nullopt;
}

// Where the tags of the block's first repetition lie at n, from the runs that make it (every
// tag moves alike); nothing, with `failure` saying why, when that follows no formula in n.
std::optional<IntegerFormula> block_tag_shift(const std::vector<FormulaSample>& shifts,
                                              std::size_t period, std::string& failure) {
  if (std::all_of(shifts.begin(), shifts.end(),
                  [](const FormulaSample& s) { return s.value == 0; })) {
    return IntegerFormula{};
  }
  std::optional<IntegerFormula> shift = fit_integer_formula(shifts, size_bases());
  if (shift) return shift;
  failure = fmt::format(
      "the tags of a block of {} call(s) start elsewhere at each n ({} from the largest run's), "
      "which follows no formula in n",
      period, values_text(shifts, true));
  return std::nullopt;
}

// Block k of the runs' readings: its repetitions and the shift of its tags as formulas in n.
// With LeadingRepetitions::Absent, a run that makes none of its repetitions lacks them all: it
// says nothing of their count, which the formula then gives it as absent repetitions.
std::optional<SlotBlock> block_of_runs(const Alignment& alignment,
                                       std::vector<RunReading>& readings, std::size_t k,
                                       std::size_t period, LeadingRepetitions leading,
                                       std::string& failure) {
  const bool all_absent_allowed = leading == LeadingRepetitions::Absent;
  std::vector<FormulaSample> counts;
  std::vector<FormulaSample> shifts;
  for (std::size_t i = 0; i < readings.size(); ++i) {
    const std::int64_t n = alignment.runs[i].n;
    const std::size_t made = readings[i].counts[k];
    if (made == 0 && all_absent_allowed) continue;
    counts.push_back({n, 0, static_cast<std::int64_t>(made + readings[i].absent[k])});
    if (made > 0) shifts.push_back({n, 0, readings[i].shifts[k]});
  }
  std::optional<IntegerFormula> count = block_count(counts, period, failure);
  if (!count) return std::nullopt;
  std::optional<IntegerFormula> shift = block_tag_shift(shifts, period, failure);
  if (!shift) return std::nullopt;
  for (std::size_t i = 0; i < readings.size() && all_absent_allowed; ++i) {
    if (readings[i].counts[k] > 0) continue;
    const std::optional<std::int64_t> lacked = count->try_at(alignment.runs[i].n);
    if (!lacked || *lacked < 0) {
      failure = fmt::format("a block repeated {} times has no count at n = {}", count->text(),
                            alignment.runs[i].n);
      return std::nullopt;
    }
    readings[i].absent[k] = static_cast<std::size_t>(*lacked);
  }
  return SlotBlock{0, static_cast<std::int64_t>(period), std::move(*count), std::move(*shift)};
}

// Run `run`'s slots laid out as the items with `counts`: a fixed call it lacks becomes a slot
// every rank lacks; `order` renumbered.
void expand(AlignedRun& run, const std::vector<Item>& items, const RunReading& reading) {
  const std::vector<std::size_t>& counts = reading.counts;
  const std::size_t ranks = run.order.size();
  std::vector<std::vector<std::optional<EventToken>>> slots;
  std::vector<std::int32_t> moved(run.slot_events.size(), -1);
  std::size_t at = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::size_t present = items[i].block ? counts[i] * items[i].period : counts[i];
    if (items[i].block) {
      // Repetitions no rank of this run makes (a dimension of extent 1 a halo skips).
      for (std::size_t k = 0; k < reading.absent[i] * items[i].period; ++k) {
        slots.emplace_back(ranks);
      }
    }
    for (std::size_t k = 0; k < present; ++k, ++at) {
      moved[at] = static_cast<std::int32_t>(slots.size());
      slots.push_back(std::move(run.slot_events[at]));
    }
    if (!items[i].block && counts[i] == 0) {
      slots.emplace_back(ranks);  // no rank of this run makes it
    }
  }
  run.slot_events = std::move(slots);
  for (std::vector<std::int32_t>& order : run.order) {
    for (std::int32_t& s : order) s = moved[static_cast<std::size_t>(s)];
  }
}

// The step a block's tags advance by from one repetition to the next (one for every tagged call
// of the body), or 0 when they do not advance.
std::int32_t tag_step_of(const Item& item) {
  for (std::size_t j = 0; j < item.period; ++j) {
    if (item.tag_step[j] != 0) return item.tag_step[j];
    if (item.rtag_step[j] != 0) return item.rtag_step[j];
  }
  return 0;
}

// Reads each block's shifted tags as the repetitions before them being absent: tags that start
// k steps further on are the block's repetition k. False, with `failure`, where a shift is no
// whole number of steps forward.
bool shifts_as_absent(const Alignment& alignment, const std::vector<Item>& items,
                      std::vector<RunReading>& readings, std::string& failure) {
  for (std::size_t k = 0; k < items.size(); ++k) {
    const std::int32_t step = tag_step_of(items[k]);
    for (std::size_t i = 0; i < readings.size(); ++i) {
      const std::int32_t shift = readings[i].shifts[k];
      if (shift == 0) continue;
      if (step == 0 || shift % step != 0 || shift / step < 0) {
        failure = fmt::format(
            "at n = {} a block's tags start {:+} from the largest run's, which is no repetition of "
            "it",
            alignment.runs[i].n, shift);
        return false;
      }
      readings[i].absent[k] = static_cast<std::size_t>(shift / step);
      readings[i].shifts[k] = 0;
    }
  }
  return true;
}

// The runs' calls read as `items`: each run's counts and shifts, or nothing, with `failure`
// naming the first run that does not read so.
std::optional<std::vector<RunReading>> read_runs(const Alignment& alignment,
                                                 const std::vector<std::vector<SlotCall>>& calls,
                                                 std::size_t longest,
                                                 const std::vector<Item>& items,
                                                 std::string& failure) {
  std::vector<RunReading> readings;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    std::optional<RunReading> read = RunReader(calls[longest], items, calls[i]).read();
    if (!read) {
      failure = fmt::format(
          "the calls of one repetition change with n, and not as blocks that repeat between "
          "the same calls (n = {} does not read like n = {})",
          alignment.runs[i].n, alignment.runs[longest].n);
      return std::nullopt;
    }
    readings.push_back(std::move(*read));
  }
  return readings;
}

// The layout of `items` with the runs' readings: a template per fixed call, a block per block
// whose repetitions and tag shift follow formulas in n; nothing, with `failure`, otherwise.
std::optional<InferredLayout> layout_of(const Alignment& alignment, const std::vector<Item>& items,
                                        std::vector<RunReading>& readings,
                                        LeadingRepetitions leading, std::string& failure) {
  InferredLayout out;
  for (std::size_t k = 0; k < items.size(); ++k) {
    const Item& item = items[k];
    if (!item.block) {
      ++out.layout.templates;
      out.tag_step.push_back(0);
      out.rtag_step.push_back(0);
      continue;
    }
    std::optional<SlotBlock> block =
        block_of_runs(alignment, readings, k, item.period, leading, failure);
    if (!block) return std::nullopt;
    if (block->count.terms.empty() && block->tag_shift == IntegerFormula{}) {
      // As many repetitions at every n: fixed calls, each with a rule of its own (a halo's
      // exchange along x, then y, then z).
      const std::size_t calls = static_cast<std::size_t>(block->count.constant) * item.period;
      out.layout.templates += static_cast<std::int64_t>(calls);
      out.tag_step.insert(out.tag_step.end(), calls, 0);
      out.rtag_step.insert(out.rtag_step.end(), calls, 0);
      continue;
    }
    block->first = out.layout.templates;
    out.layout.blocks.push_back(std::move(*block));
    out.layout.templates += static_cast<std::int64_t>(item.period);
    out.tag_step.insert(out.tag_step.end(), item.tag_step.begin(), item.tag_step.end());
    out.rtag_step.insert(out.rtag_step.end(), item.rtag_step.begin(), item.rtag_step.end());
  }
  return out;
}

}  // namespace

std::optional<InferredLayout> infer_layout(Alignment& alignment, LeadingRepetitions leading,
                                           std::string& failure) {
  std::vector<std::vector<SlotCall>> calls;
  calls.reserve(alignment.runs.size());
  for (const AlignedRun& run : alignment.runs) calls.push_back(slot_calls(run));
  if (same_slots(calls)) {
    InferredLayout out;
    out.layout.templates = static_cast<std::int64_t>(calls.front().size());
    out.tag_step.assign(calls.front().size(), 0);
    out.rtag_step.assign(calls.front().size(), 0);
    return out;
  }
  const auto longest = static_cast<std::size_t>(
      std::max_element(calls.begin(), calls.end(),
                       [](const auto& a, const auto& b) { return a.size() < b.size(); }) -
      calls.begin());
  // The first reading every run follows with formulas in n; else what stopped the first reading
  // every run follows, or the first one's.
  std::string first_failure;
  bool some_read = false;
  for (const Reading& reading : readings_of(calls[longest])) {
    const std::vector<Item> items = compress(calls[longest], reading);
    std::string why;
    std::optional<std::vector<RunReading>> readings =
        read_runs(alignment, calls, longest, items, why);
    if (readings && leading == LeadingRepetitions::Absent &&
        !shifts_as_absent(alignment, items, *readings, why)) {
      readings.reset();
    }
    std::optional<InferredLayout> out;
    if (readings) out = layout_of(alignment, items, *readings, leading, why);
    if (out) {
      for (std::size_t i = 0; i < calls.size(); ++i) {
        expand(alignment.runs[i], items, (*readings)[i]);
      }
      failure.clear();
      return out;
    }
    if (first_failure.empty() || (readings && !some_read)) first_failure = why;
    some_read = some_read || readings.has_value();
  }
  failure = first_failure;
  return std::nullopt;
}

}  // namespace p3s::model
