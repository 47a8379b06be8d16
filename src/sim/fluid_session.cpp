#include "sim/fluid_session.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <map>
#include <queue>
#include <simgrid/s4u/Host.hpp>
#include <span>
#include <stdexcept>

#include "core/rank_program.hpp"
#include "sim/fluid_match_queue.hpp"
#include "sim/fluid_platform.hpp"
#include "sim/fluid_program.hpp"
#include "sim/fluid_requests.hpp"
#include "sim/fluid_sharing.hpp"
#include "sim/free_slots.hpp"
#include "sim/point_to_point.hpp"
#include "sim/shared_core.hpp"

namespace p3s::sim {
namespace {

constexpr std::int64_t kNoRequest = std::numeric_limits<std::int64_t>::min();

struct Posted {
  std::int32_t rank;
  std::int64_t req;  // kNoRequest: an eager send, complete already
  std::int64_t bytes;
  bool eager;
  double eager_recv;
  const FluidRoute* route;  // a send's, to its receiver
};

struct RankState {
  std::vector<FluidStep> steps;
  std::size_t pc = 0;
  std::size_t segment = 0;
  std::int64_t repetition = -1;    // none yet
  std::int64_t program_steps = 0;  // the trace's calls in one repetition (the events counted)
  std::int64_t waiting = kNoRequest;
  FluidRequests requests;
  // Matching, at the receiver as MPI libraries do it: its receives no send has matched yet,
  // and the sends to it no receive has matched yet. Keyed (communicator, source, this rank,
  // tag).
  FluidMatchQueue<Posted> posted_receives;
  FluidMatchQueue<Posted> unexpected_sends;
};

struct Transfer {
  Posted send;
  Posted receive;
  FluidTransfer timing;
};

class FluidSession {
 public:
  explicit FluidSession(const FluidSessionInputs& in)
      : in_(in), platform_(sharing_), nprocs_(in.trace->nprocs()) {
    ranks_.resize(static_cast<std::size_t>(nprocs_));
    output_.first_start.assign(ranks_.size(), 0);
    output_.measure_start.assign(ranks_.size(), -1);
    output_.end.assign(ranks_.size(), -1);
    read_hosts();
  }

  SessionOutput run() {
    const auto started = std::chrono::steady_clock::now();
    for (int r = 0; r < nprocs_; ++r) {
      if (enter_repetition(r)) ready_.push_back(r);
    }
    loop();
    output_.engine_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    check_finished();
    return output_;
  }

 private:
  enum class EventKind : std::uint8_t { Wake, TransferBegins };
  struct Event {
    double time;
    std::uint64_t seq;
    EventKind kind;
    std::uint32_t id;
    bool operator>(const Event& o) const { return time != o.time ? time > o.time : seq > o.seq; }
  };
  // What a running flow of FluidSharing is for.
  struct FlowOwner {
    bool transfer = false;
    std::uint32_t id = 0;  // transfer, or rank computing
  };

  void read_hosts() {
    for (const auto& [host, count] : ranks_on_hosts(in_.hosts, in_.host_of)) {
      overheads_.emplace(host, smpi_overheads_of(*host));
      // A host whose ranks outnumber its cores shares them as SimGrid does; others compute
      // alone, which needs no flow.
      if (count > host->get_core_count()) {
        cpus_.emplace(host, FluidSharing::Use{sharing_.add_resource(
                                                  host->get_speed() * host->get_core_count(), true),
                                              1.0});
      }
    }
    // Per host of the placement, its shared cores (compute looks them up per call).
    cpu_of_host_.assign(in_.hosts.size(), nullptr);
    for (std::size_t h = 0; h < in_.hosts.size(); ++h) {
      const auto cpu = cpus_.find(in_.hosts[h]);
      if (cpu != cpus_.end()) cpu_of_host_[h] = &cpu->second;
    }
  }

  const simgrid::s4u::Host* host(int rank) const {
    return in_.hosts[static_cast<std::size_t>(in_.host_of[static_cast<std::size_t>(rank)])];
  }

  void lower(int rank) {
    RankState& s = ranks_[static_cast<std::size_t>(rank)];
    const int phase = in_.plan->segments[s.segment].phase;
    events_.clear();
    in_.trace->phase_events(phase, rank, events_);
    const core::RankProgram program = core::compile_rank_program(events_, in_.cpu_speedup);
    // The world and self need no member lists (the world's has N members: asking for it per
    // rank would cost O(N^2)); only a rank that uses other communicators asks for its own.
    communicators_.clear();
    if (std::any_of(events_.begin(), events_.end(),
                    [](const core::Event& e) { return e.comm > 1; })) {
      communicators_ = in_.trace->communicators(rank);
    }
    FluidRankSetup setup;
    setup.rank = rank;
    setup.nprocs = nprocs_;
    setup.eager_threshold = in_.eager_threshold;
    setup.overheads = &overheads_.at(host(rank));
    setup.native = &in_.native;
    setup.communicators = &communicators_;
    setup.round_delay = in_.round_delays[static_cast<std::size_t>(rank)];
    try {
      s.steps = lower_rank_program(program, setup);
      s.steps.shrink_to_fit();  // N ranks hold theirs at once: no spare capacity
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(fmt::format("phase {}: {}", phase, e.what()));
    }
    s.program_steps = static_cast<std::int64_t>(program.steps.size());
  }

  // Moves `rank` to its next repetition (lowering a new segment's program); false once it
  // has run its last.
  bool enter_repetition(int rank) {
    RankState& s = ranks_[static_cast<std::size_t>(rank)];
    const core::SessionPlan& plan = *in_.plan;
    if (s.repetition >= 0) output_.events += s.program_steps;
    ++s.repetition;
    bool lowered = s.repetition > 0;
    while (s.segment < plan.segments.size() &&
           s.repetition >= plan.segments[s.segment].repetitions) {
      ++s.segment;
      s.repetition = 0;
      lowered = false;
    }
    if (s.segment == plan.segments.size()) {
      if (!s.requests.empty()) {
        throw std::invalid_argument(
            fmt::format("rank {} ends with request {} never completed", rank, s.requests.any()));
      }
      output_.end[static_cast<std::size_t>(rank)] = now_;
      ++finished_;
      s.steps = {};
      return false;
    }
    if (!lowered) lower(rank);
    if (s.segment == 0 && s.repetition == plan.warmup_repetitions) {
      output_.measure_start[static_cast<std::size_t>(rank)] = now_;
    }
    s.pc = 0;
    return true;
  }

  void wake_at(double time, int rank) {
    events_queue_.push({time, seq_++, EventKind::Wake, static_cast<std::uint32_t>(rank)});
  }

  void advance(int rank) {
    RankState& s = ranks_[static_cast<std::size_t>(rank)];
    for (;;) {
      if (s.pc == s.steps.size()) {
        if (!enter_repetition(rank)) return;
        continue;
      }
      FluidStep& step = s.steps[s.pc];
      switch (step.action) {
        case FluidAction::Compute:
          ++s.pc;
          return compute(rank, step.seconds);
        case FluidAction::Sleep:
          ++s.pc;
          return wake_at(now_ + step.seconds, rank);
        case FluidAction::Send:
          ++s.pc;
          post(rank, step, true);
          break;
        case FluidAction::Receive:
          ++s.pc;
          post(rank, step, false);
          break;
        case FluidAction::Wait: {
          FluidRequest* it = s.requests.find(step.req);
          if (it == nullptr) {
            throw std::logic_error(
                fmt::format("rank {} waits for request {}, never started", rank, step.req));
          }
          if (!it->done) {
            s.waiting = step.req;
            return;
          }
          ++s.pc;
          s.waiting = kNoRequest;
          const double eager_recv = it->eager ? it->eager_recv : 0;
          s.requests.remove(step.req);
          if (eager_recv > 0) return wake_at(now_ + eager_recv, rank);
          break;
        }
      }
    }
  }

  void compute(int rank, double seconds) {
    const FluidSharing::Use* cpu =
        cpu_of_host_[static_cast<std::size_t>(in_.host_of[static_cast<std::size_t>(rank)])];
    if (cpu == nullptr || seconds <= 0) return wake_at(now_ + std::max(seconds, 0.0), rank);
    const double speed = host(rank)->get_speed();
    const FluidSharing::Flow flow =
        sharing_.start(now_, seconds * speed, speed, 1.0, std::span(cpu, 1));
    own(flow, {false, static_cast<std::uint32_t>(rank)});
  }

  void own(FluidSharing::Flow flow, FlowOwner owner) {
    if (owners_.size() <= flow) owners_.resize(flow + 1);
    owners_[flow] = owner;
  }

  void post(int rank, FluidStep& step, bool send) {
    RankState& s = ranks_[static_cast<std::size_t>(rank)];
    const bool completes_later = !(send && step.eager);
    if (completes_later) s.requests.add(step.req);
    // A send step knows its route after its first repetition.
    if (send && step.route == nullptr) step.route = &platform_.route(host(rank), host(step.peer));
    const Posted mine{rank,         completes_later ? step.req : kNoRequest,
                      step.bytes,   step.eager,
                      step.seconds, send ? step.route : nullptr};
    Posted other{};
    if (send) {
      const MessageStream key{step.comm_key, rank, step.peer, step.tag};
      RankState& receiver = ranks_[static_cast<std::size_t>(step.peer)];
      if (receiver.posted_receives.take(key, other)) return begin_transfer(mine, other);
      receiver.unexpected_sends.push(key, mine);
      return;
    }
    const MessageStream key{step.comm_key, step.peer, rank, step.tag};
    if (s.unexpected_sends.take(key, other)) return begin_transfer(other, mine);
    s.posted_receives.push(key, mine);
  }

  void begin_transfer(const Posted& send, const Posted& receive) {
    const std::uint32_t id = take_slot(transfers_, free_transfers_);
    Transfer& t = transfers_[id];
    t.send = send;
    t.receive = receive;
    t.timing =
        platform_.transfer(*send.route, static_cast<double>(send.bytes + kSmpiEnvelopeBytes));
    if (t.timing.latency > 0) {
      events_queue_.push({now_ + t.timing.latency, seq_++, EventKind::TransferBegins, id});
    } else {
      flow_of(id);
    }
  }

  void flow_of(std::uint32_t id) {
    const Transfer& t = transfers_[id];
    const FluidSharing::Flow flow =
        sharing_.start(now_, t.timing.amount, t.timing.bound, t.timing.penalty, t.send.route->uses);
    own(flow, {true, id});
  }

  void complete(int rank, std::int64_t req, bool eager, double eager_recv) {
    RankState& s = ranks_[static_cast<std::size_t>(rank)];
    FluidRequest* it = s.requests.find(req);
    it->done = true;
    it->eager = eager;
    it->eager_recv = eager_recv;
    if (s.waiting == req) ready_.push_back(rank);
  }

  void flow_done(FluidSharing::Flow flow) {
    const FlowOwner owner = owners_[flow];
    if (!owner.transfer) return ready_.push_back(static_cast<int>(owner.id));
    const Transfer t = transfers_[owner.id];
    free_transfers_.push_back(owner.id);
    complete(t.receive.rank, t.receive.req, t.send.eager, t.receive.eager_recv);
    if (t.send.req != kNoRequest) complete(t.send.rank, t.send.req, false, 0);
  }

  // Every so many events, a look at the clock; every kFluidProgressSeconds, a line.
  void report_progress(std::chrono::steady_clock::time_point& last) {
    if (!in_.progress || ++since_look_ < kEventsBetweenLooks) return;
    since_look_ = 0;
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - last).count() < kFluidProgressSeconds) return;
    last = now;
    in_.progress(fmt::format("fluid engine: {:.6g} s simulated, {} of {} ranks done, {} events",
                             now_, finished_, nprocs_, output_.events));
  }

  void loop() {
    auto last_report = std::chrono::steady_clock::now();
    for (;;) {
      report_progress(last_report);
      // Ranks woken at this instant go first: whatever else is due is not earlier.
      while (!ready_.empty()) {
        running_.swap(ready_);
        for (const int rank : running_) advance(rank);
        running_.clear();
      }
      // What else happens at this instant comes before the flows are rated again.
      const bool event_now = !events_queue_.empty() && events_queue_.top().time <= now_;
      if (!event_now) sharing_.settle(now_);
      const auto finish = event_now ? std::nullopt : sharing_.next_finish();
      const bool have_event = !events_queue_.empty();
      if (!finish && !have_event) return;
      if (finish && (!have_event || finish->first <= events_queue_.top().time)) {
        now_ = std::max(now_, finish->first);
        // Flows that end together up to rounding end at one instant: one settle for all
        // (N messages sharing a root's link end together, and would settle N times).
        const double instant = now_ + now_ * kSameInstant;
        for (auto next = finish; next && next->first <= instant; next = sharing_.next_finish()) {
          sharing_.finish(next->second);
          flow_done(next->second);
        }
        continue;
      }
      const Event e = events_queue_.top();
      events_queue_.pop();
      now_ = std::max(now_, e.time);
      if (e.kind == EventKind::Wake) {
        advance(static_cast<int>(e.id));
      } else {
        flow_of(e.id);
      }
    }
  }

  void check_finished() const {
    std::int64_t unfinished = 0;
    std::size_t unmatched_sends = 0;
    std::size_t unmatched_receives = 0;
    int first = -1;
    for (int r = 0; r < nprocs_; ++r) {
      unmatched_sends += ranks_[static_cast<std::size_t>(r)].unexpected_sends.size();
      unmatched_receives += ranks_[static_cast<std::size_t>(r)].posted_receives.size();
      if (output_.end[static_cast<std::size_t>(r)] >= 0) continue;
      if (first < 0) first = r;
      ++unfinished;
    }
    if (unfinished == 0) return;
    const RankState& s = ranks_[static_cast<std::size_t>(first)];
    throw std::runtime_error(fmt::format(
        "{} ranks never finished: the trace's messages or collectives do not match (rank {} "
        "waits in phase {} for request {}, with {} sends and {} receives left unmatched)",
        unfinished, first,
        in_.plan->segments[std::min(s.segment, in_.plan->segments.size() - 1)].phase, s.waiting,
        unmatched_sends, unmatched_receives));
  }

  const FluidSessionInputs& in_;
  FluidSharing sharing_;
  FluidPlatform platform_;
  int nprocs_;
  std::vector<RankState> ranks_;
  SessionOutput output_;
  std::map<const simgrid::s4u::Host*, SmpiOverheads> overheads_;
  // The cores of each host whose ranks outnumber them (std::map: the uses stay in place).
  std::map<const simgrid::s4u::Host*, FluidSharing::Use> cpus_;
  std::vector<const FluidSharing::Use*> cpu_of_host_;  // by index into the placement's hosts
  std::vector<Transfer> transfers_;
  std::vector<std::uint32_t> free_transfers_;
  std::vector<FlowOwner> owners_;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_queue_;
  std::vector<int> ready_;    // ranks to advance at now_, in the order they were woken
  std::vector<int> running_;  // those being advanced
  std::uint64_t seq_ = 0;
  int finished_ = 0;  // ranks
  static constexpr int kEventsBetweenLooks = 1 << 16;
  static constexpr double kSameInstant = 1e-12;  // relative
  int since_look_ = 0;
  double now_ = 0;
  std::vector<core::Event> events_;
  std::vector<core::Communicator> communicators_;
};

}  // namespace

SessionOutput run_fluid_session(const FluidSessionInputs& inputs) {
  return FluidSession(inputs).run();
}

}  // namespace p3s::sim
