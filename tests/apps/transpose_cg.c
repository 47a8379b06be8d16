/* app_transpose_cg: the communication of a conjugate-gradient solver's distributed sparse
 * matrix-vector product and dot products on a 2D process grid, as the NAS CG benchmark lays
 * them out (written from that description).
 *
 * usage: app_transpose_cg [size [iterations]]   (defaults 65536, 25; n a power of two, size a
 *        multiple of n)
 *
 * Grid: l = log2(n); npcols = 2^ceil(l/2) columns, nprows = n / npcols rows; rank
 * r = row * npcols + col. L = log2(npcols) = ceil(l/2).
 * Partners of the row reduction, step i = 1..L: r XOR 2^(L - i) (the highest bit of the
 * column first).
 * Transpose partner exch: when nprows == npcols, (r mod nprows) * nprows + r / nprows; when
 * npcols == 2 nprows, 2 * (((r/2) mod nprows) * nprows + (r/2) / nprows) + r mod 2. It is an
 * involution; a rank that is its own partner (the grid's diagonal) skips the exchange.
 * Every iteration, in this order:
 *   row reduction, for i = 1..L: MPI_Irecv from partner i (tag i), MPI_Send to it (tag i),
 *     MPI_Wait; size / npcols doubles (8 * size / npcols bytes)
 *   transpose, unless exch == r: MPI_Irecv from exch (tag 1), MPI_Send to it (tag 1), MPI_Wait;
 *     size / npcols doubles
 *   two dot products, each: for i = 1..L: MPI_Irecv from partner i (tag i), MPI_Send (tag i),
 *     MPI_Wait; 1 double
 * Then app_finish's MPI_Reduce. `size` is the total length of the vector: strong scaling.
 *
 * Reproduces: partners given by bit indices that grow with log2(n) (the highest exchanged bit
 * is ceil(l/2) - 1, and the transpose swaps the halves of the bits), tags that count the steps,
 * three loops of log2(npcols) exchanges and a transpose in one iteration.
 * Verification: each rank contributes r + 1 to the row reduction: after it, every element is
 * the sum of its row's contributions; after the transpose, the sum of the partner's row; the
 * dot products reduce r + 1 and 1 and are checked against the analytic sums.
 */
#include <stdlib.h>

#include "app_common.h"

static const char* const kUsage =
    "app_transpose_cg [size 1..16777216 (65536), a multiple of n] [iterations 1..1000000 (25)]; "
    "n must be a power of two";

/* Sum over the ranks of `row` of (rank + 1). */
static double row_sum(int row, int npcols) {
  double sum = 0;
  for (int col = 0; col < npcols; ++col) sum += row * npcols + col + 1;
  return sum;
}

/* Recursive doubling over the row: data (count doubles) ends as the row's sum. */
static void reduce_row(double* data, double* incoming, int count, int rank, int steps) {
  for (int i = 1; i <= steps; ++i) {
    const int partner = rank ^ (1 << (steps - i));
    MPI_Request request;
    MPI_Irecv(incoming, count, MPI_DOUBLE, partner, i, MPI_COMM_WORLD, &request);
    MPI_Send(data, count, MPI_DOUBLE, partner, i, MPI_COMM_WORLD);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    for (int k = 0; k < count; ++k) data[k] += incoming[k];
    APP_COMPUTE_FLOPS((double)count);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  long size_arg = 0, iters_arg = 0;
  if (argc > 3 || app_arg_long(argc, argv, 1, 1, 16777216, 65536, &size_arg) != 0 ||
      app_arg_long(argc, argv, 2, 1, 1000000, 25, &iters_arg) != 0)
    return app_usage(rank, kUsage, "bad arguments");
  if ((n & (n - 1)) != 0) return app_usage(rank, kUsage, "process count is not a power of two");
  if (size_arg % n != 0) return app_usage(rank, kUsage, "size is not a multiple of n");
  int l = 0;
  while ((1 << l) < n) ++l;
  const int steps = (l + 1) / 2;
  const int npcols = 1 << steps;
  const int nprows = n / npcols;
  const int row = rank / npcols;
  const int exch = npcols == nprows
                       ? (rank % nprows) * nprows + rank / nprows
                       : 2 * (((rank / 2) % nprows) * nprows + (rank / 2) / nprows) + rank % 2;
  const int exch_row = exch / npcols;
  const int count = (int)(size_arg / npcols);
  double* w = malloc((size_t)count * sizeof(double));
  double* q = malloc((size_t)count * sizeof(double));
  if (!w || !q) MPI_Abort(MPI_COMM_WORLD, APP_EXIT_FAIL);
  int ok = 1;

  for (int it = 0; it < iters_arg; ++it) {
    for (int k = 0; k < count; ++k) w[k] = rank + 1;
    APP_COMPUTE_FLOPS(4.0 * count);
    reduce_row(w, q, count, rank, steps);
    if (w[count - 1] != row_sum(row, npcols)) ok = 0;
    if (exch != rank) {
      MPI_Request request;
      MPI_Irecv(q, count, MPI_DOUBLE, exch, 1, MPI_COMM_WORLD, &request);
      MPI_Send(w, count, MPI_DOUBLE, exch, 1, MPI_COMM_WORLD);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
      if (q[0] != row_sum(exch_row, npcols)) ok = 0;
    }
    double dot[2] = {rank + 1, 1}, incoming[2];
    for (int d = 0; d < 2; ++d) reduce_row(&dot[d], &incoming[d], 1, rank, steps);
    if (dot[0] != row_sum(row, npcols) || dot[1] != npcols) ok = 0;
  }
  free(w);
  free(q);
  return app_finish(rank, ok);
}
