/* app_stencil2d: 2D diffusion stencil on a non-periodic sqrt(n) x sqrt(n) process grid.
 *
 * usage: app_stencil2d [edge [iterations]]   (defaults 64 and 50; n must be a perfect square)
 *
 * Process grid: q = sqrt(n); rank r sits at row i = r / q, column j = r % q (row-major).
 * Its neighbours are N = r - q (if i > 0), S = r + q (if i < q-1), W = r - 1 (if j > 0) and
 * E = r + 1 (if j < q-1); border ranks simply have fewer of them.
 *
 * Every iteration, in this order:
 *   MPI_Irecv from each existing neighbour in N, S, W, E order   (edge doubles each)
 *   MPI_Isend to each existing neighbour in N, S, W, E order     (edge doubles each)
 *   MPI_Waitall over those requests (called even with none, so all ranks make the same calls)
 *   one explicit diffusion step over the edge x edge local block
 *   MPI_Allreduce of 1 double (MPI_SUM): the squared size of the step (the "residual")
 * After the loop: one MPI_Reduce of 1 double (MPI_SUM) to rank 0, the global field sum.
 *
 * Verification: the step only moves material between neighbouring cells and lets nothing cross
 * the outer border, so the global sum is conserved; rank 0 compares the final sum with the
 * initial one computed independently from the initial formula. The step is a contraction
 * (weight 0.1 < 1/8), so the residual may never grow: rank 0 checks that too, which catches
 * halos that carry wrong data even when they happen to conserve the sum.
 */
#include <math.h>
#include <stdlib.h>

#include "app_common.h"

static const char* const kUsage =
    "app_stencil2d [edge 1..4096 (64)] [iterations 1..1000000 (50)]; n must be a perfect square";

enum { NORTH, SOUTH, WEST, EAST, NDIR };

/* Diffusion weight per neighbour: below 1/8 keeps the explicit step a contraction. */
static const double kWeight = 0.1;

/* Initial value of global cell (gx, gy): small integers, so sums are exact to start with. */
static double initial_value(long gx, long gy) {
  return (double)((gx * 7 + gy * 13) % 17);
}

/* Smallest q with q*q >= n, so that q*q == n tells whether n is a perfect square. */
static int int_sqrt_ceil(int n) {
  int q = 0;
  while (q * q < n) ++q;
  return q;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, nprocs = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

  long edge_arg = 0, iters_arg = 0;
  if (argc > 3 || app_arg_long(argc, argv, 1, 1, 4096, 64, &edge_arg) != 0 ||
      app_arg_long(argc, argv, 2, 1, 1000000, 50, &iters_arg) != 0)
    return app_usage(rank, kUsage, "bad arguments");
  const int q = int_sqrt_ceil(nprocs);
  if (q * q != nprocs) return app_usage(rank, kUsage, "process count is not a perfect square");
  const int m = (int)edge_arg; /* local block is m x m, stored with a one-cell ghost ring */
  const int iters = (int)iters_arg;

  const int row = rank / q, col = rank % q;
  int neighbour[NDIR];
  neighbour[NORTH] = row > 0 ? rank - q : -1;
  neighbour[SOUTH] = row < q - 1 ? rank + q : -1;
  neighbour[WEST] = col > 0 ? rank - 1 : -1;
  neighbour[EAST] = col < q - 1 ? rank + 1 : -1;

  /* Cell (x, y) of the block, x in 0..m+1 west to east, y in 0..m+1 north to south; rows 0
   * and m+1 and columns 0 and m+1 are the ghosts. */
  const int w = m + 2;
  double* u = calloc((size_t)w * w, sizeof(double));
  double* next = calloc((size_t)w * w, sizeof(double));
  double* sendbuf = malloc((size_t)NDIR * m * sizeof(double));
  double* recvbuf = malloc((size_t)NDIR * m * sizeof(double));
  if (!u || !next || !sendbuf || !recvbuf) MPI_Abort(MPI_COMM_WORLD, APP_EXIT_FAIL);
#define AT(a, x, y) ((a)[(size_t)(y)*w + (x)])

  for (int y = 1; y <= m; ++y)
    for (int x = 1; x <= m; ++x)
      AT(u, x, y) = initial_value((long)col * m + x - 1, (long)row * m + y - 1);

  /* Every rank sees the same residuals; rank 0's verdict is the one reported. */
  int ok = 1;
  double previous_residual = INFINITY;

  for (int it = 0; it < iters; ++it) {
    /* Outgoing edges: the first or last row or column of the block, packed contiguously. */
    for (int k = 0; k < m; ++k) {
      sendbuf[NORTH * m + k] = AT(u, k + 1, 1);
      sendbuf[SOUTH * m + k] = AT(u, k + 1, m);
      sendbuf[WEST * m + k] = AT(u, 1, k + 1);
      sendbuf[EAST * m + k] = AT(u, m, k + 1);
    }

    MPI_Request requests[2 * NDIR];
    int nreq = 0;
    for (int d = 0; d < NDIR; ++d)
      if (neighbour[d] >= 0)
        MPI_Irecv(recvbuf + d * m, m, MPI_DOUBLE, neighbour[d], 0, MPI_COMM_WORLD,
                  &requests[nreq++]);
    for (int d = 0; d < NDIR; ++d)
      if (neighbour[d] >= 0)
        MPI_Isend(sendbuf + d * m, m, MPI_DOUBLE, neighbour[d], 0, MPI_COMM_WORLD,
                  &requests[nreq++]);
    MPI_Waitall(nreq, requests, MPI_STATUSES_IGNORE);

    /* Fill the ghosts: a neighbour's edge where there is one, else a copy of our own edge,
     * which makes the flux across the outer border zero (so the total is conserved). */
    for (int k = 0; k < m; ++k) {
      AT(u, k + 1, 0) = neighbour[NORTH] >= 0 ? recvbuf[NORTH * m + k] : AT(u, k + 1, 1);
      AT(u, k + 1, m + 1) = neighbour[SOUTH] >= 0 ? recvbuf[SOUTH * m + k] : AT(u, k + 1, m);
      AT(u, 0, k + 1) = neighbour[WEST] >= 0 ? recvbuf[WEST * m + k] : AT(u, 1, k + 1);
      AT(u, m + 1, k + 1) = neighbour[EAST] >= 0 ? recvbuf[EAST * m + k] : AT(u, m, k + 1);
    }

    double local_residual = 0.0;
    for (int y = 1; y <= m; ++y)
      for (int x = 1; x <= m; ++x) {
        const double c = AT(u, x, y);
        const double flow =
            AT(u, x, y - 1) + AT(u, x, y + 1) + AT(u, x - 1, y) + AT(u, x + 1, y) - 4.0 * c;
        AT(next, x, y) = c + kWeight * flow;
        local_residual += (kWeight * flow) * (kWeight * flow);
      }
    /* Declared cost of the step (SMPI builds only): about 10 flops per cell for the flow, the
     * update and the residual. */
    APP_COMPUTE_FLOPS(10.0 * m * m);
    double* swap = u;
    u = next;
    next = swap;

    double residual = 0.0;
    MPI_Allreduce(&local_residual, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    /* Relative slack only for rounding; a real increase is far larger. */
    if (!(residual <= previous_residual * (1.0 + 1e-9) + 1e-300)) ok = 0;
    previous_residual = residual;
  }

  double local_sum = 0.0;
  for (int y = 1; y <= m; ++y)
    for (int x = 1; x <= m; ++x) local_sum += AT(u, x, y);
  double global_sum = 0.0;
  MPI_Reduce(&local_sum, &global_sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);

  if (rank == 0) {
    /* The expected total, from the formula rather than from any rank's data. */
    const long side = (long)q * m;
    double expected = 0.0;
    for (long gy = 0; gy < side; ++gy)
      for (long gx = 0; gx < side; ++gx) expected += initial_value(gx, gy);
    if (fabs(global_sum - expected) > 1e-9 * fmax(1.0, fabs(expected))) ok = 0;
  }
#undef AT
  free(u);
  free(next);
  free(sendbuf);
  free(recvbuf);
  return app_report(rank, ok);
}
