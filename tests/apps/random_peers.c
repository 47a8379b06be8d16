/* app_random_peers: point-to-point traffic with a different pseudo-random partner every
 * iteration -- an irregular pattern for testing how p3s reports what it cannot model.
 *
 * usage: app_random_peers [count [iterations [seed]]]   (defaults 1024, 50, 12345; any n >= 1)
 *
 * Every iteration all ranks build the same permutation p of 0..n-1 (below), then rank r calls
 * MPI_Sendrecv once: `count` doubles to p[r], `count` doubles from p^-1[r], tag 0. A rank with
 * p[r] == r exchanges with itself. A compute loop fills and checks the data.
 * After the loop: one MPI_Reduce (MPI_MIN of an int) of the verdicts to rank 0.
 *
 * The permutation (tests/integration/app_expectations.hpp reproduces it exactly):
 *   state = seed * 2^32 + iteration                    (64-bit unsigned arithmetic)
 *   next() = { state = state * 6364136223846793005 + 1442695040888963407; return state >> 33; }
 *   p = identity; for i = n-1 down to 1: swap(p[i], p[next() % (i+1)])   (Fisher-Yates)
 *
 * Verification: each value sent encodes the sender, element and iteration, so the receiver
 * checks it came from p^-1[r] in this iteration.
 */
#include <stdint.h>
#include <stdlib.h>

#include "app_common.h"

static const char* const kUsage =
    "app_random_peers [count 1..1048576 (1024)] [iterations 1..1000000 (50)] "
    "[seed 0..2147483647 (12345)]";

static uint32_t lcg_next(uint64_t* state) {
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (uint32_t)(*state >> 33); /* the high bits; an LCG's low bits are far from random */
}

static void permutation(int n, long seed, long iteration, int* p) {
  uint64_t state = ((uint64_t)seed << 32) + (uint64_t)iteration;
  for (int i = 0; i < n; ++i) p[i] = i;
  for (int i = n - 1; i > 0; --i) {
    const int j = (int)(lcg_next(&state) % (uint32_t)(i + 1));
    const int t = p[i];
    p[i] = p[j];
    p[j] = t;
  }
}

static double payload(long sender, long k, long it) {
  return (double)(sender * 100000 + (k * 3 + it) % 100000);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, nprocs = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

  long count_arg = 0, iters_arg = 0, seed = 0;
  if (argc > 4 || app_arg_long(argc, argv, 1, 1, 1048576, 1024, &count_arg) != 0 ||
      app_arg_long(argc, argv, 2, 1, 1000000, 50, &iters_arg) != 0 ||
      app_arg_long(argc, argv, 3, 0, 2147483647L, 12345, &seed) != 0)
    return app_usage(rank, kUsage, "bad arguments");
  const int count = (int)count_arg;
  const int iters = (int)iters_arg;

  int* p = malloc((size_t)nprocs * sizeof(int));
  double* out = malloc((size_t)count * sizeof(double));
  double* in = malloc((size_t)count * sizeof(double));
  if (!p || !out || !in) MPI_Abort(MPI_COMM_WORLD, APP_EXIT_FAIL);

  int ok = 1;
  for (int it = 0; it < iters; ++it) {
    permutation(nprocs, seed, it, p);
    int from = -1; /* p^-1[rank]: the one i with p[i] == rank */
    for (int i = 0; i < nprocs; ++i)
      if (p[i] == rank) from = i;

    for (int k = 0; k < count; ++k) out[k] = payload(rank, k, it);
    MPI_Sendrecv(out, count, MPI_DOUBLE, p[rank], 0, in, count, MPI_DOUBLE, from, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    for (int k = 0; k < count; ++k)
      if (in[k] != payload(from, k, it)) ok = 0;
  }

  free(p);
  free(out);
  free(in);
  return app_finish(rank, ok);
}
