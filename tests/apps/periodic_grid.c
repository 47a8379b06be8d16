/* app_periodic_grid: a 2D stencil on a PERIODIC MPI_Dims_create(n, 2) grid (MPI_Cart_create
 * with both dimensions periodic), after a setup of one-off calls, with an extra convergence
 * check every 10th iteration and a gather at the end.
 *
 * usage: app_periodic_grid [size [iterations]]   (defaults 64, 40; n >= 1)
 *
 * Grid px x py = MPI_Dims_create(n, 2), rank r at (r / py, r % py) (row-major, as
 * MPI_Cart_create numbers it); neighbours north, south, west, east with wrap-around, so every
 * rank has all four (in a dimension of extent 2 north and south are the same rank, of extent 1
 * the rank itself).
 * Setup, in this order: MPI_Allreduce of 1 double (8 bytes); MPI_Bcast of 2 doubles (16 bytes)
 *   from rank 0; for each direction N, S, W, E an MPI_Sendrecv of the rank's 2 grid
 *   coordinates (2 ints, tag 4) to the neighbour that way and from the one opposite;
 *   MPI_Allreduce of 1 double; MPI_Barrier.
 * Every iteration k, in this order:
 *   MPI_Irecv from N, S, W, E; MPI_Isend to N, S, W, E (size doubles each, tag 0); MPI_Waitall
 *   a diffusion step over the size x size block
 *   when k mod 10 == 9: MPI_Allreduce of 1 double (MPI_SUM): the global total
 * After the loop: MPI_Gather of 1 double to rank 0; then app_finish's MPI_Reduce.
 *
 * Reproduces: with the same neighbours on every rank, one-off calls of the same kind and size
 * (two allreduces of 8 bytes) in the setup, and an iteration variant every 10 iterations.
 * Verification: the coordinates received are the neighbours'; the diffusion conserves the
 * total (checked every 10th iteration and at the end by the gather's sum).
 */
#include <math.h>
#include <stdlib.h>

#include "app_common.h"

static const char* const kUsage =
    "app_periodic_grid [size 1..4096 (64)] [iterations 1..1000000 (40)]";

enum { NORTH, SOUTH, WEST, EAST, NDIR };

static double initial_value(long gx, long gy) {
  return (double)((gx * 5 + gy * 3) % 11);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  long size_arg = 0, iters_arg = 0;
  if (argc > 3 || app_arg_long(argc, argv, 1, 1, 4096, 64, &size_arg) != 0 ||
      app_arg_long(argc, argv, 2, 1, 1000000, 40, &iters_arg) != 0)
    return app_usage(rank, kUsage, "bad arguments");
  const int m = (int)size_arg;
  int dims[2] = {0, 0}, periods[2] = {1, 1}, coords[2];
  MPI_Dims_create(n, 2, dims);
  MPI_Comm grid;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  MPI_Cart_coords(grid, rank, 2, coords);
  int nb[NDIR];
  MPI_Cart_shift(grid, 0, 1, &nb[NORTH], &nb[SOUTH]);
  MPI_Cart_shift(grid, 1, 1, &nb[WEST], &nb[EAST]);
  int ok = 1;

  double one = 1.0, count = 0.0, params[2] = {0, 0};
  MPI_Allreduce(&one, &count, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (count != n) ok = 0;
  if (rank == 0) params[0] = m, params[1] = (double)iters_arg;
  MPI_Bcast(params, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (params[0] != m || params[1] != iters_arg) ok = 0;
  for (int d = 0; d < NDIR; ++d) {
    int theirs[2] = {-1, -1};
    /* A shift: to the neighbour in direction d, from the one opposite (d ^ 1), so that no
     * cycle of ranks waits on each other in a dimension of extent 3 or more. */
    MPI_Sendrecv(coords, 2, MPI_INT, nb[d], 4, theirs, 2, MPI_INT, nb[d ^ 1], 4, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    int expected[2];
    MPI_Cart_coords(grid, nb[d ^ 1], 2, expected);
    if (theirs[0] != expected[0] || theirs[1] != expected[1]) ok = 0;
  }
  MPI_Allreduce(&one, &count, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);

  const int w = m + 2;
  double* u = calloc((size_t)w * w, sizeof(double));
  double* next = calloc((size_t)w * w, sizeof(double));
  double* sendbuf = malloc((size_t)NDIR * m * sizeof(double));
  double* recvbuf = malloc((size_t)NDIR * m * sizeof(double));
  if (!u || !next || !sendbuf || !recvbuf) MPI_Abort(MPI_COMM_WORLD, APP_EXIT_FAIL);
#define AT(a, x, y) ((a)[(size_t)(y)*w + (x)])
  double expected = 0.0;
  for (long gy = 0; gy < (long)dims[0] * m; ++gy)
    for (long gx = 0; gx < (long)dims[1] * m; ++gx) expected += initial_value(gx, gy);
  for (int y = 1; y <= m; ++y)
    for (int x = 1; x <= m; ++x)
      AT(u, x, y) = initial_value((long)coords[1] * m + x - 1, (long)coords[0] * m + y - 1);

  for (int it = 0; it < iters_arg; ++it) {
    for (int k = 0; k < m; ++k) {
      sendbuf[NORTH * m + k] = AT(u, k + 1, 1);
      sendbuf[SOUTH * m + k] = AT(u, k + 1, m);
      sendbuf[WEST * m + k] = AT(u, 1, k + 1);
      sendbuf[EAST * m + k] = AT(u, m, k + 1);
    }
    MPI_Request requests[2 * NDIR];
    for (int d = 0; d < NDIR; ++d)
      MPI_Irecv(recvbuf + d * m, m, MPI_DOUBLE, nb[d], 0, MPI_COMM_WORLD, &requests[d]);
    for (int d = 0; d < NDIR; ++d)
      MPI_Isend(sendbuf + d * m, m, MPI_DOUBLE, nb[d], 0, MPI_COMM_WORLD, &requests[NDIR + d]);
    MPI_Waitall(2 * NDIR, requests, MPI_STATUSES_IGNORE);
    /* What came from the north is the north neighbour's southern edge, and so on; with one
     * rank in a dimension both ghosts are the rank's own opposite edges. */
    for (int k = 0; k < m; ++k) {
      AT(u, k + 1, 0) = recvbuf[NORTH * m + k];
      AT(u, k + 1, m + 1) = recvbuf[SOUTH * m + k];
      AT(u, 0, k + 1) = recvbuf[WEST * m + k];
      AT(u, m + 1, k + 1) = recvbuf[EAST * m + k];
    }
    double local = 0.0;
    for (int y = 1; y <= m; ++y)
      for (int x = 1; x <= m; ++x) {
        const double c = AT(u, x, y);
        AT(next, x, y) = c + 0.1 * (AT(u, x, y - 1) + AT(u, x, y + 1) + AT(u, x - 1, y) +
                                    AT(u, x + 1, y) - 4 * c);
        local += AT(next, x, y);
      }
    APP_COMPUTE_FLOPS(8.0 * m * m);
    double* swap = u;
    u = next;
    next = swap;
    if (it % 10 == 9) {
      double total = 0.0;
      MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      if (fabs(total - expected) > 1e-9 * fmax(1.0, expected)) ok = 0;
    }
  }
  double local = 0.0;
  for (int y = 1; y <= m; ++y)
    for (int x = 1; x <= m; ++x) local += AT(u, x, y);
#undef AT
  double* all = rank == 0 ? malloc((size_t)n * sizeof(double)) : NULL;
  MPI_Gather(&local, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    double total = 0.0;
    for (int q = 0; q < n; ++q) total += all[q];
    if (fabs(total - expected) > 1e-9 * fmax(1.0, expected)) ok = 0;
    free(all);
  }
  MPI_Comm_free(&grid);
  free(u);
  free(next);
  free(sendbuf);
  free(recvbuf);
  return app_finish(rank, ok);
}
