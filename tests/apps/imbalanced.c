/* app_imbalanced: a periodic ring exchange, then compute whose amount depends on the rank: the
 * slowest ranks set the pace.
 *
 * usage: app_imbalanced [size [iterations]]   (defaults 2048, 50; n >= 1)
 *
 * Every iteration, in this order:
 *   MPI_Sendrecv of size doubles (tag 9) to r + 1 from r - 1 (mod n)
 *   MPI_Sendrecv of size doubles (tag 9) to r - 1 from r + 1 (mod n)
 *   compute: ranks with r mod 4 == 3 sweep their block 3 times as often as the others
 *   MPI_Allreduce of 1 double (MPI_MAX)
 * Then app_finish's MPI_Reduce.
 *
 * Reproduces: imbalanced compute set by a rule of the rank (every fourth rank works three
 * times as hard), which the mean over ranks under-predicts.
 * Verification: the blocks from the left and the right hold those ranks' numbers; the
 * maximum of the ranks' numbers is n - 1.
 */
#include <stdlib.h>

#include "app_common.h"

static const char* const kUsage =
    "app_imbalanced [size 1..1000000 (2048)] [iterations 1..1000000 (50)]";

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  long size_arg = 0, iters_arg = 0;
  if (argc > 3 || app_arg_long(argc, argv, 1, 1, 1000000, 2048, &size_arg) != 0 ||
      app_arg_long(argc, argv, 2, 1, 1000000, 50, &iters_arg) != 0)
    return app_usage(rank, kUsage, "bad arguments");
  const int m = (int)size_arg;
  const int left = (rank + n - 1) % n, right = (rank + 1) % n;
  double* mine = malloc((size_t)m * sizeof(double));
  double* from_left = malloc((size_t)m * sizeof(double));
  double* from_right = malloc((size_t)m * sizeof(double));
  if (!mine || !from_left || !from_right) MPI_Abort(MPI_COMM_WORLD, APP_EXIT_FAIL);
  for (int k = 0; k < m; ++k) mine[k] = rank;
  const int sweeps = rank % 4 == 3 ? 300 : 100;
  int ok = 1;
  volatile double sink = 0;
  for (int it = 0; it < iters_arg; ++it) {
    MPI_Sendrecv(mine, m, MPI_DOUBLE, right, 9, from_left, m, MPI_DOUBLE, left, 9, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(mine, m, MPI_DOUBLE, left, 9, from_right, m, MPI_DOUBLE, right, 9, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (from_left[m - 1] != left || from_right[0] != right) ok = 0;
    double acc = 0;
    for (int s = 0; s < sweeps; ++s)
      for (int k = 0; k < m; ++k) acc += from_left[k] * 0.5 + from_right[k] * 0.25 + s;
    sink = acc;
    APP_COMPUTE_FLOPS(4.0 * sweeps * m);
    double me = rank, top = 0;
    MPI_Allreduce(&me, &top, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (top != n - 1) ok = 0;
  }
  (void)sink;
  free(mine);
  free(from_left);
  free(from_right);
  return app_finish(rank, ok);
}
