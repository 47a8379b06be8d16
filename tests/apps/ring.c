/* app_ring: a blocking pipeline around a ring of ranks.
 *
 * usage: app_ring [count [iterations]]   (defaults 1024 and 50; n >= 2)
 *
 * Right = (r+1) % n, left = (r-1+n) % n. Every iteration:
 *   even ranks: MPI_Send `count` doubles to right, then MPI_Recv `count` doubles from left;
 *   odd ranks:  MPI_Recv from left first, then MPI_Send to right.
 * The odd ranks' receive-first order breaks the cycle of blocking sends (with odd n the last
 * rank is even and waits on rank 0, which is itself only waiting on odd rank 1). Tag 0.
 * Then a compute loop over the received vector (below).
 * After the loop: one MPI_Reduce (MPI_MIN of an int) of the verdicts to rank 0.
 *
 * Verification: each vector circulates and every rank it reaches adds (its rank + 1) to every
 * element. After t iterations rank r holds the vector that started on rank o = (r - t) mod n,
 * so each rank knows exactly what it must hold at the end: a checksum that depends on every
 * message having arrived from the right rank in the right order.
 */
#include <stdlib.h>

#include "app_common.h"

static const char* const kUsage =
    "app_ring [count 1..1048576 (1024)] [iterations 1..1000000 (50)]; n must be at least 2";

/* Starting value of element k of the vector that begins on rank `origin`. */
static double initial_value(long origin, long k) {
  return (double)(origin * 1000 + k % 1000);
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
  if (nprocs < 2) return app_usage(rank, kUsage, "process count must be at least 2");
  const int count = (int)count_arg;
  const int iters = (int)iters_arg;
  const int right = (rank + 1) % nprocs;
  const int left = (rank - 1 + nprocs) % nprocs;

  double* held = malloc((size_t)count * sizeof(double));
  double* incoming = malloc((size_t)count * sizeof(double));
  if (!held || !incoming) MPI_Abort(MPI_COMM_WORLD, APP_EXIT_FAIL);
  for (int k = 0; k < count; ++k) held[k] = initial_value(rank, k);

  for (int it = 0; it < iters; ++it) {
    if (rank % 2 == 0) {
      MPI_Send(held, count, MPI_DOUBLE, right, 0, MPI_COMM_WORLD);
      MPI_Recv(incoming, count, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(incoming, count, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(held, count, MPI_DOUBLE, right, 0, MPI_COMM_WORLD);
    }
    for (int k = 0; k < count; ++k) held[k] = incoming[k] + (double)(rank + 1);
    APP_COMPUTE_FLOPS(count); /* declared cost (SMPI builds): one add per element */
  }

  /* The vector now here started on `origin` and was stamped by the ranks origin+1 .. rank
   * (mod n), one per iteration. */
  const long origin = ((rank - (long)iters) % nprocs + nprocs) % nprocs;
  long stamps = 0;
  for (long s = 1; s <= iters; ++s) stamps += (origin + s) % nprocs + 1;
  int ok = 1;
  for (int k = 0; k < count; ++k)
    if (held[k] != initial_value(origin, k) + (double)stamps) ok = 0;

  free(held);
  free(incoming);
  return app_finish(rank, ok);
}
