/* app_two_phase: a compute-bound loop followed by a communication-bound one, in one run.
 *
 * usage: app_two_phase [count [iterations]]   (defaults 8 and 20; n >= 2)
 *
 * Right = (r+1) % n, left = (r-1+n) % n.
 * Loop 1, `iterations` times ("solve", compute-bound): kPasses updates x <- x / 2 + 1 of a
 *   local array of kWork doubles (2 flops each: 200 us at 1 Gflop/s), then one MPI_Sendrecv of
 *   `count` doubles to the right from the left (tag 1).
 * Loop 2, 10 x `iterations` times ("exchange", communication-bound): MPI_Sendrecv of `count`
 *   doubles to the right from the left (tag 2), then one to the left from the right (tag 3),
 *   then the same update over the first kSmall doubles of the array only (2 us at 1 Gflop/s:
 *   enough for the phase to count in a trace whose MPI calls take no time, as SMPI's -trace-ti
 *   imports are) and an add over the `count` received doubles.
 * After the loops: one MPI_Reduce (MPI_MIN of an int) of the verdicts to rank 0.
 *
 * Verification: every message carries (sender's rank + iteration) in each element, so each
 * rank knows what it must receive from each side; and the array of loop 1 follows a recurrence
 * whose value after the loop is known in closed form.
 */
#include <math.h>
#include <stdlib.h>

#include "app_common.h"

static const char* const kUsage =
    "app_two_phase [count 1..1048576 (8)] [iterations 1..100000 (20)]; n must be at least 2";

/* Loop 1: doubles updated, and how many times; loop 2: doubles updated once. */
enum { kWork = 25000, kPasses = 4, kSmall = 1000 };

/* Every element of a message from `sender` at iteration `it` of a loop. */
static double message_value(int sender, int it) {
  return (double)sender + (double)it;
}

/* 1 when every one of the `count` doubles of `buffer` holds `value`. */
static int holds(const double* buffer, long count, double value) {
  for (long k = 0; k < count; ++k)
    if (buffer[k] != value) return 0;
  return 1;
}

static void fill(double* buffer, long count, double value) {
  for (long k = 0; k < count; ++k) buffer[k] = value;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, nprocs = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

  long count = 0, iters_arg = 0;
  if (argc > 3 || app_arg_long(argc, argv, 1, 1, 1048576, 8, &count) != 0 ||
      app_arg_long(argc, argv, 2, 1, 100000, 20, &iters_arg) != 0)
    return app_usage(rank, kUsage, "bad arguments");
  if (nprocs < 2) return app_usage(rank, kUsage, "process count must be at least 2");
  const int iters = (int)iters_arg;
  const int right = (rank + 1) % nprocs, left = (rank - 1 + nprocs) % nprocs;

  double* work = malloc(sizeof(double) * kWork);
  double* out = malloc(sizeof(double) * (size_t)count);
  double* in = malloc(sizeof(double) * (size_t)count);
  if (!work || !out || !in) MPI_Abort(MPI_COMM_WORLD, APP_EXIT_FAIL);
  for (long k = 0; k < kWork; ++k) work[k] = 0.0;
  int ok = 1;

  /* Loop 1: x <- x / 2 + 1 from 0, so after t updates x = 2 - 2^(1 - t). */
  for (int it = 0; it < iters; ++it) {
    for (int pass = 0; pass < kPasses; ++pass)
      for (long k = 0; k < kWork; ++k) work[k] = work[k] * 0.5 + 1.0;
    APP_COMPUTE_FLOPS(2.0 * kPasses * kWork);
    fill(out, count, message_value(rank, it));
    MPI_Sendrecv(out, (int)count, MPI_DOUBLE, right, 1, in, (int)count, MPI_DOUBLE, left, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (!holds(in, count, message_value(left, it))) ok = 0;
  }

  /* Loop 2: small messages both ways round the ring, next to no compute. */
  double sum = 0.0;
  for (int it = 0; it < 10 * iters; ++it) {
    fill(out, count, message_value(rank, it));
    MPI_Sendrecv(out, (int)count, MPI_DOUBLE, right, 2, in, (int)count, MPI_DOUBLE, left, 2,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (!holds(in, count, message_value(left, it))) ok = 0;
    MPI_Sendrecv(out, (int)count, MPI_DOUBLE, left, 3, in, (int)count, MPI_DOUBLE, right, 3,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (!holds(in, count, message_value(right, it))) ok = 0;
    for (long k = 0; k < kSmall; ++k) work[k] = work[k] * 0.5 + 1.0;
    for (long k = 0; k < count; ++k) sum += in[k];
    APP_COMPUTE_FLOPS(2.0 * kSmall + (double)count);
  }
  if (!(sum > 0.0)) ok = 0;
  /* The first kSmall doubles were updated in both loops, the last only in the first. */
  const double first = 2.0 - pow(2.0, 1.0 - (double)(kPasses + 10) * iters);
  const double last = 2.0 - pow(2.0, 1.0 - (double)kPasses * iters);
  if (fabs(work[0] - first) > 1e-12 || fabs(work[kWork - 1] - last) > 1e-12) ok = 0;

  free(work);
  free(out);
  free(in);
  return app_finish(rank, ok);
}
