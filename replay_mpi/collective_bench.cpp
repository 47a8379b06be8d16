#include "replay_mpi/collective_bench.hpp"

#include <mpi.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

namespace p3s::replay {
namespace {

// What one communicator size gave: the slowest member's mean time per call back to back, and
// how far apart the members leave a call they entered together.
struct SizeTimes {
  double seconds = 0;
  double exit_spread = 0;
};

// Whether every member's MPI_Wtime reads one clock: the MPI says so (MPI_WTIME_IS_GLOBAL, as
// SMPI does), or the members share one node (Open MPI says no even then, but a node's ranks
// read its one clock).
bool global_clock(MPI_Comm comm) {
  int* value = nullptr;
  int found = 0;
  MPI_Comm_get_attr(comm, MPI_WTIME_IS_GLOBAL, &value, &found);
  if (found != 0 && value != nullptr && *value != 0) return true;
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int on_node = 0, members = 0;
  MPI_Comm_size(node, &on_node);
  MPI_Comm_size(comm, &members);
  MPI_Comm_free(&node);
  int all = on_node == members ? 1 : 0, every = 0;
  MPI_Allreduce(&all, &every, 1, MPI_INT, MPI_MIN, comm);
  return every == 1;
}

// The slowest member's mean time per call, after one warm-up call; then, where the members
// share a clock (`one_clock`: global_clock), `repetitions` times a call entered right after a
// barrier, the latest member's leaving it less the earliest's (their mean).
SizeTimes time_on(const CollectiveShape& shape, MPI_Comm comm, bool one_clock, int repetitions,
                  CollectiveCall& call) {
  MPI_Barrier(comm);
  call.run(shape, comm, 0);
  const double start = MPI_Wtime();
  for (int i = 0; i < repetitions; ++i) call.run(shape, comm, 0);
  const double mine = (MPI_Wtime() - start) / repetitions;
  SizeTimes t;
  MPI_Allreduce(&mine, &t.seconds, 1, MPI_DOUBLE, MPI_MAX, comm);
  // How far apart the members leave needs one clock for all of them.
  if (!one_clock) return t;
  double spread = 0;
  for (int i = 0; i < repetitions; ++i) {
    MPI_Barrier(comm);
    call.run(shape, comm, 0);
    const double left = MPI_Wtime();
    double latest = 0, earliest = 0;
    MPI_Allreduce(&left, &latest, 1, MPI_DOUBLE, MPI_MAX, comm);
    MPI_Allreduce(&left, &earliest, 1, MPI_DOUBLE, MPI_MIN, comm);
    spread += latest - earliest;
  }
  t.exit_spread = spread / repetitions;
  return t;
}

}  // namespace

std::vector<CollectiveShape> collective_shapes(const core::ScaledTrace& trace,
                                               const std::vector<int>& phases) {
  std::set<CollectiveShape> shapes;
  std::vector<core::Event> events;
  for (const int p : phases) {
    for (int r = 0; r < trace.nprocs(); ++r) {
      events.clear();
      trace.phase_events(p, r, events);
      for (const core::Event& e : events) {
        if (!is_replayed_collective(e.op)) continue;
        if (e.comm != 0)
          throw std::invalid_argument(
              "phase " + std::to_string(p) + ", rank " + std::to_string(r) + ": " +
              std::string(core::op_name(e.op)) +
              " on a sub-communicator: the replay runs collectives on the world only");
        shapes.insert({e.op, e.bytes, e.rbytes, trace.nprocs()});
      }
    }
  }
  return {shapes.begin(), shapes.end()};
}

std::map<CollectiveShape, double> measure_collectives(const std::vector<CollectiveShape>& shapes,
                                                      int repetitions,
                                                      std::vector<CollectiveResult>& results) {
  int self = 0, processes = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &self);
  MPI_Comm_size(MPI_COMM_WORLD, &processes);
  const std::vector<int> sizes = sample_sizes(processes);
  std::vector<MPI_Comm> comms;
  std::vector<bool> one_clock;
  for (const int p : sizes) {
    MPI_Comm c = MPI_COMM_NULL;
    MPI_Comm_split(MPI_COMM_WORLD, self < p ? 0 : MPI_UNDEFINED, self, &c);
    comms.push_back(c);
    one_clock.push_back(c != MPI_COMM_NULL && global_clock(c));
  }
  CollectiveCall call;
  std::map<CollectiveShape, double> at_n;
  for (const CollectiveShape& shape : shapes) {
    std::vector<double> seconds, spreads;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      SizeTimes t;
      if (comms[i] != MPI_COMM_NULL) t = time_on(shape, comms[i], one_clock[i], repetitions, call);
      // Process 0 is in every communicator: it knows every time.
      seconds.push_back(t.seconds);
      spreads.push_back(t.exit_spread);
      MPI_Barrier(MPI_COMM_WORLD);
    }
    double value = 0;
    if (self == 0) {
      CollectiveResult r;
      r.op = std::string(core::op_name(shape.op));
      r.bytes = std::max(shape.bytes, shape.rbytes);
      r.members = shape.members;
      r.sizes = sizes;
      r.seconds = seconds;
      std::vector<int> fit_sizes;
      std::vector<double> fit_seconds, fit_spreads;
      for (const std::size_t i : fit_points(sizes, shape.members)) {
        fit_sizes.push_back(sizes[i]);
        fit_seconds.push_back(seconds[i]);
        fit_spreads.push_back(spreads[i]);
      }
      r.fit = fit_collective(fit_sizes, fit_seconds);
      r.fit_sizes = fit_sizes;
      r.at_n_seconds = r.fit.at(static_cast<double>(shape.members));
      r.exit_spreads = spreads;
      r.exit_spread_at_n = std::max(
          0.0, fit_collective(fit_sizes, fit_spreads).at(static_cast<double>(shape.members)));
      value = r.at_n_seconds;
      results.push_back(r);
    }
    MPI_Bcast(&value, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    at_n[shape] = value;
  }
  for (MPI_Comm& c : comms)
    if (c != MPI_COMM_NULL) MPI_Comm_free(&c);
  return at_n;
}

namespace {

// The fitted collective of `shape` in `results`, if it was fitted.
const CollectiveResult* fitted(const std::vector<CollectiveResult>& results,
                               const CollectiveShape& shape) {
  const auto it = std::find_if(results.begin(), results.end(), [&](const CollectiveResult& c) {
    return c.op == core::op_name(shape.op) && c.bytes == std::max(shape.bytes, shape.rbytes) &&
           c.members == shape.members;
  });
  return it == results.end() ? nullptr : &*it;
}

}  // namespace

void judge_fitted_phases(const core::ScaledTrace& trace, const std::vector<int>& phases,
                         ReplayResult& result) {
  for (std::size_t i = 0; i < phases.size() && i < result.phases.size(); ++i) {
    PhaseResult& ph = result.phases[i];
    if (ph.collectives != "fit") continue;
    std::vector<std::string> misses;
    double spread = 0, collectives = 0;
    for (const CollectiveShape& shape : collective_shapes(trace, {phases[i]})) {
      const CollectiveResult* c = fitted(result.collectives, shape);
      if (c == nullptr) continue;
      if (std::string why = fit_misses_because(*c); !why.empty()) misses.push_back(std::move(why));
      spread += c->exit_spread_at_n;
      collectives += c->at_n_seconds;
    }
    for (std::size_t k = 0; k < misses.size(); ++k)
      ph.collective_fit_misses += (k > 0 ? "; " : "") + misses[k];
    if (!misses.empty()) {
      result.warnings.push_back(
          ph.name + ": its collectives' time at N is a guess: " + ph.collective_fit_misses);
    }
    // What the messages take at most: the PhaseET less the compute and the collectives.
    const double messages = std::max(0.0, ph.phase_et - ph.compute_seconds - collectives);
    const double allowance = std::min(spread, messages);
    // Below 1 % of the PhaseET it is within what the replay measures anyway.
    if (allowance >= 0.01 * ph.phase_et) ph.overlap_allowance = allowance;
  }
}

}  // namespace p3s::replay
