/* app_alltoallv_data: one step of a bucket sort per iteration, with data-dependent sizes, as
 * the NAS IS benchmark exchanges keys.
 *
 * usage: app_alltoallv_data [size [iterations]]   (defaults 8192, 20; n >= 1)
 *
 * Every iteration, in this order:
 *   each rank draws `size` keys in [0, n * 65536) from a generator seeded by rank and iteration
 *   MPI_Alltoall of one int per peer: how many keys fall in each rank's bucket
 *   MPI_Alltoallv of the keys (ints): per peer about size / n, varying with the draw (the
 *     spread of the counts is a few percent of their mean at the defaults)
 *   a local check of the received keys
 *   MPI_Allreduce of 1 long (MPI_SUM): the keys received everywhere
 * Then app_finish's MPI_Reduce.
 *
 * Reproduces: data-dependent message sizes that differ by rank and iteration.
 * Verification: every received key lies in the receiving rank's bucket, and the total of keys
 * received is n * size (none lost, none made up).
 */
#include <stdlib.h>

#include "app_common.h"

static const char* const kUsage =
    "app_alltoallv_data [size 1..4000000 (8192)] [iterations 1..1000000 (20)]";

/* A small linear congruential generator: deterministic and the same on every machine. */
static unsigned next_random(unsigned* state) {
  *state = *state * 1103515245u + 12345u;
  return *state >> 8;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  long size_arg = 0, iters_arg = 0;
  if (argc > 3 || app_arg_long(argc, argv, 1, 1, 4000000, 8192, &size_arg) != 0 ||
      app_arg_long(argc, argv, 2, 1, 1000000, 20, &iters_arg) != 0)
    return app_usage(rank, kUsage, "bad arguments");
  const int m = (int)size_arg;
  const long range = 65536L * n;
  int* keys = malloc((size_t)m * sizeof(int));
  int* sorted = malloc((size_t)m * sizeof(int));
  int* received = malloc((size_t)m * 4 * sizeof(int) + 64);
  int* send_counts = calloc((size_t)n, sizeof(int));
  int* recv_counts = calloc((size_t)n, sizeof(int));
  int* send_displs = calloc((size_t)n, sizeof(int));
  int* recv_displs = calloc((size_t)n, sizeof(int));
  if (!keys || !sorted || !received || !send_counts || !recv_counts || !send_displs || !recv_displs)
    MPI_Abort(MPI_COMM_WORLD, APP_EXIT_FAIL);
  int ok = 1;
  for (int it = 0; it < iters_arg; ++it) {
    unsigned state = 2654435761u * (unsigned)(rank + 1) + 40503u * (unsigned)it;
    for (int q = 0; q < n; ++q) send_counts[q] = 0;
    for (int k = 0; k < m; ++k) {
      keys[k] = (int)(next_random(&state) % (unsigned)range);
      ++send_counts[keys[k] / 65536];
    }
    for (int q = 0, at = 0; q < n; ++q) send_displs[q] = at, at += send_counts[q];
    int* fill = calloc((size_t)n, sizeof(int));
    if (!fill) MPI_Abort(MPI_COMM_WORLD, APP_EXIT_FAIL);
    for (int k = 0; k < m; ++k) {
      const int q = keys[k] / 65536;
      sorted[send_displs[q] + fill[q]++] = keys[k];
    }
    free(fill);
    APP_COMPUTE_FLOPS(8.0 * m);
    MPI_Alltoall(send_counts, 1, MPI_INT, recv_counts, 1, MPI_INT, MPI_COMM_WORLD);
    long total = 0;
    for (int q = 0; q < n; ++q) recv_displs[q] = (int)total, total += recv_counts[q];
    if (total > (long)m * 4 + 16) MPI_Abort(MPI_COMM_WORLD, APP_EXIT_FAIL);
    MPI_Alltoallv(sorted, send_counts, send_displs, MPI_INT, received, recv_counts, recv_displs,
                  MPI_INT, MPI_COMM_WORLD);
    for (long k = 0; k < total; ++k)
      if (received[k] / 65536 != rank) ok = 0;
    APP_COMPUTE_FLOPS(2.0 * (double)total);
    long everywhere = 0;
    MPI_Allreduce(&total, &everywhere, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (everywhere != (long)n * m) ok = 0;
  }
  free(keys);
  free(sorted);
  free(received);
  free(send_counts);
  free(recv_counts);
  free(send_displs);
  free(recv_displs);
  return app_finish(rank, ok);
}
