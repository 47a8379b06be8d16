#include "model/subcommunicator_model.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "model/integer_formula_fit.hpp"

namespace p3s::model {
namespace {

using signature::EventToken;

// The members, as world ranks, of the communicator rank r's event is on.
std::vector<std::int64_t> members_of_event(const PhaseRun& source, const EventToken& e,
                                           std::size_t r, std::int64_t n) {
  std::vector<std::int64_t> members;
  for (std::int32_t relative : source.comms[r][static_cast<std::size_t>(e.comm)].members) {
    members.push_back(absolute_peer(relative, static_cast<std::int64_t>(r), n));
  }
  return members;
}

// One run's communicator of the slot, rank by rank, into `sample`; for a rooted collective
// also the root's place among the members, into `roots`. False, with the reason in
// `failures`, when a rank makes the slot on two communicators or its root is no member.
bool sample_run(const AlignedRun& run, const PhaseRun& source,
                const std::vector<std::size_t>& slots, std::size_t template_index,
                const SlotModel& slot, CommunicatorSample& sample,
                std::vector<FormulaSample>& roots, std::vector<std::string>& failures) {
  for (const std::size_t k : slots) {
    for (std::size_t r = 0; r < run.slot_events[k].size(); ++r) {
      const auto& e = run.slot_events[k][r];
      if (!e || r >= source.comms.size() ||
          static_cast<std::size_t>(e->comm) >= source.comms[r].size()) {
        continue;
      }
      const std::vector<std::int64_t> members = members_of_event(source, *e, r, run.n);
      std::vector<std::int64_t>& seen = sample.members[r];
      if (!seen.empty() && seen != members) {
        failures.push_back(fmt::format(
            "slot {} ({}): rank {} at n = {} makes it on two different sub-communicators",
            template_index, core::op_name(slot.op), r, run.n));
        return false;
      }
      seen = members;
      if (!slot.rooted) continue;
      const std::int64_t root = absolute_peer(e->root, static_cast<std::int64_t>(r), run.n);
      const auto at = std::find(members.begin(), members.end(), root);
      if (at == members.end()) {
        failures.push_back(
            fmt::format("slot {} ({}): at n = {} rank {}'s root {} is not in its "
                        "communicator",
                        template_index, core::op_name(slot.op), run.n, r, root));
        return false;
      }
      roots.push_back({run.n, 0, at - members.begin()});
    }
  }
  return true;
}

// The root's place among the members as a formula in n: the one place every run gave, or a
// fit; nothing when the places follow no formula.
std::optional<IntegerFormula> root_place(const std::vector<FormulaSample>& roots) {
  const bool one_place = std::all_of(roots.begin(), roots.end(), [&](const FormulaSample& s) {
    return s.value == roots.front().value;
  });
  if (one_place && !roots.empty()) return IntegerFormula{roots.front().value, {}};
  return fit_integer_formula(roots, size_bases());
}

}  // namespace

bool model_subcommunicator(const Alignment& alignment, std::span<const PhaseRun> phase_runs,
                           const std::vector<std::vector<std::size_t>>& slots_of_run,
                           std::size_t template_index, SlotModel& slot,
                           std::vector<std::string>& failures) {
  std::vector<CommunicatorSample> samples;
  std::vector<FormulaSample> roots;
  for (std::size_t i = 0; i < alignment.runs.size(); ++i) {
    const AlignedRun& run = alignment.runs[i];
    CommunicatorSample sample{
        run.n, std::vector<std::vector<std::int64_t>>(static_cast<std::size_t>(run.n))};
    if (!sample_run(run, phase_runs[i], slots_of_run[i], template_index, slot, sample, roots,
                    failures)) {
      return false;
    }
    samples.push_back(std::move(sample));
  }
  slot.comm = infer_communicator_rule(samples);
  if (!slot.comm) {
    failures.push_back(fmt::format(
        "slot {} ({}) uses a sub-communicator whose members follow no rule this model knows (a "
        "row or column of a process grid, blocks or strides of ranks)",
        template_index, core::op_name(slot.op)));
    return false;
  }
  if (!slot.rooted) return true;
  slot.comm_root = root_place(roots);
  if (!slot.comm_root) {
    failures.push_back(fmt::format(
        "slot {} ({}): the root's place in the sub-communicator follows no formula in n",
        template_index, core::op_name(slot.op)));
    return false;
  }
  return true;
}

}  // namespace p3s::model
