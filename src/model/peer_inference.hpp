#pragma once
// Infers a peer rule from the small-scale runs: the local equation at each n (002 sec. 4.1),
// then its parameters as functions of n (sec. 4.2), accepted only when the result reproduces
// every rank's peer at every training n.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/peer_rule.hpp"
#include "model/process_grid.hpp"

namespace p3s::model {

// One communication slot of one phase in one run: the peer of every rank.
struct PeerSample {
  std::int64_t n = 0;
  std::int64_t slot = 0;            // the slot's position in its phase
  std::vector<std::int64_t> peers;  // peers[r] for r in 0..n-1: a world rank or kNoPeer
};

struct PeerMismatch {
  std::int64_t n = 0;
  std::int64_t slot = 0;
  std::int64_t rank = 0;
  std::int64_t expected = 0;   // what the run did
  std::int64_t predicted = 0;  // what the rule says
  bool operator==(const PeerMismatch&) const = default;
};

struct PeerRuleInference {
  std::optional<PeerRule> rule;  // set when a rule reproduces every training peer exactly
  // Every rule that reproduces them, the chosen one first, then by preference: the runs may
  // not tell a grid's neighbour from a distance that equals it at the n traced.
  std::vector<PeerRule> alternatives;
  // When not modelled: the closest candidate, why it was not accepted, and where it is wrong.
  std::string closest;
  std::string reason;
  std::vector<PeerMismatch> mismatches;  // the first few, in run and rank order
  std::size_t mismatch_count = 0;
  std::size_t checked_count = 0;  // rank peers compared, over all runs

  bool modelled() const { return rule.has_value(); }
  bool operator==(const PeerRuleInference&) const = default;
};

struct PeerInferenceOptions {
  // Let parameters depend on the slot index s as well as n (phases whose communications grow
  // with n, such as a butterfly's r XOR 2^s).
  bool slot_indexed = false;
  std::size_t reported_mismatches = 8;
  // Grid families the runs rule out (a run that called MPI_Dims_create lays its grid out as
  // that does, not as the least-surface grid an application computes): never tried.
  std::vector<GridShape> excluded_shapes;
};

// Throws std::invalid_argument on no samples, or a sample whose peers are not n ranks in
// -1..n-1.
PeerRuleInference infer_peer_rule(std::span<const PeerSample> samples,
                                  const PeerInferenceOptions& options = {});

void to_json(nlohmann::json& out, const PeerRuleInference& inference);
void from_json(const nlohmann::json& in, PeerRuleInference& inference);

}  // namespace p3s::model
