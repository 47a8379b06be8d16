#include "model/undecided_rules.hpp"

#include <fmt/core.h>

#include <algorithm>

namespace p3s::model {

const PeerRule& chosen_rule(const PhaseModel& phase, const UndecidedRule& undecided) {
  const std::optional<SlotSequenceModel>& rules = undecided.side == "destination" ? phase.dst_rules
                                                  : undecided.side == "source"    ? phase.src_rules
                                                                               : phase.root_rules;
  return rules.value().rules.at(static_cast<std::size_t>(undecided.undecided.slot));
}

const UndecidedRule* undecided_at(const PhaseModel& phase, std::int64_t n) {
  for (const UndecidedRule& u : phase.undecided) {
    if (rules_differ_at(chosen_rule(phase, u), u.undecided.alternative, n, u.undecided.slot)) {
      return &u;
    }
  }
  return nullptr;
}

std::optional<std::int64_t> settling_run(const PhaseModel& phase, std::int64_t largest) {
  if (phase.undecided.empty()) return std::nullopt;
  for (std::int64_t n = largest + 1; n <= 16 * largest; ++n) {
    const bool all =
        std::all_of(phase.undecided.begin(), phase.undecided.end(), [&](const UndecidedRule& u) {
          return rules_differ_at(chosen_rule(phase, u), u.undecided.alternative, n,
                                 u.undecided.slot);
        });
    if (all) return n;
  }
  return std::nullopt;
}

std::vector<std::int64_t> undecided_ns(const PhaseModel& phase, std::int64_t largest) {
  std::vector<std::int64_t> ns;
  if (phase.undecided.empty()) return ns;
  for (std::int64_t n = largest + 1; n <= 16 * largest; ++n) {
    if (undecided_at(phase, n) != nullptr) ns.push_back(n);
  }
  return ns;
}

std::string undecided_text(const PhaseModel& phase, const UndecidedRule& undecided) {
  return fmt::format("the {} of slot {}: '{}' and '{}' both reproduce every training run",
                     undecided.side, undecided.undecided.slot, chosen_rule(phase, undecided).text(),
                     undecided.undecided.alternative.text());
}

}  // namespace p3s::model
