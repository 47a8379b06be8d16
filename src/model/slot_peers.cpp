#include "model/slot_peers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <string_view>

#include "model/slot_feeding.hpp"

namespace p3s::model {
namespace {

using signature::EventToken;

enum class Role : std::uint8_t { Dst, Src, Root };

std::int32_t relative_of(const EventToken& t, Role role) {
  switch (role) {
    case Role::Dst:
      return t.dst;
    case Role::Src:
      return t.src;
    case Role::Root:
      return t.root;
  }
  return -1;
}

std::string_view role_name(Role role) {
  switch (role) {
    case Role::Dst:
      return "destination";
    case Role::Src:
      return "source";
    case Role::Root:
      return "root";
  }
  return "?";
}

std::string describe_failure(const SlotSequenceInference& inference, Role role) {
  std::string text = fmt::format("{}: {}", role_name(role), inference.reason);
  for (const PeerRuleInference& slot : inference.slots) {
    if (slot.modelled()) continue;
    for (const PeerMismatch& m : slot.mismatches) {
      text += fmt::format("; n = {} slot {} rank {}: peer {}, rule '{}' gives {}", m.n, m.slot,
                          m.rank, m.expected, slot.closest, m.predicted);
    }
    break;
  }
  return text;
}

// Whether the slot has a peer of this role.
bool plays_role(const SlotModel& slot, Role role) {
  return role == Role::Dst ? slot.sends : role == Role::Src ? slot.receives : slot.rooted;
}

// Every run's peers on one side of its slots, as world ranks (kNoPeer where a rank has no
// event in the slot).
std::vector<PhasePeers> peers_in_role(const Alignment& alignment, const SlotTemplates& templates,
                                      const std::vector<SlotModel>& slots, Role role) {
  std::vector<PhasePeers> peers;
  for (std::size_t i = 0; i < alignment.runs.size(); ++i) {
    const AlignedRun& run = alignment.runs[i];
    PhasePeers p;
    p.n = run.n;
    for (std::size_t k = 0; k < run.slot_events.size(); ++k) {
      const auto& slot_events = run.slot_events[k];
      std::vector<std::int64_t> of_slot(slot_events.size(), kNoPeer);
      // A sub-communicator's root is a place among its members (SlotModel::comm_root).
      const bool sub_root = role == Role::Root && slots[templates.template_of_slot[i][k]].comm;
      for (std::size_t r = 0; r < slot_events.size() && !sub_root; ++r) {
        if (slot_events[r]) {
          of_slot[r] = absolute_peer(relative_of(*slot_events[r], role),
                                     static_cast<std::int64_t>(r), run.n);
        }
      }
      p.slots.push_back(std::move(of_slot));
    }
    peers.push_back(std::move(p));
  }
  return peers;
}

// A receive takes what its feeding send slot sends: its sources are the inverse of that slot's
// destinations. Where the runs leave a source undecided (the two neighbours of a dimension of
// extent 2 are one rank), the inverse of the feeder's rule, which reproduces them as well,
// becomes the rule, so that at larger n every message still has its receive.
void sources_from_feeders(const Alignment& alignment, const SlotTemplates& templates,
                          const PhaseModel& phase, SlotSequenceInference& sources) {
  if (templates.layout.block || !phase.dst_rules) return;
  const std::vector<std::optional<std::int32_t>> feeder =
      feeding_slots(alignment.runs.back(), phase.dst_rules->rules.size());
  for (std::size_t s = 0; s < feeder.size() && s < sources.slots.size(); ++s) {
    if (!feeder[s] || !sources.slots[s].rule) continue;
    const std::optional<PeerRule> from =
        inverse(phase.dst_rules->rules[static_cast<std::size_t>(*feeder[s])]);
    if (from) prefer_alternative(sources, s, *from);
  }
}

}  // namespace

bool infer_peer_rules(const Alignment& alignment, const SlotTemplates& templates,
                      const std::vector<SlotModel>& slots, const PeerInferenceOptions& options,
                      PhaseModel& phase, std::vector<std::string>& failures) {
  for (Role role : {Role::Dst, Role::Src, Role::Root}) {
    const bool used = std::any_of(slots.begin(), slots.end(),
                                  [&](const SlotModel& slot) { return plays_role(slot, role); });
    if (!used) continue;
    SlotSequenceInference inference = infer_slot_sequence(
        peers_in_role(alignment, templates, slots, role), templates.layout, options);
    if (!inference.modelled()) {
      failures.push_back(describe_failure(inference, role));
      return false;
    }
    if (role == Role::Src) sources_from_feeders(alignment, templates, phase, inference);
    std::int64_t largest = 0;
    for (const AlignedRun& run : alignment.runs) largest = std::max(largest, run.n);
    find_undecided(inference, largest);
    for (const std::string& note : inference.notes) {
      phase.notes.push_back(fmt::format("{}: {}", role_name(role), note));
    }
    for (const UndecidedSlot& u : inference.undecided) {
      phase.undecided.push_back({std::string(role_name(role)), u});
    }
    (role == Role::Dst   ? phase.dst_rules
     : role == Role::Src ? phase.src_rules
                         : phase.root_rules) = inference.model;
  }
  return true;
}

}  // namespace p3s::model
