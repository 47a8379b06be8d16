#pragma once
// The SLT instantiated at N processes: a core::ScaledTrace whose rules, volumes, weights and
// compute are evaluated once for N, so each rank's events cost a few operations per event
// and nothing is kept per rank.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/scaled_trace.hpp"
#include "model/slt.hpp"

namespace p3s::model {

struct InstantiateOptions {
  // Phases whose pattern is not modelled are refused unless this is set; then the largest
  // run's pattern is tiled over N in blocks of its size (N must be a multiple of it).
  bool carry_nearest = false;
  // A phase that cannot be instantiated at N (not modelled and not carried, a rule undefined
  // at N) is left out instead of refusing N; omitted() says which and why.
  bool omit_unavailable = false;
  // A phase whose peers the training runs leave undecided at N (undecided_rules.hpp) is
  // refused unless this is set; then the rules the model chose are used.
  bool accept_undecided = false;
};

struct OmittedPhase {
  std::string name;
  std::string reason;
};

class SltScaledTrace final : public core::ScaledTrace {
 public:
  // Throws std::domain_error when N is outside what the rules define (a square grid at a
  // non-square N) or a phase is not modelled and carrying was not asked for; the message
  // names the phase. Refers to `slt`, which must outlive it.
  SltScaledTrace(const Slt& slt, int nprocs, const InstantiateOptions& options = {});

  int nprocs() const override { return nprocs_; }
  const std::vector<core::ScaledPhase>& phases() const override { return phases_; }
  void phase_events(int phase, int rank, std::vector<core::Event>& out) const override;
  std::vector<core::Communicator> communicators(int rank) const override;

  // CPU ns of one repetition of `phase` on `rank`, from its instruction group's CRM.
  double compute_ns(int phase, int rank) const;

  // What was carried instead of modelled, in words (empty when everything is modelled).
  const std::vector<std::string>& warnings() const { return warnings_; }
  // The SLT's phases left out (InstantiateOptions::omit_unavailable), with why.
  const std::vector<OmittedPhase>& omitted() const { return omitted_; }

 private:
  struct InstantiatedSlot {
    const SlotModel* model = nullptr;
    std::int32_t template_index = 0;  // the model's slot template it repeats
    PeerMap dst, src, root;
    std::int64_t bytes = 0;
    std::int64_t rbytes = 0;
    std::int32_t tag = -1;  // at its repetition of its block
    std::int32_t rtag = -1;
    std::int32_t comm = 0;       // communicator id: 0 the world, else kFirstSubId + k
    std::int64_t comm_root = 0;  // the root's place among the sub-communicator's members
  };
  // Ids 0 and 1 are the world and the rank itself, as in a trace.
  static constexpr std::int32_t kFirstSubId = 2;
  // One instruction group at N: ranks in [first, end) with r mod modulus in `residues`
  // compute `ns` per repetition.
  struct GroupCompute {
    std::int64_t first = 0;
    std::int64_t end = 0;
    std::int64_t modulus = 1;
    std::vector<std::int64_t> residues;
    double ns = 0;
  };
  struct InstantiatedPhase {
    const PhaseModel* model = nullptr;
    std::vector<InstantiatedSlot> slots;
    std::vector<GroupCompute> groups;
    std::vector<double> slot_shares;          // one per slot at N
    std::vector<std::int32_t> growing_order;  // a growing phase: every slot, in order
    double compute_ns(int rank) const;
  };

  void carried_events(const InstantiatedPhase& phase, int rank,
                      std::vector<core::Event>& out) const;
  // Phase k at N; throws std::domain_error naming the phase when it cannot be.
  InstantiatedPhase instantiate(const Slt& slt, std::size_t k, const InstantiateOptions& options);
  // The phase's instruction groups at N, what their fits say beyond where they are trusted
  // into `notes`; throws std::domain_error naming the phase where a fit goes negative.
  std::vector<GroupCompute> group_computes(const PhaseCompute& compute, const PhaseModel& phase,
                                           std::vector<std::string>& notes) const;
  // A modelled phase's slots at N; throws std::domain_error where a rule or fit is undefined.
  std::vector<InstantiatedSlot> instantiate_slots(const PhaseModel& phase,
                                                  std::vector<std::string>& notes);
  // Rank's event in one slot, requests aside; nothing where the slot is point-to-point and the
  // rank has no peer in it (a null communication).
  std::optional<core::Event> slot_event(const InstantiatedSlot& slot, int rank) const;
  // False for a wait made for the posts after it (SlotModel::guards) where the rank makes none.
  bool makes_a_guarded_post(const InstantiatedPhase& inst, const SlotModel& m, int rank) const;
  // The id of a slot's sub-communicator at N, and its root's place among the members; throws
  // std::domain_error where the rule is undefined at N.
  std::int32_t sub_communicator(const SlotModel& slot, std::int64_t template_index,
                                std::int64_t& root_place);

  int nprocs_ = 0;
  // The distinct sub-communicator rules of the instantiated phases: rule k is id kFirstSubId+k.
  std::vector<const CommunicatorRule*> sub_rules_;
  std::vector<core::ScaledPhase> phases_;
  std::vector<InstantiatedPhase> instantiated_;
  std::vector<std::string> warnings_;
  std::vector<OmittedPhase> omitted_;
};

}  // namespace p3s::model
