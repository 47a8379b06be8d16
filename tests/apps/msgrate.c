/* bench_msgrate: small-message rate, to measure what tracing costs per MPI call.
 *
 * usage: bench_msgrate [calls [window]]   (defaults 1000000 and 64; n must be even)
 *
 * Ranks pair up as (r, r XOR 1). After one MPI_Barrier, each rank runs W windows, each:
 *   `window` x MPI_Irecv of one 8-byte double from the partner (tag 0),
 *   `window` x MPI_Isend of one 8-byte double to the partner (tag 0),
 *   one MPI_Waitall over the 2*window requests,
 * with W = max(1, calls / (2*window + 1)), so that about `calls` MPI calls are timed.
 * Rank 0 then prints one line
 *   calls=<timed MPI calls on rank 0> seconds=<wall time of the loop> usec_per_call=<ratio>
 * where "timed calls" are the W*(2*window+1) calls above (not the barrier or the final check).
 * After the loop: one MPI_Reduce (MPI_MIN of an int) of the verdicts to rank 0, which prints
 * SUCCESS or FAIL like the other apps.
 *
 * Verification: each message carries its window and slot number and its sender; MPI's
 * non-overtaking rule means slot k of a window must receive the partner's slot k.
 */
#include <stdlib.h>

#include "app_common.h"

static const char* const kUsage =
    "bench_msgrate [calls 1..1000000000 (1000000)] [window 1..4096 (64)]; n must be even";

static double payload(long sender, long window_index, long slot, long window) {
  return (double)(sender * 1000000000L + window_index * window + slot);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, nprocs = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

  long calls_arg = 0, window_arg = 0;
  if (argc > 3 || app_arg_long(argc, argv, 1, 1, 1000000000L, 1000000, &calls_arg) != 0 ||
      app_arg_long(argc, argv, 2, 1, 4096, 64, &window_arg) != 0)
    return app_usage(rank, kUsage, "bad arguments");
  if (nprocs % 2 != 0) return app_usage(rank, kUsage, "process count must be even");
  const int window = (int)window_arg;
  const long per_window = 2L * window + 1;
  const long windows = calls_arg / per_window > 0 ? calls_arg / per_window : 1;
  const int partner = rank ^ 1;

  double* out = malloc((size_t)window * sizeof(double));
  double* in = malloc((size_t)window * sizeof(double));
  MPI_Request* requests = malloc((size_t)2 * window * sizeof(MPI_Request));
  if (!out || !in || !requests) MPI_Abort(MPI_COMM_WORLD, APP_EXIT_FAIL);

  int ok = 1;
  MPI_Barrier(MPI_COMM_WORLD); /* start the clock with both partners ready */
  const double start = MPI_Wtime();
  for (long w = 0; w < windows; ++w) {
    for (int k = 0; k < window; ++k)
      MPI_Irecv(&in[k], 1, MPI_DOUBLE, partner, 0, MPI_COMM_WORLD, &requests[k]);
    for (int k = 0; k < window; ++k) {
      out[k] = payload(rank, w, k, window);
      MPI_Isend(&out[k], 1, MPI_DOUBLE, partner, 0, MPI_COMM_WORLD, &requests[window + k]);
    }
    MPI_Waitall(2 * window, requests, MPI_STATUSES_IGNORE);
    for (int k = 0; k < window; ++k)
      if (in[k] != payload(partner, w, k, window)) ok = 0;
  }
  const double seconds = MPI_Wtime() - start;

  if (rank == 0) {
    const long long calls = (long long)windows * per_window;
    printf("calls=%lld seconds=%.6f usec_per_call=%.4f\n", calls, seconds,
           seconds * 1e6 / (double)calls);
    fflush(stdout);
  }
  free(out);
  free(in);
  free(requests);
  return app_finish(rank, ok);
}
