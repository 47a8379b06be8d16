/* app_straddle: a pipelined ring, each iteration's receive posted in the iteration before (or
 * before the loop), as pipelined codes overlap communication with compute.
 *
 * usage: app_straddle [size [iterations]]   (defaults 4096, 40; n >= 2)
 *
 * Before the loop: MPI_Irecv of iteration 0's block from the left neighbour (r - 1 mod n).
 * Every iteration k, in this order:
 *   MPI_Isend of the rank's block (size doubles, tag 5) to the right neighbour (r + 1 mod n)
 *   compute over the block
 *   MPI_Wait for the receive of iteration k
 *   MPI_Irecv of iteration k + 1's block from the left neighbour (tag 5), but in the last one
 *   MPI_Wait for the send
 *   MPI_Allreduce of 1 double (MPI_SUM)
 * Then app_finish's MPI_Reduce.
 *
 * Reproduces: messages that straddle iterations and phases: every receive but the first is
 * posted in the iteration before the one that completes it.
 * Verification: rank q's block in iteration k holds q + k everywhere; the allreduce of the
 * rank's number must give n (n - 1) / 2.
 */
#include <stdlib.h>

#include "app_common.h"

static const char* const kUsage =
    "app_straddle [size 1..1000000 (4096)] [iterations 1..1000000 (40)]; n must be at least 2";

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  long size_arg = 0, iters_arg = 0;
  if (argc > 3 || app_arg_long(argc, argv, 1, 1, 1000000, 4096, &size_arg) != 0 ||
      app_arg_long(argc, argv, 2, 1, 1000000, 40, &iters_arg) != 0)
    return app_usage(rank, kUsage, "bad arguments");
  if (n < 2) return app_usage(rank, kUsage, "process count below 2");
  const int m = (int)size_arg;
  const int left = (rank + n - 1) % n, right = (rank + 1) % n;
  double* out = malloc((size_t)m * sizeof(double));
  double* in[2] = {malloc((size_t)m * sizeof(double)), malloc((size_t)m * sizeof(double))};
  if (!out || !in[0] || !in[1]) MPI_Abort(MPI_COMM_WORLD, APP_EXIT_FAIL);
  int ok = 1;
  MPI_Request receive, send;
  MPI_Irecv(in[0], m, MPI_DOUBLE, left, 5, MPI_COMM_WORLD, &receive);
  for (int it = 0; it < iters_arg; ++it) {
    for (int k = 0; k < m; ++k) out[k] = rank + it;
    MPI_Isend(out, m, MPI_DOUBLE, right, 5, MPI_COMM_WORLD, &send);
    double local = 0;
    for (int k = 0; k < m; ++k) local += 0.5 * out[k];
    APP_COMPUTE_FLOPS(2.0 * m);
    MPI_Wait(&receive, MPI_STATUS_IGNORE);
    const double* got = in[it % 2];
    if (got[0] != left + it || got[m - 1] != left + it) ok = 0;
    if (it + 1 < iters_arg) {
      MPI_Irecv(in[(it + 1) % 2], m, MPI_DOUBLE, left, 5, MPI_COMM_WORLD, &receive);
    }
    MPI_Wait(&send, MPI_STATUS_IGNORE);
    double mine = rank, sum = 0;
    MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (sum != (double)n * (n - 1) / 2) ok = 0;
    (void)local;
  }
  free(out);
  free(in[0]);
  free(in[1]);
  return app_finish(rank, ok);
}
