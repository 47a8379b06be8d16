/* app_butterfly: an allreduce done by hand with recursive doubling.
 *
 * usage: app_butterfly [count [iterations]]   (defaults 1024 and 50; n must be a power of two)
 *
 * Every iteration each rank fills a vector of `count` doubles with its own contribution, then
 * for k = 0 .. log2(n)-1 calls MPI_Sendrecv with partner rank XOR 2^k (send and receive
 * `count` doubles, tag 0) and adds what it received to its vector. After log2(n) steps every
 * rank holds the element-wise sum over all ranks. With n = 1 there are no steps at all.
 * After the loop: one MPI_Reduce (MPI_MIN of an int) of the verdicts to rank 0.
 *
 * Verification: each contribution is a small integer, so the sums are exact and each rank
 * compares every element, every iteration, with a table of the analytic sums.
 */
#include <stdlib.h>

#include "app_common.h"

static const char* const kUsage =
    "app_butterfly [count 1..1048576 (1024)] [iterations 1..1000000 (50)]; n must be a power "
    "of two";

/* Contributions depend on (31 r + phase) mod 101 only, so their sums over ranks can be
 * tabulated once per phase (0..100) instead of recomputed per element. */
enum { kModulus = 101 };
static long contribution(long rank, long phase) {
  return (rank * 31 + phase) % kModulus;
}
static long phase_of(long element, long iteration) {
  return (element * 7 + iteration * 3) % kModulus;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, nprocs = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

  long count_arg = 0, iters_arg = 0;
  if (argc > 3 || app_arg_long(argc, argv, 1, 1, 1048576, 1024, &count_arg) != 0 ||
      app_arg_long(argc, argv, 2, 1, 1000000, 50, &iters_arg) != 0)
    return app_usage(rank, kUsage, "bad arguments");
  if ((nprocs & (nprocs - 1)) != 0)
    return app_usage(rank, kUsage, "process count is not a power of two");
  const int count = (int)count_arg;
  const int iters = (int)iters_arg;

  double* mine = malloc((size_t)count * sizeof(double));
  double* theirs = malloc((size_t)count * sizeof(double));
  if (!mine || !theirs) MPI_Abort(MPI_COMM_WORLD, APP_EXIT_FAIL);

  long expected_sum[kModulus];
  for (long phase = 0; phase < kModulus; ++phase) {
    expected_sum[phase] = 0;
    for (long r = 0; r < nprocs; ++r) expected_sum[phase] += contribution(r, phase);
  }

  int ok = 1;
  for (int it = 0; it < iters; ++it) {
    for (int k = 0; k < count; ++k) mine[k] = (double)contribution(rank, phase_of(k, it));
    APP_COMPUTE_FLOPS(4.0 * count); /* declared cost (SMPI builds): ~4 operations per element */

    for (int bit = 1; bit < nprocs; bit <<= 1) {
      const int partner = rank ^ bit;
      MPI_Sendrecv(mine, count, MPI_DOUBLE, partner, 0, theirs, count, MPI_DOUBLE, partner, 0,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (int k = 0; k < count; ++k) mine[k] += theirs[k];
      APP_COMPUTE_FLOPS(count); /* one add per element */
    }

    for (int k = 0; k < count; ++k)
      if (mine[k] != (double)expected_sum[phase_of(k, it)]) ok = 0;
    APP_COMPUTE_FLOPS(3.0 * count); /* ~3 operations per element checked */
  }

  free(mine);
  free(theirs);
  return app_finish(rank, ok);
}
