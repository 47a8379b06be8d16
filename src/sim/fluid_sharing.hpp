#pragma once
// Flows sharing resources (links, a host's cores) as SimGrid's max-min model shares them, but
// settled around what changed: each resource has a level, found by water-filling its flows
// (weights 1 / penalty, each flow at most what it may take elsewhere: its bound and its other
// resources' levels), and a flow's rate is the least its resources give it. The flows started
// or ended at one instant have their resources levelled again, once; a resource whose level
// moved has its flows' other resources levelled in turn, until no level moves (max-min's fixed
// point), and the flows of the resources whose level moved are rated again. So an instant
// costs what the links whose levels move carry: around a stencil's exchange, its own links; on
// a link that N flows cross, N. A FATPIPE link bounds each flow on its own, as SimGrid's
// maximum constraint does: its level is set by the heaviest of its flows not held back
// elsewhere, and does not move while they all weigh the same (src/sim/README.md).
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace p3s::sim {

class FluidSharing {
 public:
  using Resource = std::uint32_t;
  using Flow = std::uint32_t;
  struct Use {
    Resource resource = 0;
    double coefficient = 1;  // the flow's rate counts this many times on the resource
  };

  // `shared` false: each flow is bounded on its own (SimGrid's FATPIPE), as the weight of
  // the heaviest flow not held back elsewhere allows: the capacity when they weigh the same.
  Resource add_resource(double capacity, bool shared);

  bool shared(Resource r) const { return resources_[r].shared; }

  // A flow of `amount` (bytes, flops) from `now` at most `bound` per second, sharing with
  // weight 1 / `penalty` on each of `uses`' resources (each once; they must outlive the
  // flow). It is rated, and its neighbours re-rated, by the next settle().
  Flow start(double now, double amount, double bound, double penalty, std::span<const Use> uses);

  // Rates the flows started and re-rates those around the flows started or ended since the
  // last call: once per instant, however many changed then.
  void settle(double now);
  // The next flow to finish and when, if any flow runs (after settle()).
  std::optional<std::pair<double, Flow>> next_finish() const;
  // Ends `flow` at `now` (what next_finish returned); settle() re-rates its neighbours.
  void finish(Flow flow);

  std::size_t running() const { return heap_.size(); }

 private:
  struct FlowState {
    double remaining = 0;
    double rate = 0;
    double last = 0;  // when `remaining` was last brought up to date
    double bound = 0;
    double penalty = 1;
    std::span<const Use> uses;
    double finish = 0;  // when it ends at its present rate
    std::uint32_t heap_index = 0;
    std::uint32_t generation = 0;  // how often its id was given to a flow
    bool running = false;
  };
  // A flow on a resource, as of its `generation`: an ended flow's members are dropped when the
  // resource is next levelled (a link that N flows end on would search its members N times).
  struct Member {
    Flow flow;
    std::uint32_t generation;
    double coefficient;
  };
  struct ResourceState {
    double capacity = 0;
    bool shared = true;
    double level = 0;           // a flow of penalty p may take level / p here
    double load = 0;            // shared: what its flows take of it (coefficient x rate)
    double arriving = 0;        // unfilled: the most the flows started on it may take
    bool queued = false;        // to be levelled in this settle()
    bool dirty = false;         // its members changed since the last settle()
    bool growing = false;       // unfilled, and a flow of it takes more since the last check
    std::uint32_t running = 0;  // its members that run (`members` may hold ended ones)
    std::vector<Member> members;
    // FATPIPE: its running members' weights (coefficient / penalty), each with its count.
    std::vector<std::pair<double, std::uint32_t>> weights;
  };

  // The least `f` may take on its resources other than `except`, and within its bound.
  double cap_elsewhere(const FlowState& f, Resource except) const;
  static constexpr Resource kNoResource = std::numeric_limits<Resource>::max();
  // Levels the resources whose members changed, and those their moves reach, until no level
  // moves; the moved ones are left in moved_.
  void level_until_fixed();
  void level_of(Resource id);
  void level_of_fatpipe(ResourceState& r, Resource id);
  // Whether a resource's level depends on what its flows may take elsewhere: not for a flow
  // alone, nor on a FATPIPE link whose flows weigh the same.
  static bool follows_caps(const ResourceState& r);
  // Whether `m` is still its flow's (members of ended flows are dropped lazily).
  bool runs(const Member& m) const;
  // A FATPIPE resource's running members' weights, counted.
  static void add_weight(ResourceState& r, double weight);
  static void remove_weight(ResourceState& r, double weight);
  // Adds `change` to `f`'s rate in its shared resources' loads, noting those unfilled that
  // grow.
  void add_load(const FlowState& f, double change);
  // Whether a resource its flows did not fill is filled now: then it is left in filled_, to
  // be levelled.
  bool fills_again();
  // A shared resource its flows do not fill: its level is infinite, and it is not levelled
  // again while what they take fits (settle()).
  static bool unfilled(const ResourceState& r);
  // Below this share of its capacity, an unfilled resource stays so without levelling.
  static constexpr double kUnfilledMargin = 1e-9;
  double rate_of(const FlowState& f) const;
  void mark_dirty(std::span<const Use> uses);
  void rerate(double now, FlowState& f);
  void enqueue(Resource id);

  // The relative change of a level or rate below which it is kept.
  static constexpr double kRateTolerance = 1e-12;
  void schedule(FlowState& f);
  // The running flows in a binary min-heap on their finish, each knowing its place, so that a
  // re-rated flow moves instead of leaving a stale entry behind. Entries carry their finish:
  // comparing them reads the heap only, not the flows.
  struct HeapEntry {
    double finish;
    Flow flow;
  };
  void place(std::size_t index, HeapEntry entry);
  void sift_up(std::size_t index);
  void sift_down(std::size_t index);

  std::vector<ResourceState> resources_;
  std::vector<FlowState> flows_;
  std::vector<Flow> free_;
  std::vector<HeapEntry> heap_;
  std::vector<std::pair<double, double>> scratch_;  // (saturation level, weight) of a resource
  std::vector<Resource> work_;                      // resources to level in this settle
  std::vector<Resource> moved_;                     // those whose level moved
  std::vector<Resource> growing_;                   // unfilled ones whose load grew
  std::vector<Resource> filled_;                    // unfilled ones filled now
  std::vector<Resource> dirty_;                     // resources whose members changed
  std::vector<Flow> unrated_;                       // flows started since the last settle
};

}  // namespace p3s::sim
