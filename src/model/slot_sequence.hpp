#pragma once
// All the communication slots of one phase together. Usually a phase has the same slots at
// every n and each slot gets its own rule. In some the number of slots grows with n: a
// butterfly makes one exchange per bit of n, an FFT an alltoall and then such exchanges. Then
// a block of slots repeats a number of times given by a formula in n, between fixed slots
// before and after it, and the rules of the block's slots may use the repetition index s
// (002 sec. 4.2, fig. 7).
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/integer_formula.hpp"
#include "model/peer_inference.hpp"
#include "model/peer_rule.hpp"

namespace p3s::model {

// Templates [first, first + period) repeat `count` times in place. Their tags at n are the
// templates' shifted by `tag_shift` (0 in the largest training run): a backward sweep whose first
// stage's tag names the last cell starts at a tag that grows with n.
struct SlotBlock {
  std::int64_t first = 0;
  std::int64_t period = 1;
  IntegerFormula count;
  IntegerFormula tag_shift;
  bool shifts_tags() const { return tag_shift != IntegerFormula{}; }
  bool operator==(const SlotBlock&) const = default;
};

// Where a phase's slots at n come from: its slot templates, and the blocks they may hold (in
// order, apart: the three sweeps of an ADI solver, the three loops of exchanges of a CG
// iteration, each repeated as often as a formula in n says).
struct SlotLayout {
  std::int64_t templates = 0;
  std::vector<SlotBlock> blocks;

  // Whether some block's calls repeat a number of times that depends on n.
  bool grows() const { return !blocks.empty(); }
  // Slots at n; nothing where a block's count is undefined or negative there.
  std::optional<std::int64_t> slots_at(std::int64_t n) const;
  // The template of the k-th slot at n, and s: the repetition of the block it is in (for a
  // slot outside every block, its template's index). k must be below slots_at(n).
  struct Place {
    std::int64_t template_index = 0;
    std::int64_t s = 0;
  };
  Place place(std::int64_t k, std::int64_t n) const;
  // Whether template t is in a block (its rules may use the repetition index s).
  bool in_block(std::int64_t template_index) const;
  // The index of the block template t is in; blocks.size() outside every block.
  std::size_t block_of(std::int64_t template_index) const;
  // How far template t's tags are shifted at n (its block's tag_shift; 0 outside blocks).
  std::int64_t tag_shift_at(std::int64_t template_index, std::int64_t n) const;
  // "slots 1-3 repeated log2(n) times; slots 5-8 repeated sqrt(n) - 1 times", or "".
  std::string blocks_text() const;
  bool operator==(const SlotLayout&) const = default;
};

// One phase in one run: slots[s][r] is rank r's peer in the phase's s-th communication, with
// border ranks already padded with kNoPeer (001 sec. 3.2.1) so every rank has every slot.
struct PhasePeers {
  std::int64_t n = 0;
  std::vector<std::vector<std::int64_t>> slots;
};

struct SlotSequenceModel {
  std::vector<PeerRule> rules;  // one per slot template
  bool operator==(const SlotSequenceModel&) const = default;
};

// A slot whose rule the training runs leave undecided: `alternative` reproduces every run too,
// but gives some rank another peer from n = `differs_from` on.
struct UndecidedSlot {
  std::int64_t slot = 0;
  PeerRule alternative;
  std::int64_t differs_from = 0;
  bool operator==(const UndecidedSlot&) const = default;
};

struct SlotSequenceInference {
  std::optional<SlotSequenceModel> model;  // set when every template is modelled
  std::vector<PeerRuleInference> slots;    // one report per template
  std::string reason;                      // why it is not modelled, in one line
  // Where the training runs could not decide between rules that differ at larger n: each slot
  // with each such alternative, and in words.
  std::vector<UndecidedSlot> undecided;
  std::vector<std::string> notes;

  bool modelled() const { return model.has_value(); }
};

// Each run's slots must follow `layout` at its n. Throws std::invalid_argument on no runs, a run
// whose slot count the layout does not give, or a malformed run (see infer_peer_rule).
//
// A phase's neighbours come from one decomposition of the ranks. When one process grid gives
// every slot's peers, its rules are taken for all of them, rather than a distance here and a
// bit exchange there that only equal the grid at the n traced (a 4 x 2 grid's vertical
// neighbour is r - 2, its horizontal one r XOR 1: both wrong on 8 x 4). Rules the runs cannot
// tell apart and that differ at a larger n are noted, with the n that would decide.
SlotSequenceInference infer_slot_sequence(std::span<const PhasePeers> runs,
                                          const SlotLayout& layout,
                                          const PeerInferenceOptions& options = {});

// The smallest n beyond the training runs (the largest is `largest`), up to 16 times it, where
// two rules that agree on every training run give some rank a different peer.
std::optional<std::int64_t> first_difference(const PeerRule& a, const PeerRule& b,
                                             std::int64_t largest, std::int64_t slot);

// The slots whose alternatives give other peers than their rule beyond `largest` (the largest
// training n, looked at up to 16 times it), and the note naming them; call again after
// prefer_alternative.
void find_undecided(SlotSequenceInference& inference, std::int64_t largest);

// Makes `rule` template t's rule when it is one of its alternatives (it reproduces every run
// too); false, changing nothing, when it is not.
bool prefer_alternative(SlotSequenceInference& inference, std::size_t t, const PeerRule& rule);

void to_json(nlohmann::json& out, const SlotSequenceModel& model);
void from_json(const nlohmann::json& in, SlotSequenceModel& model);
void to_json(nlohmann::json& out, const SlotLayout& layout);
void from_json(const nlohmann::json& in, SlotLayout& layout);

}  // namespace p3s::model
