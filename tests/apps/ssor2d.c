/* app_ssor2d: symmetric successive over-relaxation on a 2D grid of ranks, NON-periodic, as a
 * pipelined wavefront (the lower sweep flows south-east, the upper one north-west).
 *
 * usage: app_ssor2d [edge [iterations]]   (defaults 48 and 20; any n >= 1)
 *
 * The application lays out its own grid: rows = the largest divisor of n not above sqrt(n),
 * cols = n / rows; rank r sits at row r / cols, column r % cols. Its neighbours, each -1 when it
 * falls outside the grid (the guard every call tests): north r - cols, south r + cols, west
 * r - 1, east r + 1. Each rank owns edge x edge columns of `planes` = 4 cells each.
 * Setup: eight MPI_Bcast of one value each from rank 0, as input decks are read on one rank and
 * handed out a parameter at a time (the edge, the iterations, then six relaxation constants).
 * Every iteration, in this order:
 *   the lower sweep, for each of the 4 planes:
 *     MPI_Recv from north (edge doubles, tag 1), if it exists; MPI_Recv from west (tag 2), if
 *     it exists; the plane's update; MPI_Send to south (tag 1), if it exists; MPI_Send to east
 *     (tag 2), if it exists;
 *   the upper sweep, for each of the 4 planes in reverse:
 *     MPI_Recv from south (tag 3), if it exists; MPI_Recv from east (tag 4), if it exists; the
 *     update; MPI_Send to north (tag 3), if it exists; MPI_Send to west (tag 4), if it exists;
 *   MPI_Allreduce of 1 double (MPI_SUM): the squared residual.
 * After the loop: app_finish's MPI_Reduce.
 *
 * Reproduces: a wavefront whose corner and edge ranks skip the calls towards missing
 * neighbours, on a grid the application computes, and runs at n = 1 and on one row; input
 * broadcasts that take a share of small runs but not of large ones.
 * Verification: each boundary row carries the sender's rank in its first value, checked on
 * arrival, and the reduced residual is a finite, non-negative number.
 */
#include <stdlib.h>

#include "app_common.h"

static const char* const kUsage = "app_ssor2d [edge 2..4096 (48)] [iterations 1..1000000 (20)]";

enum { kPlanes = 4, kTagSouthward = 1, kTagEastward = 2, kTagNorthward = 3, kTagWestward = 4 };

static int grid_rows(int n) {
  int rows = 1;
  for (int d = 1; (long)d * d <= n; ++d)
    if (n % d == 0) rows = d;
  return rows;
}

/* Receives a boundary row from `peer` if it exists and checks whose it is; 1 when fine. Without
 * a neighbour the ghost row is the domain's border, zero. */
static int receive_row(double* row, long edge, int peer, int tag) {
  if (peer < 0) {
    for (long i = 0; i < edge; ++i) row[i] = 0.0;
    return 1;
  }
  MPI_Recv(row, (int)edge, MPI_DOUBLE, peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return row[0] == (double)peer;
}

static void send_row(double* row, long edge, int rank, int peer, int tag) {
  if (peer < 0) return;
  row[0] = (double)rank;
  MPI_Send(row, (int)edge, MPI_DOUBLE, peer, tag, MPI_COMM_WORLD);
}

/* One plane's relaxation, from the two ghost rows (zero at the domain's border); returns the
 * squared change. */
static double relax(double* cells, long edge, const double* from_ns, const double* from_we) {
  double change = 0.0;
  for (long i = 0; i < edge; ++i)
    for (long j = 0; j < edge; ++j) {
      const double up = i > 0 ? cells[(i - 1) * edge + j] : (j > 0 ? from_ns[j] : 0.0);
      const double left = j > 0 ? cells[i * edge + j - 1] : (i > 0 ? from_we[i] : 0.0);
      const double next = 0.25 * (up + left) + 0.5 * cells[i * edge + j];
      change += (next - cells[i * edge + j]) * (next - cells[i * edge + j]);
      cells[i * edge + j] = next;
    }
  return change;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  long edge = 0, iters = 0;
  if (argc > 3 || app_arg_long(argc, argv, 1, 2, 4096, 48, &edge) != 0 ||
      app_arg_long(argc, argv, 2, 1, 1000000, 20, &iters) != 0)
    return app_usage(rank, kUsage, "bad arguments");
  const int rows = grid_rows(n), cols = n / rows;
  const int row = rank / cols, col = rank % cols;
  const int north = row > 0 ? rank - cols : -1;
  const int south = row < rows - 1 ? rank + cols : -1;
  const int west = col > 0 ? rank - 1 : -1;
  const int east = col < cols - 1 ? rank + 1 : -1;

  int args[2] = {(int)edge, (int)iters};
  MPI_Bcast(&args[0], 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(&args[1], 1, MPI_INT, 0, MPI_COMM_WORLD);
  int ok = args[0] == edge && args[1] == iters;
  static const double kConstants[6] = {0.25, 0.25, 0.5, 1.0, 1e-9, 2.0};
  for (int c = 0; c < 6; ++c) {
    double value = rank == 0 ? kConstants[c] : -1.0;
    MPI_Bcast(&value, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (value != kConstants[c]) ok = 0;
  }

  double* cells = malloc((size_t)(kPlanes * edge * edge) * sizeof(double));
  double* rows_in = calloc((size_t)(2 * edge), sizeof(double));
  double* rows_out = malloc((size_t)(2 * edge) * sizeof(double));
  if (!cells || !rows_in || !rows_out) MPI_Abort(MPI_COMM_WORLD, APP_EXIT_FAIL);
  for (long c = 0; c < kPlanes * edge * edge; ++c) cells[c] = (double)((c * 7 + rank) % 23);

  for (long it = 0; it < iters; ++it) {
    double change = 0.0;
    for (int p = 0; p < kPlanes; ++p) {
      double* plane = cells + (long)p * edge * edge;
      ok &= receive_row(rows_in, edge, north, kTagSouthward);
      ok &= receive_row(rows_in + edge, edge, west, kTagEastward);
      change += relax(plane, edge, rows_in, rows_in + edge);
      for (long j = 0; j < edge; ++j) rows_out[j] = plane[(edge - 1) * edge + j];
      for (long i = 0; i < edge; ++i) rows_out[edge + i] = plane[i * edge + edge - 1];
      send_row(rows_out, edge, rank, south, kTagSouthward);
      send_row(rows_out + edge, edge, rank, east, kTagEastward);
    }
    for (int p = kPlanes - 1; p >= 0; --p) {
      double* plane = cells + (long)p * edge * edge;
      ok &= receive_row(rows_in, edge, south, kTagNorthward);
      ok &= receive_row(rows_in + edge, edge, east, kTagWestward);
      change += relax(plane, edge, rows_in, rows_in + edge);
      for (long j = 0; j < edge; ++j) rows_out[j] = plane[j];
      for (long i = 0; i < edge; ++i) rows_out[edge + i] = plane[i * edge];
      send_row(rows_out, edge, rank, north, kTagNorthward);
      send_row(rows_out + edge, edge, rank, west, kTagWestward);
    }
    APP_COMPUTE_FLOPS(2 * kPlanes * 6 * edge * edge);
    double total = -1.0;
    MPI_Allreduce(&change, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (!(total >= 0.0 && total < 1e300)) ok = 0;
  }
  free(cells);
  free(rows_in);
  free(rows_out);
  return app_finish(rank, ok);
}
