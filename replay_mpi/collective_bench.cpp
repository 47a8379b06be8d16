#include "replay_mpi/collective_bench.hpp"

#include <mpi.h>

#include <algorithm>
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

}  // namespace p3s::replay
