/* app_stencil3d: a 3D diffusion stencil on a NON-periodic MPI_Dims_create(n, 3) grid, after a
 * setup whose exchanges border ranks make fewer of.
 *
 * usage: app_stencil3d [edge [iterations [split]]]   (defaults 16, 30, 0; any n)
 *
 * Grid px x py x pz = MPI_Dims_create(n, 3) (px >= py >= pz), made by MPI_Cart_create (not
 * periodic, no reordering): rank r sits at (r / (py pz), (r / pz) % py, r % pz). At small n the
 * grid is degenerate (n = 4 gives 2 x 2 x 1: no neighbour in z at all).
 * Local block: with split 0, edge^3 cells on every rank (weak scaling); with split 1, a global
 * cube of edge^3 cells cut as evenly as the grid allows: along dimension d of extent p, the
 * first edge % p coordinates get edge / p + 1 cells, the others edge / p, so face sizes differ
 * by a rank's position when p does not divide edge (strong scaling).
 * Setup, in this order:
 *   MPI_Bcast of 3 ints (12 bytes) from rank 0: the arguments
 *   for each existing neighbour, in -x, +x, -y, +y, -z, +z order: MPI_Sendrecv of the rank's
 *     3 local extents (3 ints, tag 11) with it (an exchange: to it and from it)
 *   MPI_Allreduce of 1 long (MPI_SUM): the global cell count
 * Every iteration, in this order:
 *   MPI_Irecv from each existing neighbour in -x, +x, -y, +y, -z, +z order, then MPI_Isend to
 *     each in the same order (one face each: ly*lz, lx*lz or lx*ly doubles, tag 0)
 *   MPI_Waitall over those requests (called even with none)
 *   an explicit diffusion step over the block (7 points, zero flux across the domain's border)
 *   MPI_Allreduce of 1 double (MPI_SUM): the squared size of the step
 * After the loop: MPI_Allreduce of 2 doubles (MPI_SUM): the global sums before and after; then
 * app_finish's MPI_Reduce.
 *
 * Reproduces: setup exchanges that border ranks make fewer of, 3D decompositions that are
 * degenerate at small n, and (split 1) sizes that differ by position.
 * Verification: the step moves material between neighbouring cells only, so the global sum is
 * conserved (the last allreduce compares it before and after); the extents received in the
 * setup are the neighbour's, recomputed from its coordinates; the global cell count is right.
 */
#include <math.h>
#include <stdlib.h>

#include "app_common.h"

static const char* const kUsage =
    "app_stencil3d [edge 1..512 (16)] [iterations 1..1000000 (30)] [split 0|1 (0)]";

static const double kWeight = 0.1; /* per neighbour: below 1/6 keeps the step a contraction */

static double initial_value(long gx, long gy, long gz) {
  return (double)((gx * 7 + gy * 13 + gz * 5) % 19);
}

/* Cells and first global index of coordinate c along a dimension of extent p. */
static void extent_of(long edge, int split, int p, int c, long* cells, long* first) {
  if (!split) {
    *cells = edge;
    *first = (long)c * edge;
    return;
  }
  const long base = edge / p, extra = edge % p;
  *cells = base + (c < extra ? 1 : 0);
  *first = (long)c * base + (c < extra ? c : extra);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  long edge_arg = 0, iters_arg = 0, split_arg = 0;
  if (argc > 4 || app_arg_long(argc, argv, 1, 1, 512, 16, &edge_arg) != 0 ||
      app_arg_long(argc, argv, 2, 1, 1000000, 30, &iters_arg) != 0 ||
      app_arg_long(argc, argv, 3, 0, 1, 0, &split_arg) != 0)
    return app_usage(rank, kUsage, "bad arguments");
  int dims[3] = {0, 0, 0}, periods[3] = {0, 0, 0}, coords[3];
  MPI_Dims_create(n, 3, dims);
  if (split_arg && (edge_arg < dims[0] || edge_arg < dims[1] || edge_arg < dims[2]))
    return app_usage(rank, kUsage, "split 1 needs edge >= every grid extent");
  MPI_Comm grid;
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &grid);
  MPI_Cart_coords(grid, rank, 3, coords);
  int nb[6];
  for (int d = 0; d < 3; ++d) MPI_Cart_shift(grid, d, 1, &nb[2 * d], &nb[2 * d + 1]);
  int ok = 1;

  int args[3] = {(int)edge_arg, (int)iters_arg, (int)split_arg};
  MPI_Bcast(args, 3, MPI_INT, 0, MPI_COMM_WORLD);
  if (args[0] != edge_arg || args[1] != iters_arg || args[2] != split_arg) ok = 0;
  const int split = (int)split_arg;
  long l[3], g0[3];
  for (int d = 0; d < 3; ++d) extent_of(edge_arg, split, dims[d], coords[d], &l[d], &g0[d]);
  for (int k = 0; k < 6; ++k) {
    if (nb[k] == MPI_PROC_NULL) continue;
    int mine[3] = {(int)l[0], (int)l[1], (int)l[2]}, theirs[3] = {-1, -1, -1};
    MPI_Sendrecv(mine, 3, MPI_INT, nb[k], 11, theirs, 3, MPI_INT, nb[k], 11, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    int c[3];
    MPI_Cart_coords(grid, nb[k], 3, c);
    for (int d = 0; d < 3; ++d) {
      long cells = 0, first = 0;
      extent_of(edge_arg, split, dims[d], c[d], &cells, &first);
      if (theirs[d] != cells) ok = 0;
    }
  }
  long local_cells = l[0] * l[1] * l[2], all_cells = 0;
  MPI_Allreduce(&local_cells, &all_cells, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  const long expected_cells =
      split ? edge_arg * edge_arg * edge_arg : (long)n * edge_arg * edge_arg * edge_arg;
  if (all_cells != expected_cells) ok = 0;

  const long wx = l[0] + 2, wy = l[1] + 2, wz = l[2] + 2;
  double* u = calloc((size_t)(wx * wy * wz), sizeof(double));
  double* next = calloc((size_t)(wx * wy * wz), sizeof(double));
  const long face_max =
      (l[0] > l[2] ? l[0] : l[2]) * (l[1] > l[2] ? l[1] : l[2]) * (l[0] > l[1] ? l[0] : l[1]);
  double* sendbuf = malloc((size_t)(6 * face_max) * sizeof(double));
  double* recvbuf = malloc((size_t)(6 * face_max) * sizeof(double));
  if (!u || !next || !sendbuf || !recvbuf) MPI_Abort(MPI_COMM_WORLD, APP_EXIT_FAIL);
#define AT(a, x, y, z) ((a)[((size_t)(x)*wy + (size_t)(y)) * wz + (size_t)(z)])
  double local_initial = 0.0;
  for (long x = 1; x <= l[0]; ++x)
    for (long y = 1; y <= l[1]; ++y)
      for (long z = 1; z <= l[2]; ++z) {
        AT(u, x, y, z) = initial_value(g0[0] + x - 1, g0[1] + y - 1, g0[2] + z - 1);
        local_initial += AT(u, x, y, z);
      }

  /* Face k of the block: the cells next to neighbour k, and its ghost layer. Dimension d's
   * face holds the other two extents' cells. */
  for (long it = 0; it < iters_arg; ++it) {
    long count[6];
    for (int k = 0; k < 6; ++k) {
      const int d = k / 2;
      const long fixed = (k % 2 == 0) ? 1 : l[d];
      long m = 0;
      for (long a = 1; a <= l[d == 0 ? 1 : 0]; ++a)
        for (long b = 1; b <= l[d == 2 ? 1 : 2]; ++b) {
          const long x = d == 0 ? fixed : a, y = d == 1 ? fixed : (d == 0 ? a : b),
                     z = d == 2 ? fixed : b;
          sendbuf[k * face_max + m++] = AT(u, x, y, z);
        }
      count[k] = m;
    }
    MPI_Request requests[12];
    int nreq = 0;
    for (int k = 0; k < 6; ++k)
      if (nb[k] != MPI_PROC_NULL)
        MPI_Irecv(recvbuf + k * face_max, (int)count[k], MPI_DOUBLE, nb[k], 0, MPI_COMM_WORLD,
                  &requests[nreq++]);
    for (int k = 0; k < 6; ++k)
      if (nb[k] != MPI_PROC_NULL)
        MPI_Isend(sendbuf + k * face_max, (int)count[k], MPI_DOUBLE, nb[k], 0, MPI_COMM_WORLD,
                  &requests[nreq++]);
    MPI_Waitall(nreq, requests, MPI_STATUSES_IGNORE);
    /* Ghosts: the neighbour's face, or (zero flux at the border) the cell itself. */
    for (int k = 0; k < 6; ++k) {
      const int d = k / 2;
      const long ghost = (k % 2 == 0) ? 0 : l[d] + 1, inner = (k % 2 == 0) ? 1 : l[d];
      long m = 0;
      for (long a = 1; a <= l[d == 0 ? 1 : 0]; ++a)
        for (long b = 1; b <= l[d == 2 ? 1 : 2]; ++b) {
          const long y = d == 1 ? ghost : (d == 0 ? a : b), z = d == 2 ? ghost : b;
          const long yi = d == 1 ? inner : y, zi = d == 2 ? inner : z;
          const long x = d == 0 ? ghost : a, xi = d == 0 ? inner : x;
          AT(u, x, y, z) = nb[k] != MPI_PROC_NULL ? recvbuf[k * face_max + m] : AT(u, xi, yi, zi);
          ++m;
        }
    }
    double change = 0.0;
    for (long x = 1; x <= l[0]; ++x)
      for (long y = 1; y <= l[1]; ++y)
        for (long z = 1; z <= l[2]; ++z) {
          const double c = AT(u, x, y, z);
          const double v =
              c + kWeight * (AT(u, x - 1, y, z) + AT(u, x + 1, y, z) + AT(u, x, y - 1, z) +
                             AT(u, x, y + 1, z) + AT(u, x, y, z - 1) + AT(u, x, y, z + 1) - 6 * c);
          change += (v - c) * (v - c);
          AT(next, x, y, z) = v;
        }
    APP_COMPUTE_FLOPS(10.0 * (double)local_cells);
    double* swap = u;
    u = next;
    next = swap;
    double total_change = 0.0;
    MPI_Allreduce(&change, &total_change, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  double local_final = 0.0;
  for (long x = 1; x <= l[0]; ++x)
    for (long y = 1; y <= l[1]; ++y)
      for (long z = 1; z <= l[2]; ++z) local_final += AT(u, x, y, z);
#undef AT
  double sums[2] = {local_initial, local_final}, global[2] = {0, 0};
  MPI_Allreduce(sums, global, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (fabs(global[1] - global[0]) > 1e-9 * fmax(1.0, global[0])) ok = 0;
  MPI_Comm_free(&grid);
  free(u);
  free(next);
  free(sendbuf);
  free(recvbuf);
  return app_finish(rank, ok);
}
