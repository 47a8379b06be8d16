/* app_wavefront: a blocking wavefront sweep over a 2D process grid.
 *
 * usage: app_wavefront [count [iterations]]   (defaults 1024 and 50; any n >= 1)
 *
 * Process grid: MPI_Dims_create(n, 2, dims) gives px = dims[0] rows and py = dims[1] columns
 * (px >= py). Rank r sits at row i = r / py, column j = r % py (row-major: r = i*py + j).
 * Neighbours: west r-1 (if j > 0), north r-py (if i > 0), east r+1 (if j < py-1),
 * south r+py (if i < px-1).
 *
 * Every iteration is one sweep from the (0,0) corner, blocking calls only, tag 0:
 *   MPI_Recv `count` doubles from west (if any), then from north (if any),
 *   compute the block,
 *   MPI_Send `count` doubles to east (if any), then to south (if any).
 * The sweep is deadlock-free: every blocking call waits only on ranks earlier in the sweep
 * (smaller i + j) or on an earlier iteration, never on a cycle.
 * After the loop: one MPI_Reduce (MPI_MIN of an int) of the verdicts to rank 0.
 *
 * Verification: the corner block starts each sweep from a value that depends on the element
 * and the iteration. A block adds kColumnStep to what came from the west and kRowStep to what
 * came from the north, and averages the two when it has both, so block (i,j) must hold
 * start + i*kRowStep + j*kColumnStep. The steps differ, so data from the wrong side, from the
 * wrong rank or from the wrong iteration all change the result.
 */
#include <stdlib.h>

#include "app_common.h"

static const char* const kUsage =
    "app_wavefront [count 1..1048576 (1024)] [iterations 1..1000000 (50)]";

/* Value the corner block starts a sweep from, and what each step south or east adds: small
 * integers (the average of two equal ones included), so everything stays exact. */
static double sweep_start(long k, long iteration) {
  return (double)(k % 1000 + 3 * iteration);
}
static const double kRowStep = 1.0;
static const double kColumnStep = 1000.0;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, nprocs = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

  long count_arg = 0, iters_arg = 0;
  if (argc > 3 || app_arg_long(argc, argv, 1, 1, 1048576, 1024, &count_arg) != 0 ||
      app_arg_long(argc, argv, 2, 1, 1000000, 50, &iters_arg) != 0)
    return app_usage(rank, kUsage, "bad arguments");
  const int count = (int)count_arg;
  const int iters = (int)iters_arg;

  int dims[2] = {0, 0};
  MPI_Dims_create(nprocs, 2, dims);
  const int py = dims[1];
  const int i = rank / py, j = rank % py;
  const int west = j > 0 ? rank - 1 : -1;
  const int north = i > 0 ? rank - py : -1;
  const int east = j < py - 1 ? rank + 1 : -1;
  const int south = i < dims[0] - 1 ? rank + py : -1;

  double* from_west = malloc((size_t)count * sizeof(double));
  double* from_north = malloc((size_t)count * sizeof(double));
  double* block = malloc((size_t)count * sizeof(double));
  if (!from_west || !from_north || !block) MPI_Abort(MPI_COMM_WORLD, APP_EXIT_FAIL);

  int ok = 1;
  for (int it = 0; it < iters; ++it) {
    if (west >= 0)
      MPI_Recv(from_west, count, MPI_DOUBLE, west, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (north >= 0)
      MPI_Recv(from_north, count, MPI_DOUBLE, north, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

    for (int k = 0; k < count; ++k) {
      if (west >= 0 && north >= 0)
        block[k] = 0.5 * ((from_west[k] + kColumnStep) + (from_north[k] + kRowStep));
      else if (west >= 0)
        block[k] = from_west[k] + kColumnStep;
      else if (north >= 0)
        block[k] = from_north[k] + kRowStep;
      else
        block[k] = sweep_start(k, it);
      if (block[k] != sweep_start(k, it) + i * kRowStep + j * kColumnStep) ok = 0;
    }
    APP_COMPUTE_FLOPS(64.0 * count); /* declared cost (SMPI builds): a transport sweep's cell */

    if (east >= 0) MPI_Send(block, count, MPI_DOUBLE, east, 0, MPI_COMM_WORLD);
    if (south >= 0) MPI_Send(block, count, MPI_DOUBLE, south, 0, MPI_COMM_WORLD);
  }

  free(from_west);
  free(from_north);
  free(block);
  return app_finish(rank, ok);
}
