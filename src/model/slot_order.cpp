#include "model/slot_order.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>

namespace p3s::model {
namespace {

// The calls rank r of `run` would make under `order`: its variant, less the slots the rank
// has no event in.
std::vector<std::int32_t> expected_order(const AlignedRun& run, const SlotOrder& order,
                                         std::size_t r) {
  std::vector<std::int32_t> expected;
  for (std::int32_t s : order.variants[r % static_cast<std::size_t>(order.modulus)]) {
    if (run.slot_events[static_cast<std::size_t>(s)][r]) expected.push_back(s);
  }
  return expected;
}

bool reproduces(const Alignment& alignment, const SlotOrder& order) {
  for (const AlignedRun& run : alignment.runs) {
    for (std::size_t r = 0; r < run.order.size(); ++r) {
      if (expected_order(run, order, r) != run.order[r]) return false;
    }
  }
  return true;
}

// The variant of the ranks r = c mod m: the longest order one of them made in some run, then
// the slots it lacks, in slot order.
std::vector<std::int32_t> residue_variant(const Alignment& alignment, std::size_t slot_count,
                                          std::size_t m, std::size_t c) {
  std::vector<std::int32_t> variant;
  for (const AlignedRun& run : alignment.runs) {
    for (std::size_t r = c; r < run.order.size(); r += m) {
      if (run.order[r].size() > variant.size()) variant = run.order[r];
    }
  }
  for (std::size_t s = 0; s < slot_count; ++s) {
    const auto slot = static_cast<std::int32_t>(s);
    if (std::find(variant.begin(), variant.end(), slot) == variant.end()) variant.push_back(slot);
  }
  return variant;
}

// Each rank's order of its slots as a variant chosen by r mod m, for the smallest m that
// reproduces every rank of every run.
std::optional<SlotOrder> infer_order(const Alignment& alignment, std::size_t slot_count) {
  // The slots' own order, which the alignment made one every rank follows when it could.
  SlotOrder in_order{1, {std::vector<std::int32_t>(slot_count)}};
  std::iota(in_order.variants[0].begin(), in_order.variants[0].end(), 0);
  if (reproduces(alignment, in_order)) return in_order;
  for (std::size_t m = 1; m <= 4; ++m) {
    SlotOrder order;
    order.modulus = static_cast<std::int64_t>(m);
    order.variants.reserve(m);
    for (std::size_t c = 0; c < m; ++c) {
      order.variants.push_back(residue_variant(alignment, slot_count, m, c));
    }
    if (reproduces(alignment, order)) return order;
  }
  return std::nullopt;
}

}  // namespace

bool infer_slot_order(const Alignment& alignment, const SlotTemplates& templates,
                      std::size_t slot_count, PhaseModel& phase,
                      std::vector<std::string>& failures) {
  if (templates.layout.grows()) {
    // Every rank makes the calls of a growing phase in the same order: its slots' order.
    phase.order = SlotOrder{1, {{}}};
    return true;
  }
  auto order = infer_order(alignment, slot_count);
  if (!order) {
    failures.push_back("ranks order their calls in ways no rule over r mod 1..4 reproduces");
    return false;
  }
  phase.order = *order;
  return true;
}

}  // namespace p3s::model
