#include "replay_mpi/collective_bench.hpp"

#include <mpi.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

namespace p3s::replay {
namespace {

// The slowest member's mean time per call, after one warm-up call.
double time_on(const CollectiveShape& shape, MPI_Comm comm, int repetitions, CollectiveCall& call) {
  MPI_Barrier(comm);
  call.run(shape, comm, 0);
  const double start = MPI_Wtime();
  for (int i = 0; i < repetitions; ++i) call.run(shape, comm, 0);
  const double mine = (MPI_Wtime() - start) / repetitions;
  double slowest = 0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
  return slowest;
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
  for (const int p : sizes) {
    MPI_Comm c = MPI_COMM_NULL;
    MPI_Comm_split(MPI_COMM_WORLD, self < p ? 0 : MPI_UNDEFINED, self, &c);
    comms.push_back(c);
  }
  CollectiveCall call;
  std::map<CollectiveShape, double> at_n;
  for (const CollectiveShape& shape : shapes) {
    std::vector<double> seconds;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      double t = 0;
      if (comms[i] != MPI_COMM_NULL) t = time_on(shape, comms[i], repetitions, call);
      // Process 0 is in every communicator: it knows every time.
      seconds.push_back(t);
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
      std::vector<double> fit_seconds;
      for (const std::size_t i : fit_points(sizes, shape.members)) {
        fit_sizes.push_back(sizes[i]);
        fit_seconds.push_back(seconds[i]);
      }
      r.fit = fit_collective(fit_sizes, fit_seconds);
      r.fit_sizes = fit_sizes;
      r.at_n_seconds = r.fit.at(static_cast<double>(shape.members));
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

void mark_unfollowed_fits(const core::ScaledTrace& trace, const std::vector<int>& phases,
                          ReplayResult& result) {
  for (std::size_t i = 0; i < phases.size() && i < result.phases.size(); ++i) {
    PhaseResult& ph = result.phases[i];
    if (ph.collectives != "fit") continue;
    std::vector<std::string> reasons;
    for (const CollectiveShape& shape : collective_shapes(trace, {phases[i]})) {
      const auto fitted = std::find_if(
          result.collectives.begin(), result.collectives.end(), [&](const CollectiveResult& c) {
            return c.op == core::op_name(shape.op) &&
                   c.bytes == std::max(shape.bytes, shape.rbytes) && c.members == shape.members;
          });
      if (fitted == result.collectives.end()) continue;
      if (std::string why = fit_misses_because(*fitted); !why.empty())
        reasons.push_back(std::move(why));
    }
    if (reasons.empty()) continue;
    for (std::size_t k = 0; k < reasons.size(); ++k)
      ph.collective_fit_misses += (k > 0 ? "; " : "") + reasons[k];
    result.warnings.push_back(
        ph.name + ": its collectives' time at N is a guess: " + ph.collective_fit_misses);
  }
}

}  // namespace p3s::replay
