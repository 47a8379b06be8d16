#include "replay_mpi/step_plan.hpp"

#include <algorithm>
#include <bit>
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "core/rank_program.hpp"
#include "replay_mpi/event_peers.hpp"

namespace p3s::replay {
namespace {

using core::Op;

// One rank's measurement units of one phase (event_peers.hpp), as the planner sees them: each
// unit's peers, and whether it has been measured.
struct RankEvents {
  std::vector<std::uint32_t> first_peer;  // unit i's peers: peers[first_peer[i]..first_peer[i+1])
  std::vector<std::int32_t> peers;
  std::vector<char> measured;
  std::size_t unmeasured = 0;
  std::size_t units() const { return measured.size(); }
};

// The destinations of the messages a call sends, with their sizes.
// Which ranks a step has loaded, and how they sit on the application's nodes.
class LoadedSet {
 public:
  LoadedSet(const PlanOptions& o, std::int64_t nprocs)
      : o_(o), nprocs_(nprocs), in_(static_cast<std::size_t>(nprocs), 0) {}

  bool contains(std::int32_t r) const { return in_[static_cast<std::size_t>(r)] != 0; }
  std::size_t size() const { return ranks_.size(); }
  bool full() const { return static_cast<int>(ranks_.size()) >= o_.measurable; }
  const std::vector<std::int32_t>& ranks() const { return ranks_; }

  // Adds all of `wanted` if they fit together (count, placement), else nothing.
  bool add_all(const std::vector<std::int32_t>& wanted) {
    std::vector<std::int32_t> fresh;
    for (const std::int32_t r : wanted)
      if (!contains(r) && std::find(fresh.begin(), fresh.end(), r) == fresh.end())
        fresh.push_back(r);
    if (static_cast<int>(ranks_.size() + fresh.size()) > o_.measurable) return false;
    if (kept()) {
      std::unordered_map<std::int64_t, int> extra;
      for (const std::int32_t r : fresh) ++extra[node(r)];
      std::size_t new_nodes = 0;
      for (const auto& [n, count] : extra) {
        const auto found = per_node_.find(n);
        const int have = found == per_node_.end() ? 0 : found->second;
        if (have == 0) ++new_nodes;
        if (have + count > o_.node_slots) return false;
      }
      if (static_cast<int>(nodes_.size() + new_nodes) > o_.nodes) return false;
    }
    for (const std::int32_t r : fresh) {
      in_[static_cast<std::size_t>(r)] = 1;
      ranks_.push_back(r);
      if (kept() && per_node_[node(r)]++ == 0) nodes_.push_back(node(r));
    }
    return true;
  }

  // Slot of every loaded rank: in order of loading, or node by node when placement is kept.
  std::vector<std::int32_t> slots() const {
    if (!kept()) return ranks_;
    std::vector<std::int32_t> out(static_cast<std::size_t>(o_.nodes) * o_.node_slots, -1);
    std::unordered_map<std::int64_t, int> used;
    for (const std::int32_t r : ranks_) {
      const std::int64_t n = node(r);
      const auto g = std::find(nodes_.begin(), nodes_.end(), n) - nodes_.begin();
      out[static_cast<std::size_t>(g * o_.node_slots + used[n]++)] = r;
    }
    return out;
  }

  void clear() {
    for (const std::int32_t r : ranks_) in_[static_cast<std::size_t>(r)] = 0;
    ranks_.clear();
    per_node_.clear();
    nodes_.clear();
  }

 private:
  bool kept() const { return o_.node_slots > 0; }
  std::int64_t node(std::int32_t r) const {
    return core::node_of_rank(r, nprocs_, o_.ranks_per_node, o_.mapping);
  }

  const PlanOptions& o_;
  std::int64_t nprocs_;
  std::vector<char> in_;
  std::vector<std::int32_t> ranks_;
  std::unordered_map<std::int64_t, int> per_node_;
  std::vector<std::int64_t> nodes_;
};

std::string where(const core::ScaledTrace& trace, int phase, std::int32_t rank, std::size_t e,
                  const core::ProgramStep& call) {
  return "phase " + std::to_string(phase) + " (" +
         trace.phases()[static_cast<std::size_t>(phase)].name + "), rank " + std::to_string(rank) +
         ", event " + std::to_string(e) + " (" + std::string(core::op_name(call.op)) + ")";
}

// Every rank's measurement units of `phase` with their peers; each checked to fit in one step.
std::vector<RankEvents> load_phase(const core::ScaledTrace& trace, int phase,
                                   const PlanOptions& options, PhaseTraffic& traffic) {
  const int nprocs = trace.nprocs();
  std::vector<RankEvents> ranks(static_cast<std::size_t>(nprocs));
  std::vector<core::Event> events;
  std::vector<std::pair<std::int32_t, std::int64_t>> sent;
  std::vector<Unit> units;
  LoadedSet alone(options, nprocs);
  double bytes = 0;
  for (std::int32_t r = 0; r < nprocs; ++r) {
    events.clear();
    trace.phase_events(phase, r, events);
    core::RankProgram program;
    try {
      program = core::compile_rank_program(events, 1.0);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("phase " + std::to_string(phase) + ", rank " + std::to_string(r) +
                                  ": " + e.what());
    }
    RankEvents& re = ranks[static_cast<std::size_t>(r)];
    for (std::size_t i = 0; i < program.steps.size(); ++i) {
      units.clear();
      event_units(program, program.steps[i], units);
      for (Unit& wanted : units) {
        re.first_peer.push_back(static_cast<std::uint32_t>(re.peers.size()));
        re.peers.insert(re.peers.end(), wanted.begin(), wanted.end());
        wanted.push_back(r);
        alone.clear();
        if (!alone.add_all(wanted)) {
          throw std::invalid_argument(
              where(trace, phase, r, i, program.steps[i]) + " exchanges with " +
              std::to_string(wanted.size() - 1) +
              " ranks at once: measuring it needs them all loaded with it, more than the " +
              std::to_string(options.measurable) +
              " measurable processes can hold with the application's placement (R too small)");
        }
      }
      sent.clear();
      sent_messages(program, program.steps[i], sent);
      for (const auto& [dst, size] : sent) {
        if (core::node_of_rank(dst, nprocs, options.ranks_per_node, options.mapping) ==
            core::node_of_rank(r, nprocs, options.ranks_per_node, options.mapping))
          continue;
        ++traffic.network_messages;
        bytes += static_cast<double>(size);
      }
    }
    re.measured.assign(re.first_peer.size(), 0);
    re.unmeasured = re.measured.size();
    re.first_peer.push_back(static_cast<std::uint32_t>(re.peers.size()));
  }
  traffic.mean_bytes =
      traffic.network_messages > 0 ? bytes / static_cast<double>(traffic.network_messages) : 0;
  return ranks;
}

std::vector<std::int32_t> event_group(const RankEvents& re, std::int32_t rank, std::size_t e) {
  std::vector<std::int32_t> group(re.peers.begin() + re.first_peer[e],
                                  re.peers.begin() + re.first_peer[e + 1]);
  group.push_back(rank);
  return group;
}

// Loads the next step: the unmeasured units of the lowest pending ranks that fit, looking at
// most `window` ranks past the lowest, then other ranks from `fill_cursor` on, so that every
// step has M ranks (collectives run among all measurable processes).
void load_step(const std::vector<RankEvents>& ranks, const std::set<std::int32_t>& pending,
               std::size_t window, std::int32_t& fill_cursor, LoadedSet& loaded) {
  const auto nprocs = static_cast<std::int32_t>(ranks.size());
  loaded.clear();
  std::size_t scanned = 0;
  for (auto it = pending.begin(); it != pending.end() && scanned < window && !loaded.full();
       ++it, ++scanned) {
    const RankEvents& re = ranks[static_cast<std::size_t>(*it)];
    if (re.units() == 0) loaded.add_all({*it});
    for (std::size_t e = 0; e < re.units() && !loaded.full(); ++e)
      if (!re.measured[e]) loaded.add_all(event_group(re, *it, e));
  }
  for (int tries = 0; tries < nprocs && !loaded.full(); ++tries) {
    loaded.add_all({fill_cursor});
    fill_cursor = (fill_cursor + 1) % nprocs;
  }
}

bool peers_loaded(const RankEvents& re, std::size_t e, const LoadedSet& loaded) {
  for (std::uint32_t k = re.first_peer[e]; k < re.first_peer[e + 1]; ++k)
    if (!loaded.contains(re.peers[k])) return false;
  return true;
}

// The step of the loaded ranks: every unit whose rank and peers are all loaded and that was
// not measured before is measured there; a slot with a unit whose peers are not all loaded gets
// a black hole. Ranks left with nothing to measure leave `pending`.
PlannedStep measure_loaded_units(int phase, const LoadedSet& loaded, std::vector<RankEvents>& ranks,
                                 std::set<std::int32_t>& pending) {
  PlannedStep step;
  step.phase = phase;
  step.ranks = loaded.slots();
  step.measured.resize(step.ranks.size());
  step.black_hole.assign(step.ranks.size(), -1);
  for (std::size_t slot = 0; slot < step.ranks.size(); ++slot) {
    const std::int32_t r = step.ranks[slot];
    if (r < 0) continue;
    RankEvents& re = ranks[static_cast<std::size_t>(r)];
    bool external = false;
    for (std::size_t e = 0; e < re.units(); ++e) {
      const bool all_loaded = peers_loaded(re, e, loaded);
      external = external || !all_loaded;
      if (all_loaded && !re.measured[e]) {
        re.measured[e] = 1;
        --re.unmeasured;
        step.measured[slot].push_back(static_cast<std::uint32_t>(e));
      }
    }
    if (external) step.black_hole[slot] = step.black_holes++;
    if (re.unmeasured == 0) pending.erase(r);
  }
  return step;
}

std::size_t measured_units(const PlannedStep& step) {
  std::size_t n = 0;
  for (const std::vector<std::uint32_t>& units : step.measured) n += units.size();
  return n;
}

void plan_phase(const core::ScaledTrace& trace, int phase, const PlanOptions& options, Plan& plan) {
  const int nprocs = trace.nprocs();
  std::vector<RankEvents> ranks =
      load_phase(trace, phase, options, plan.traffic[static_cast<std::size_t>(phase)]);
  std::set<std::int32_t> pending;
  for (std::int32_t r = 0; r < nprocs; ++r)
    if (ranks[static_cast<std::size_t>(r)].unmeasured > 0) pending.insert(r);
  // A phase without any unit still has to run once.
  if (pending.empty()) pending.insert(0);
  // How far past the lowest pending rank a step looks for events that fit.
  const std::size_t window = 4 * static_cast<std::size_t>(options.measurable) + 16;
  LoadedSet loaded(options, nprocs);
  std::int32_t fill_cursor = 0;
  bool first = true;
  while (!pending.empty()) {
    load_step(ranks, pending, window, fill_cursor, loaded);
    PlannedStep step = measure_loaded_units(phase, loaded, ranks, pending);
    if (measured_units(step) == 0 && !(first && pending.empty())) {
      // Cannot happen when every event fits alone (checked in load_phase): the lowest pending
      // rank's first unmeasured event is always loaded into an empty step.
      throw std::logic_error("replay planner made no progress in " +
                             trace.phases()[static_cast<std::size_t>(phase)].name);
    }
    first = false;
    plan.black_holes = std::max(plan.black_holes, step.black_holes);
    plan.steps.push_back(std::move(step));
  }
}

}  // namespace

int warmup_repetitions(const PlannedStep& step) {
  constexpr int kMostWarmups = 16;
  if (step.black_holes == 0) return 1;
  return std::clamp(static_cast<int>(step.ranks.size()), 1, kMostWarmups);
}

Plan plan_steps(const core::ScaledTrace& trace, const PlanOptions& options) {
  if (options.measurable < 1) throw std::invalid_argument("at least one measurable process");
  if (options.ranks_per_node < 1) throw std::invalid_argument("ranks per node must be >= 1");
  Plan plan;
  plan.measurable = options.measurable;
  plan.traffic.resize(trace.phases().size());
  std::vector<int> phases = options.phases;
  if (phases.empty())
    for (int p = 0; p < static_cast<int>(trace.phases().size()); ++p) phases.push_back(p);
  for (const int p : phases) {
    if (p < 0 || p >= static_cast<int>(trace.phases().size()))
      throw std::invalid_argument("no phase " + std::to_string(p) + " in the trace");
    plan_phase(trace, p, options, plan);
  }
  return plan;
}

std::vector<std::int64_t> encode_plan(const Plan& plan) {
  std::vector<std::int64_t> out = {plan.measurable, plan.black_holes,
                                   static_cast<std::int64_t>(plan.traffic.size())};
  for (const PhaseTraffic& t : plan.traffic) {
    out.push_back(t.network_messages);
    out.push_back(std::bit_cast<std::int64_t>(t.mean_bytes));
  }
  out.push_back(static_cast<std::int64_t>(plan.steps.size()));
  for (const PlannedStep& s : plan.steps) {
    out.push_back(s.phase);
    out.push_back(s.black_holes);
    out.push_back(static_cast<std::int64_t>(s.ranks.size()));
    for (std::size_t i = 0; i < s.ranks.size(); ++i) {
      out.push_back(s.ranks[i]);
      out.push_back(s.black_hole[i]);
      out.push_back(static_cast<std::int64_t>(s.measured[i].size()));
      out.insert(out.end(), s.measured[i].begin(), s.measured[i].end());
    }
  }
  return out;
}

Plan decode_plan(const std::vector<std::int64_t>& data) {
  std::size_t at = 0;
  const auto next = [&] {
    if (at >= data.size()) throw std::invalid_argument("truncated replay plan");
    return data[at++];
  };
  Plan plan;
  plan.measurable = static_cast<int>(next());
  plan.black_holes = static_cast<int>(next());
  plan.traffic.resize(static_cast<std::size_t>(next()));
  for (PhaseTraffic& t : plan.traffic) {
    t.network_messages = next();
    t.mean_bytes = std::bit_cast<double>(next());
  }
  plan.steps.resize(static_cast<std::size_t>(next()));
  for (PlannedStep& s : plan.steps) {
    s.phase = static_cast<int>(next());
    s.black_holes = static_cast<int>(next());
    const auto slots = static_cast<std::size_t>(next());
    s.ranks.resize(slots);
    s.black_hole.resize(slots);
    s.measured.resize(slots);
    for (std::size_t i = 0; i < slots; ++i) {
      s.ranks[i] = static_cast<std::int32_t>(next());
      s.black_hole[i] = static_cast<std::int32_t>(next());
      s.measured[i].resize(static_cast<std::size_t>(next()));
      for (std::uint32_t& e : s.measured[i]) e = static_cast<std::uint32_t>(next());
    }
  }
  return plan;
}

}  // namespace p3s::replay
