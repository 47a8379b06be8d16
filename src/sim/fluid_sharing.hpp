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
//
// A shared resource whose flows all take an even share (none held back elsewhere) and that
// carries at least kGroupMin of them forms a *group*: its flows, its riders, progress on one
// virtual clock that runs at its level, as in fair queueing. Each rider ends when the clock
// reaches its virtual finish, so a move of the level costs the group's clock and its place in
// the finish heap, not a re-rating of every rider; and while its flows come and go without
// their other resources moving, the level is the capacity over the riders' weight, found
// without a scan. On the riders' other shared resources the group counts as one member of
// their summed weight. So the N messages of an incast cost O(log N) each, not O(N).
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <unordered_map>
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

  std::size_t running() const { return running_; }

 private:
  static constexpr std::uint32_t kNoGroup = std::numeric_limits<std::uint32_t>::max();
  struct FlowState {
    double remaining = 0;
    double rate = 0;
    double last = 0;  // when `remaining` was last brought up to date
    double bound = 0;
    double penalty = 1;
    std::span<const Use> uses;
    double finish = 0;  // when it ends at its present rate
    std::uint32_t heap_index = 0;
    std::uint32_t generation = 0;    // how often its id was given to a flow
    std::uint32_t group = kNoGroup;  // the group it rides, if any
    std::uint32_t rated = 0;         // the rating pass that last rated it
    bool running = false;
  };
  // A flow on a resource, as of its `generation`: an ended flow's members are dropped when the
  // resource is next levelled (a link that N flows end on would search its members N times).
  struct Member {
    Flow flow;
    std::uint32_t generation;
    double coefficient;
  };
  struct RiderShare {
    std::uint32_t group;
    std::uint32_t riders;
    double weight;  // their coefficients here over their penalties, summed
  };
  struct ResourceState {
    double capacity = 0;
    double level = 0;     // a flow of penalty p may take level / p here
    double load = 0;      // shared: what its flows take of it (coefficient x rate)
    double arriving = 0;  // unfilled: the most the flows started on it may take
    bool shared = true;
    bool queued = false;   // to be levelled in this settle()
    bool dirty = false;    // its members changed since the last settle()
    bool growing = false;  // unfilled, and a flow of it takes more since the last check
    bool forming = false;  // to form a group once levelled (level_until_fixed())
    // Shared, and levelled last with every member taking an even share (none held back
    // elsewhere): note_caps_moved().
    bool even = false;
    std::uint32_t running = 0;  // its members that run (`members` may hold ended ones)
    std::uint32_t group = kNoGroup;
    std::vector<Member> members;  // its flows but the riders of other groups, if shared
    // Shared: the riders of groups crossing it (not its own group's), one share per group.
    std::vector<RiderShare> shares;
    // FATPIPE: its running members' weights (coefficient / penalty), each with its count.
    std::vector<std::pair<double, std::uint32_t>> weights;
  };

  // Fewer flows than this on a resource gain nothing from a group.
  static constexpr std::uint32_t kGroupMin = 8;
  struct Rider {
    double finish;  // on the group's clock: where it ends
    Flow flow;
    bool operator>(const Rider& other) const;
  };
  // A rider's resources other than the group's that follow caps (their level moves with the
  // riders' rates) or are unfilled (their load does): per resource, the riders' summed
  // coefficient / penalty, so that a move of the group's level reaches each resource once.
  struct Neighbour {
    double weight = 0;
    std::uint32_t riders = 0;
  };
  struct Group {
    Resource resource = 0;
    double clock = 0;           // a rider of penalty p progresses clock / p
    double clock_at = 0;        // when `clock` was last brought up to date
    double level = 0;           // the level the clock runs at (the resource's, once rated)
    double smallest = 0;        // the least virtual amount joined since the clock was last rebased
    std::vector<Rider> riders;  // a binary min-heap on their finish
    // The resource's running members' weights (coefficient / penalty), kept as they come and
    // go; at most the least a member may take elsewhere (x its penalty), as last seen; the
    // members whose other resources moved since, and how many started since (the last
    // ones), to check; whether a level all of them see elsewhere moved (check them all).
    double weight = 0;
    double floor = 0;
    std::vector<Flow> recheck;
    std::uint32_t unchecked = 0;
    bool caps_moved = false;
    std::unordered_map<Resource, Neighbour> neighbours;
    std::uint32_t heap_index = 0;
    bool queued = false;  // its next finish is in the finish heap
  };
  // The finish heap holds flows and groups: a group's entry carries this tag.
  static constexpr Flow kGroupTag = Flow{1} << 31;

  // The least `f` may take on its resources other than `except`, and within its bound.
  double cap_elsewhere(const FlowState& f, Resource except) const;
  static constexpr Resource kNoResource = std::numeric_limits<Resource>::max();
  // Levels the resources whose members changed, and those their moves reach, until no level
  // moves; the moved ones are left in moved_. Groups found uneven are dissolved at `now`, and
  // those of resources found even formed.
  void level_until_fixed(double now);
  void level_of(Resource id, double now);
  // A grouped resource whose flows only came and went (none of their other resources moved):
  // its level is its capacity over their weight if the least any may take elsewhere, and
  // what the new ones may, allow it. False if it must be levelled in full.
  bool keeps_even_share(Resource id);
  // Resource `id`'s level moved: the resources whose levels depend on it are levelled again.
  void spread_move(Resource id);
  // Takes the resources marked dirty into this settle's levelling.
  void take_dirty();
  // A level resource `id`'s flows see elsewhere moved, to `moved`: it is levelled again, in
  // full, if its level depends on them. Not if its flows all took an even share when it was
  // last levelled and `moved` is at least its level: what they may take elsewhere then stays
  // at least their share. (A group keeps a floor of what its riders may take, which a
  // levelling in full brings up to date: it is levelled.)
  void note_caps_moved(Resource id, double moved) {
    ResourceState& r = resources_[id];
    if (!follows_caps(r) || unfilled(r)) return;
    if (r.group == kNoGroup && r.even && moved >= r.level) return;
    if (r.group != kNoGroup) groups_[r.group].caps_moved = true;
    enqueue(id);
  }
  void level_of_fatpipe(ResourceState& r, Resource id);
  // Whether a resource's level depends on what its flows may take elsewhere: not for a flow
  // alone, nor on a FATPIPE link whose flows weigh the same.
  static bool follows_caps(const ResourceState& r) {
    return r.shared ? r.running > 1 : r.weights.size() > 1;
  }
  // Whether `m` is still its flow's (members of ended flows are dropped lazily).
  bool runs(const Member& m) const {
    const FlowState& f = flows_[m.flow];
    return f.running && f.generation == m.generation;
  }
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
  static bool unfilled(const ResourceState& r) {
    return r.shared && r.level == std::numeric_limits<double>::infinity();
  }
  // Below this share of its capacity, an unfilled resource stays so without levelling.
  static constexpr double kUnfilledMargin = 1e-9;
  double rate_of(const FlowState& f) const;
  // What `f` takes now: its group's level over its penalty if it rides one.
  double current_rate(const FlowState& f) const;
  // Forms a group of resource `id`'s members at its level, if none rides another group.
  void form_group(double now, Resource id);
  // Ends resource `id`'s group: its riders become flows of their own, to be rated again.
  void dissolve(double now, Resource id);
  // A flow started now joins a group; it enters it, as every member of a group formed does,
  // with what it has left at `now`.
  void join(double now, std::uint32_t group, Flow flow);
  void enter(double now, Group& g, std::uint32_t group, Flow flow);
  // Brings the group's clock up to `now` at the level it ran at.
  static void advance(double now, Group& g);
  // Moves the group's clock to the level its resource has now, and its neighbours' loads.
  void follow_level(double now, std::uint32_t group);
  // Adds (`sign` > 0) or removes rider `f`'s use of a resource other than its group's: to
  // the resource's share of that group, and to the group's neighbours if it follows caps.
  void share(const FlowState& f, const Use& use, int sign);
  void add_neighbour(std::uint32_t group, Resource id, double weight, std::uint32_t riders,
                     int sign);
  // Resource `id` now follows caps, or no longer does: its riders of other groups count it
  // as a neighbour, or no longer do.
  void neighbours_change(Resource id, int sign);
  void schedule_group(std::uint32_t group);
  void push_rider(Group& g, Rider rider);
  void pop_rider(Group& g);
  void rebase(Group& g);

  void mark_dirty(std::span<const Use> uses);
  // Rates `f` by the levels reached, once per rating pass (`rating_`): a flow on several
  // resources that moved gets the same rate from each.
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
  // Gives the entry at `index` a new finish and moves it to its place.
  void move_entry(std::size_t index, double finish);
  std::uint32_t& heap_index(Flow entry);
  void remove_entry(std::size_t index);
  void push_entry(HeapEntry entry);
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
  std::vector<Resource> forming_;                   // resources to form a group of
  std::vector<Member> forming_members_;             // the members of the one forming
  std::vector<Group> groups_;
  std::vector<std::uint32_t> free_groups_;
  std::size_t running_ = 0;
  std::uint32_t rating_ = 0;
  std::size_t live_groups_ = 0;  // groups formed and not ended: riders may exist
};

}  // namespace p3s::sim
