/* app_failing: a program that dies part-way, for testing that traces survive it.
 *
 * usage: app_failing abort|segv [steps (10)]   (n >= 2)
 *
 * Every rank does `steps` MPI_Sendrecv exchanges around the ring (to (r+1)%n, from
 * (r-1+n)%n, 8 doubles, tag 0). Then the last rank fails: with `abort` it calls
 * MPI_Abort(MPI_COMM_WORLD, 3); with `segv` it raises SIGSEGV. The other ranks wait in an
 * MPI_Barrier that never completes until the launcher tears the job down.
 */
#include <signal.h>
#include <string.h>

#include "app_common.h"

static const char* const kUsage = "app_failing abort|segv [steps 1..100000 (10)]; n >= 2";

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, nprocs = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  long steps = 0;
  if (argc < 2 || (strcmp(argv[1], "abort") != 0 && strcmp(argv[1], "segv") != 0) ||
      app_arg_long(argc, argv, 2, 1, 100000, 10, &steps) != 0)
    return app_usage(rank, kUsage, "bad arguments");
  if (nprocs < 2) return app_usage(rank, kUsage, "process count must be at least 2");

  double out[8] = {0}, in[8] = {0};
  for (long s = 0; s < steps; ++s) {
    out[0] = (double)s;
    MPI_Sendrecv(out, 8, MPI_DOUBLE, (rank + 1) % nprocs, 0, in, 8, MPI_DOUBLE,
                 (rank - 1 + nprocs) % nprocs, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  if (rank == nprocs - 1) {
    if (strcmp(argv[1], "abort") == 0) MPI_Abort(MPI_COMM_WORLD, 3);
    raise(SIGSEGV);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return APP_EXIT_FAIL; /* not reached: the failing rank takes the job down */
}
