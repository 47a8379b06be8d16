#pragma once
// Rules the training runs leave undecided (DESIGN.md: an undecided rule is a refusal, not a
// choice): where two rules reproduce every run and give other peers at N, nothing says which one
// the application follows, so `p3s model` refuses to pass it and instantiation refuses such an
// N, naming the slots, both rules and the run that would settle it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/slt.hpp"

namespace p3s::model {

// The rule the model chose for an undecided slot.
const PeerRule& chosen_rule(const PhaseModel& phase, const UndecidedRule& undecided);

// The first undecided slot whose two rules give some rank another peer at n, or nothing.
const UndecidedRule* undecided_at(const PhaseModel& phase, std::int64_t n);

// The smallest n beyond `largest` (up to 16 times it) where every undecided slot's two rules
// differ: a training run there decides them all. Nothing when no such n is that near.
std::optional<std::int64_t> settling_run(const PhaseModel& phase, std::int64_t largest);

// The n beyond `largest`, up to 16 times it, where some undecided slot's two rules differ.
std::vector<std::int64_t> undecided_ns(const PhaseModel& phase, std::int64_t largest);

// "destination of slot 3: 'peer = ...' and 'peer = ...' both reproduce the training runs".
std::string undecided_text(const PhaseModel& phase, const UndecidedRule& undecided);

}  // namespace p3s::model
