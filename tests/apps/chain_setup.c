/* app_chain_setup: a 1D diffusion on a NON-periodic chain of n ranks, after a setup exchange.
 *
 * usage: app_chain_setup [size [iterations [setup]]]   (defaults 4096, 50, 1; n >= 1)
 *
 * Rank r's neighbours are r-1 (if r > 0) and r+1 (if r < n-1): the two ends have one, a single
 * rank none.
 * Setup, when `setup` is 1: with each existing neighbour, left first, one MPI_Sendrecv of one
 * double (8 bytes, tag 7) each way; then one MPI_Bcast of 4 ints (16 bytes) from rank 0.
 * Every iteration, in this order:
 *   MPI_Irecv from each existing neighbour, left then right   (1 double each, tag 0)
 *   MPI_Isend to each existing neighbour, left then right     (1 double each, tag 0)
 *   MPI_Waitall over those requests (called even with none)
 *   an explicit diffusion step over the rank's `size` cells
 *   MPI_Allreduce of 1 double (MPI_SUM): the global total
 * Then app_finish's MPI_Reduce.
 *
 * Reproduces: phases related by position break when border ranks have fewer setup exchanges
 * than inner ones and a run at n = 1 has none; with `setup` 0 the same program has no setup.
 * Verification: the step moves material between neighbouring cells only and nothing crosses
 * the chain's ends, so the total stays what the initial formula gives; the setup exchange
 * carries each rank's number, checked on arrival, and the broadcast block its known values.
 */
#include <math.h>
#include <stdlib.h>

#include "app_common.h"

static const char* const kUsage =
    "app_chain_setup [size 1..1000000 (4096)] [iterations 1..1000000 (50)] [setup 0|1 (1)]";

static double initial_value(long global_cell) {
  return (double)(global_cell % 13);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  long size_arg = 0, iters_arg = 0, setup_arg = 0;
  if (argc > 4 || app_arg_long(argc, argv, 1, 1, 1000000, 4096, &size_arg) != 0 ||
      app_arg_long(argc, argv, 2, 1, 1000000, 50, &iters_arg) != 0 ||
      app_arg_long(argc, argv, 3, 0, 1, 1, &setup_arg) != 0)
    return app_usage(rank, kUsage, "bad arguments");
  const int m = (int)size_arg;
  const int left = rank > 0 ? rank - 1 : -1;
  const int right = rank < n - 1 ? rank + 1 : -1;
  const int neighbour[2] = {left, right};
  int ok = 1;

  if (setup_arg) {
    for (int d = 0; d < 2; ++d) {
      if (neighbour[d] < 0) continue;
      double mine = rank, theirs = -1;
      MPI_Sendrecv(&mine, 1, MPI_DOUBLE, neighbour[d], 7, &theirs, 1, MPI_DOUBLE, neighbour[d], 7,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (theirs != neighbour[d]) ok = 0;
    }
    int block[4] = {0, 0, 0, 0};
    if (rank == 0) block[0] = m, block[1] = (int)iters_arg, block[2] = n, block[3] = 17;
    MPI_Bcast(block, 4, MPI_INT, 0, MPI_COMM_WORLD);
    if (block[0] != m || block[1] != iters_arg || block[2] != n || block[3] != 17) ok = 0;
  }

  double* u = malloc((size_t)(m + 2) * sizeof(double));
  double* next = malloc((size_t)(m + 2) * sizeof(double));
  if (!u || !next) MPI_Abort(MPI_COMM_WORLD, APP_EXIT_FAIL);
  double expected = 0.0;
  for (long g = 0; g < (long)n * m; ++g) expected += initial_value(g);
  for (int i = 1; i <= m; ++i) u[i] = initial_value((long)rank * m + i - 1);

  for (int it = 0; it < iters_arg; ++it) {
    double send[2] = {u[1], u[m]}, recv[2] = {0, 0};
    MPI_Request requests[4];
    int nreq = 0;
    for (int d = 0; d < 2; ++d)
      if (neighbour[d] >= 0)
        MPI_Irecv(&recv[d], 1, MPI_DOUBLE, neighbour[d], 0, MPI_COMM_WORLD, &requests[nreq++]);
    for (int d = 0; d < 2; ++d)
      if (neighbour[d] >= 0)
        MPI_Isend(&send[d], 1, MPI_DOUBLE, neighbour[d], 0, MPI_COMM_WORLD, &requests[nreq++]);
    MPI_Waitall(nreq, requests, MPI_STATUSES_IGNORE);
    u[0] = left >= 0 ? recv[0] : u[1];
    u[m + 1] = right >= 0 ? recv[1] : u[m];
    double local = 0.0;
    for (int i = 1; i <= m; ++i) {
      next[i] = u[i] + 0.25 * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
      local += next[i];
    }
    APP_COMPUTE_FLOPS(6.0 * m);
    double* swap = u;
    u = next;
    next = swap;
    double total = 0.0;
    MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (fabs(total - expected) > 1e-9 * fmax(1.0, expected)) ok = 0;
  }
  free(u);
  free(next);
  return app_finish(rank, ok);
}
