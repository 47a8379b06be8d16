#pragma once
// Which send slot of a phase feeds each receive slot: the messages a receive takes are the
// sends of one slot of its peer. Read off a training run by MPI's matching order, and, where
// that run cannot tell (the two neighbours of a dimension of extent 2 are one rank), from the
// peer rules at a larger n.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "model/phase_alignment.hpp"
#include "model/slt.hpp"

namespace p3s::model {

// Per slot of `run`, the send slot that feeds its receives on every rank, if one does: the
// k-th receive from a peer with a tag takes that peer's k-th send to it with that tag.
std::vector<std::optional<std::int32_t>> feeding_slots(const AlignedRun& run,
                                                       std::size_t slot_count);

// Where the phase's peer rules at a larger n than `largest` give a receive slot exactly one
// send slot whose destinations are its sources, that slot becomes its feeder.
void decide_feeders_by_rules(const PhaseModel& phase, std::int64_t largest,
                             std::vector<std::optional<std::int32_t>>& feeder);

}  // namespace p3s::model
