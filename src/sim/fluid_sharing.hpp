#pragma once
// Flows sharing resources (links, a host's cores) as SimGrid's max-min model shares them, but
// solved locally: a resource's capacity is shared among the flows on it in proportion to
// 1 / penalty, each flow at most its own bound (water-filling on that resource alone), and a
// flow's rate is the least its resources give it. Starting or ending a flow re-rates only the
// flows on its own resources, so an event costs what those resources carry, not what the
// whole platform carries. It equals max-min where every flow on a resource has its bottleneck
// there or in its own bound (a symmetric exchange, a lone transfer); elsewhere a flow may be
// given less than max-min would give it (see src/sim/README.md for the measured difference).
#include <cstdint>
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

  // `shared` false: every flow gets up to the capacity on its own (SimGrid's FATPIPE).
  Resource add_resource(double capacity, bool shared);

  // A flow of `amount` (bytes, flops) from `now` at most `bound` per second, sharing with
  // weight 1 / `penalty` on each of `uses`' resources (which must outlive the flow).
  Flow start(double now, double amount, double bound, double penalty, std::span<const Use> uses);

  // The next flow to finish and when, if any flow runs.
  std::optional<std::pair<double, Flow>> next_finish();
  // Ends `flow` at `now` (what next_finish returned) and re-rates its neighbours.
  void finish(double now, Flow flow);

  std::size_t running() const { return running_; }

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
    std::uint32_t stamp = 0;
    bool running = false;
  };
  struct Member {
    Flow flow;
    double coefficient;
  };
  struct ResourceState {
    double capacity = 0;
    bool shared = true;
    double level = 0;  // a flow of penalty p may take level / p here
    std::vector<Member> members;
  };

  void level_of(ResourceState& r);
  double rate_of(const FlowState& f) const;
  void rerate_around(double now, std::span<const Use> uses);
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
  std::uint32_t stamp_ = 0;
  std::size_t running_ = 0;
  std::vector<std::pair<double, double>> scratch_;  // (saturation level, weight) of a resource
};

}  // namespace p3s::sim
