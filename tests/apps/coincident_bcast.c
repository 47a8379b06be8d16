/* app_coincident_bcast: two different broadcasts that are the same call at one n.
 *
 * usage: app_coincident_bcast [size [iterations]]   (defaults 1024, 40; n >= 1)
 *
 * Setup: MPI_Bcast of n ints (4 n bytes, a per-rank table) from rank 0; MPI_Barrier;
 *   MPI_Bcast of 16 ints (64 bytes) from rank 0. At n = 16 the two broadcasts are the same.
 * Every iteration: MPI_Sendrecv of size doubles (tag 2) to r + 1 from r - 1 (mod n), a
 *   compute step, MPI_Allreduce of 1 double (MPI_SUM).
 * After the loop: MPI_Bcast of 16 ints (64 bytes) from rank 0; then app_finish's MPI_Reduce.
 *
 * Reproduces: phases that coincide by size in one run only (4n = 64 at n = 16).
 * Verification: the broadcast tables hold their known values; the ring block comes from the
 * left neighbour; the allreduce of the rank's number gives n (n - 1) / 2.
 */
#include <stdlib.h>

#include "app_common.h"

static const char* const kUsage =
    "app_coincident_bcast [size 1..1000000 (1024)] [iterations 1..1000000 (40)]";

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  long size_arg = 0, iters_arg = 0;
  if (argc > 3 || app_arg_long(argc, argv, 1, 1, 1000000, 1024, &size_arg) != 0 ||
      app_arg_long(argc, argv, 2, 1, 1000000, 40, &iters_arg) != 0)
    return app_usage(rank, kUsage, "bad arguments");
  const int m = (int)size_arg;
  int ok = 1;
  int* table = malloc((size_t)n * sizeof(int));
  double* out = malloc((size_t)m * sizeof(double));
  double* in = malloc((size_t)m * sizeof(double));
  if (!table || !out || !in) MPI_Abort(MPI_COMM_WORLD, APP_EXIT_FAIL);
  for (int q = 0; q < n; ++q) table[q] = rank == 0 ? 3 * q + 1 : -1;
  MPI_Bcast(table, n, MPI_INT, 0, MPI_COMM_WORLD);
  for (int q = 0; q < n; ++q)
    if (table[q] != 3 * q + 1) ok = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  int settings[16];
  for (int k = 0; k < 16; ++k) settings[k] = rank == 0 ? k * k : -1;
  MPI_Bcast(settings, 16, MPI_INT, 0, MPI_COMM_WORLD);
  for (int k = 0; k < 16; ++k)
    if (settings[k] != k * k) ok = 0;

  const int left = (rank + n - 1) % n, right = (rank + 1) % n;
  for (int it = 0; it < iters_arg; ++it) {
    for (int k = 0; k < m; ++k) out[k] = rank;
    MPI_Sendrecv(out, m, MPI_DOUBLE, right, 2, in, m, MPI_DOUBLE, left, 2, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (in[m - 1] != left) ok = 0;
    double acc = 0;
    for (int k = 0; k < m; ++k) acc += in[k] * 0.5;
    APP_COMPUTE_FLOPS(2.0 * m);
    double mine = rank + 0 * acc, sum = 0;
    MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (sum != (double)n * (n - 1) / 2) ok = 0;
  }
  for (int k = 0; k < 16; ++k) settings[k] = rank == 0 ? 2 * k : -1;
  MPI_Bcast(settings, 16, MPI_INT, 0, MPI_COMM_WORLD);
  for (int k = 0; k < 16; ++k)
    if (settings[k] != 2 * k) ok = 0;
  free(table);
  free(out);
  free(in);
  return app_finish(rank, ok);
}
