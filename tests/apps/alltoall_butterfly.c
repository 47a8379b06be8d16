/* app_alltoall_butterfly: an FFT-like loop: a transpose by MPI_Alltoall, then one exchange per
 * bit of n, then a reduction, all in one iteration.
 *
 * usage: app_alltoall_butterfly [size [iterations]]   (defaults 65536, 30; n a power of two,
 *        size a multiple of n)
 *
 * Every iteration, in this order:
 *   MPI_Alltoall of size/n doubles to and from every rank (8 * size / n bytes per peer: 8 *
 *     size bytes sent and received in all, whatever n: strong scaling of the transpose)
 *   for k = 0 .. log2(n) - 1: MPI_Sendrecv of 64 doubles (512 bytes, tag 3) with rank r XOR 2^k
 *   MPI_Allreduce of 1 double (MPI_SUM)
 * Then app_finish's MPI_Reduce.
 *
 * Reproduces: a phase whose number of exchanges grows with n (log2 n) in the same iteration as
 * collectives whose count does not, and strong-scaling message sizes.
 * Verification: the alltoall block from rank q to rank r holds q * n + r; the butterfly sums
 * every rank's number, which must come out as n (n - 1) / 2 on every rank; the allreduce of 1.0
 * must give n.
 */
#include <stdlib.h>

#include "app_common.h"

static const char* const kUsage =
    "app_alltoall_butterfly [size 1..16777216 (65536), a multiple of n] [iterations 1..1000000 "
    "(30)]; n must be a power of two";

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  long size_arg = 0, iters_arg = 0;
  if (argc > 3 || app_arg_long(argc, argv, 1, 1, 16777216, 65536, &size_arg) != 0 ||
      app_arg_long(argc, argv, 2, 1, 1000000, 30, &iters_arg) != 0)
    return app_usage(rank, kUsage, "bad arguments");
  if ((n & (n - 1)) != 0) return app_usage(rank, kUsage, "process count is not a power of two");
  if (size_arg % n != 0) return app_usage(rank, kUsage, "size is not a multiple of n");
  const int per_peer = (int)(size_arg / n);
  double* out = malloc((size_t)size_arg * sizeof(double));
  double* in = malloc((size_t)size_arg * sizeof(double));
  if (!out || !in) MPI_Abort(MPI_COMM_WORLD, APP_EXIT_FAIL);
  double block[64], received[64];
  int ok = 1;

  for (int it = 0; it < iters_arg; ++it) {
    for (int q = 0; q < n; ++q)
      for (int k = 0; k < per_peer; ++k) out[(size_t)q * per_peer + k] = (double)rank * n + q;
    MPI_Alltoall(out, per_peer, MPI_DOUBLE, in, per_peer, MPI_DOUBLE, MPI_COMM_WORLD);
    for (int q = 0; q < n; ++q)
      if (in[(size_t)q * per_peer + per_peer - 1] != (double)q * n + rank) ok = 0;
    APP_COMPUTE_FLOPS((double)size_arg);

    for (int k = 0; k < 64; ++k) block[k] = rank;
    for (int bit = 1; bit < n; bit <<= 1) {
      MPI_Sendrecv(block, 64, MPI_DOUBLE, rank ^ bit, 3, received, 64, MPI_DOUBLE, rank ^ bit, 3,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (int k = 0; k < 64; ++k) block[k] += received[k];
      APP_COMPUTE_FLOPS(64.0);
    }
    if (block[63] != (double)n * (n - 1) / 2) ok = 0;

    double one = 1.0, count = 0.0;
    MPI_Allreduce(&one, &count, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (count != n) ok = 0;
  }
  free(out);
  free(in);
  return app_finish(rank, ok);
}
