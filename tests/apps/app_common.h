/* Helpers shared by the p3s test applications (C11).
 *
 * Every app takes the same kind of command line (a problem size, then an iteration count,
 * both optional) and ends the same way (rank 0 prints SUCCESS or FAIL), so the parsing and
 * the final report live here once. The only communication here is app_finish()'s single
 * MPI_Reduce, which is part of every app's documented communication structure.
 */
#ifndef P3S_TEST_APP_COMMON_H
#define P3S_TEST_APP_COMMON_H

#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* Exit codes shared by all apps; the integration tests rely on them. */
enum { APP_EXIT_SUCCESS = 0, APP_EXIT_FAIL = 1, APP_EXIT_USAGE = 2 };

/* Reads argv[index] as a decimal integer in [lo, hi] into *out, or `fallback` when the
 * argument is absent. Returns 0 on success and -1 on anything else (junk, overflow, out of
 * range), so that every rank rejects the same command line in the same way. */
static inline int app_arg_long(int argc, char** argv, int index, long lo, long hi, long fallback,
                               long* out) {
  if (index >= argc) {
    *out = fallback;
    return 0;
  }
  const char* text = argv[index];
  char* end = NULL;
  errno = 0;
  long value = strtol(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || value < lo || value > hi) return -1;
  *out = value;
  return 0;
}

/* Declared compute cost. Built by smpicc with -DP3S_SMPI_DECLARED_FLOPS and run with
 * --cfg=smpi/simulate-computation:no, SMPI advances a rank's clock by `flops` at its host's
 * speed here instead of timing the code around it, so the simulated time does not depend on
 * how fast, or how noisily, the simulating machine runs the real loops (which still run, so the
 * app still verifies). Everywhere else it does nothing. Not an MPI call: the communication
 * structure is unchanged; SMPI's -trace-ti records it as a compute action. */
#ifdef P3S_SMPI_DECLARED_FLOPS
/* A rank's share of compute beyond the declared cost, for truths a model can miss (the
 * interval coverage test): with P3S_APP_IMBALANCE=J (0 <= J <= 1) in the environment, rank r
 * declares (1 + J u) times as many flops, u in [0, 1) a fixed hash of r (splitmix64), the same
 * in every run and for every step. The slowest rank then sets each synchronised step's pace,
 * and with more ranks it is likelier to be a heavy one: no function of n gives it exactly.
 * Without the variable, 1. The static is per rank under SMPI (it privatises globals). */
static inline double app_imbalance(void) {
  static double factor = -1;
  if (factor < 0) {
    factor = 1;
    const char* text = getenv("P3S_APP_IMBALANCE");
    const double j = text ? strtod(text, NULL) : 0;
    if (j > 0 && j <= 1) {
      int rank = 0;
      MPI_Comm_rank(MPI_COMM_WORLD, &rank);
      unsigned long long z = (unsigned long long)rank + 0x9e3779b97f4a7c15ULL;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      z ^= z >> 31;
      factor = 1 + j * (double)(z >> 11) / 9007199254740992.0; /* 2^53 */
    }
  }
  return factor;
}
#define APP_COMPUTE_FLOPS(flops) smpi_execute_flops((double)(flops)*app_imbalance())
#else
#define APP_COMPUTE_FLOPS(flops) ((void)0)
#endif

/* Rank 0 explains the problem; every rank then leaves MPI cleanly with the usage code. All
 * ranks see the same argv and process count, so all of them take this path together and no
 * rank is left waiting in a collective. */
static inline int app_usage(int rank, const char* usage, const char* reason) {
  if (rank == 0) fprintf(stderr, "error: %s\nusage: %s\n", reason, usage);
  MPI_Finalize();
  return APP_EXIT_USAGE;
}

/* Rank 0 prints the global verdict on its own line; every rank leaves MPI. Returns the exit
 * code for this rank: only rank 0 knows the verdict, so only rank 0 can return APP_EXIT_FAIL
 * (mpirun then fails as a whole). For apps whose check needs a global sum (stencil2d). */
static inline int app_report(int rank, int global_ok) {
  int code = APP_EXIT_SUCCESS;
  if (rank == 0) {
    printf("%s\n", global_ok ? "SUCCESS" : "FAIL");
    fflush(stdout);
    if (!global_ok) code = APP_EXIT_FAIL;
  }
  MPI_Finalize();
  return code;
}

/* Combines the ranks' own verdicts with one MPI_Reduce (MPI_MIN of an int) to rank 0, then
 * reports as above. */
static inline int app_finish(int rank, int local_ok) {
  int all_ok = 0;
  MPI_Reduce(&local_ok, &all_ok, 1, MPI_INT, MPI_MIN, 0, MPI_COMM_WORLD);
  return app_report(rank, all_ok); /* all_ok is only meaningful, and only read, on rank 0 */
}

#endif /* P3S_TEST_APP_COMMON_H */
