#pragma once
// The communicators of a Synthetic Signature run, all over the launched processes: the
// application's messages (between measurable processes, and with black holes), control
// messages, noise, and the measurable processes alone (the collectives they run in a step).
#include <mpi.h>

#include <vector>

namespace p3s::replay {

struct ReplayComms {
  MPI_Comm data = MPI_COMM_NULL;
  MPI_Comm control = MPI_COMM_NULL;
  MPI_Comm noise = MPI_COMM_NULL;
  MPI_Comm measurable = MPI_COMM_NULL;  // MPI_COMM_NULL on the other processes
  std::vector<int> node_of_process;     // physical node of every process (any id)
};

}  // namespace p3s::replay
