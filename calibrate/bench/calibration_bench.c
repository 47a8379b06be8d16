/* p3s-calibrate-bench: measures an MPI system for `p3s calibrate` (see calibrate/README.md for
 * how to run it and src/core/FORMATS.md, "Calibration measurements", for its output).
 *
 * It times point-to-point messages of 0 B to --max-bytes (16 MiB), log-spaced (--per-octave
 * sizes per power of two), between two ranks of one node and two ranks of different nodes as
 * the launcher placed them (MPI_Get_processor_name), in five ways:
 *   pingpong        MPI_Send / MPI_Recv round trips, half a round trip per message
 *   pingpong-ssend  the same with MPI_Ssend
 *   pingpong-isend  MPI_Isend + MPI_Wait against a pre-posted MPI_Irecv + MPI_Wait
 *   send-overhead   the sender's time per MPI_Send in bursts of --burst messages that the
 *                   receiver has already posted (eager sends return, rendezvous sends wait)
 *   isend-overhead  the sender's time per MPI_Isend in the same bursts
 * plus pingpong between 2 and --pairs pairs at once (same node, and across two nodes) to see
 * how they share, and a compute probe: a DAXPY kernel over an array in cache on one rank alone
 * and on every rank at once, timed in CPU and wall seconds, whose flop rate is what SimGrid's
 * host speed means on this machine.
 *
 * Two tests run on every rank at once, to see what a communication round costs when a node's
 * ranks outnumber its cores (each round then waits for the OS to schedule the ranks in turn):
 *   round-exchange   a ring exchange of 8 B with both neighbours (MPI_Irecv x 2, MPI_Isend
 *                    x 2, MPI_Waitall): one round per iteration
 *   round-allreduce  MPI_Allreduce of one double
 * timed per iteration, the slowest rank's median over chunks. --rounds-only runs only these
 * (run it oversubscribed, e.g. mpirun --oversubscribe -np 16 on 2 cores).
 *
 * Every (test, link, pairs, size) is measured --reps times, all of them in one random order
 * (the same on every rank, from --seed), so that drift, caches and warm-up do not look like a
 * size effect. Each measurement runs one warm-up, then as many iterations as make it last
 * --min-time (at most --max-iters); the timed ranks are already waiting when the clock starts.
 * Its time is the median over chunks of its iterations (ping-pongs: 8 chunks; overheads: every
 * burst), so that the moments the OS gave a rank's core to something else do not count.
 *
 * Built by smpicc with -DP3S_SMPI_BUILD (calibrate/CMakeLists.txt) it runs under smpirun: the
 * probe declares its flops to SMPI instead of running (run with
 * --cfg=smpi/simulate-computation:no) and the buffers are SMPI's shared ones, so the simulated
 * times are SimGrid's model and nothing else.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef P3S_SMPI_BUILD
#include <simgrid/host.h>
#endif

enum Test {
  PINGPONG,
  PINGPONG_SSEND,
  PINGPONG_ISEND,
  SEND_OVERHEAD,
  ISEND_OVERHEAD,
  COMPUTE,
  ROUND_EXCHANGE,
  ROUND_ALLREDUCE,
  TEST_COUNT
};
static const char* const kTestName[TEST_COUNT] = {
    "pingpong",       "pingpong-ssend", "pingpong-isend", "send-overhead",
    "isend-overhead", "compute",        "round-exchange", "round-allreduce"};

enum Link { SAME_NODE, CROSS_NODE, LINK_COUNT, NO_LINK = -1 };
static const char* const kLinkName[LINK_COUNT] = {"same-node", "cross-node"};

static const char* const kUsage =
    "usage: p3s-calibrate-bench [--out FILE] [--max-bytes N] [--per-octave K] [--reps R]\n"
    "         [--min-time SECONDS] [--max-iters N] [--burst K] [--burst-max-bytes N]\n"
    "         [--pairs P] [--compute-time SECONDS] [--seed S] [--rounds-only]\n"
    "Run it with at least two ranks on one node and/or one rank on each of two nodes, e.g.\n"
    "  mpirun -np 4 --map-by ppr:2:node p3s-calibrate-bench --out calib.jsonl\n";

typedef struct {
  const char* out;
  long max_bytes;
  long per_octave;
  long reps;
  double min_time;
  long max_iters;
  long burst;
  long burst_max_bytes;
  long pairs;
  double compute_time;
  long seed;
  int rounds_only;
} Options;

/* One step of the schedule: a test on a set of pairs at one size. */
typedef struct {
  int test;
  int link;  /* enum Link, NO_LINK for compute */
  int pairs; /* concurrent pairs (compute: 1 = rank 0 alone, nprocs = every rank) */
  long bytes;
  int rep;
} Step;

/* One measurement, as a leader rank records it (all ranks share the binary layout). */
typedef struct {
  long seq, bytes, iters;
  int rep, test, link, pairs, pair, rank_a, rank_b;
  int ranks_per_node, cores_per_node; /* rounds: the most ranks on one node, and its cores */
  double seconds; /* per message or per call; compute: wall seconds; rounds: per iteration */
  double flops, cpu_seconds;
} Record;

typedef struct {
  int a, b; /* leader, follower (world ranks) */
} Pair;

typedef struct {
  Pair pairs[64];
  int count;
} PairSet;

/* ------------------------------------------------------------------ argument parsing */

static int parse_long(const char* text, long lo, long hi, long* out) {
  char* end = NULL;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || v < lo || v > hi) return -1;
  *out = v;
  return 0;
}

static int parse_seconds(const char* text, double* out) {
  char* end = NULL;
  errno = 0;
  double v = strtod(text, &end);
  if (errno != 0 || end == text || *end != '\0' || !(v > 0) || v > 3600) return -1;
  *out = v;
  return 0;
}

/* Returns NULL on success, else what was wrong. */
static const char* parse_options(int argc, char** argv, Options* o) {
  o->out = NULL;
  o->max_bytes = 16L << 20;
  o->per_octave = 4;
  o->reps = 5;
  o->min_time = 2e-3;
  o->max_iters = 1000;
  o->burst = 8;
  o->burst_max_bytes = 1L << 20;
  o->pairs = 4;
  o->compute_time = 0.05;
  o->seed = 1;
  o->rounds_only = 0;
  for (int i = 1; i < argc; i += 2) {
    const char* name = argv[i];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) return "";
    if (strcmp(name, "--rounds-only") == 0) {
      o->rounds_only = 1;
      --i; /* a flag: no value */
      continue;
    }
    if (i + 1 >= argc) return "an option lacks its value";
    const char* v = argv[i + 1];
    int bad = 0;
    if (strcmp(name, "--out") == 0) {
      o->out = v;
    } else if (strcmp(name, "--max-bytes") == 0) {
      bad = parse_long(v, 1, 1L << 30, &o->max_bytes);
    } else if (strcmp(name, "--per-octave") == 0) {
      bad = parse_long(v, 1, 16, &o->per_octave);
    } else if (strcmp(name, "--reps") == 0) {
      bad = parse_long(v, 1, 1000, &o->reps);
    } else if (strcmp(name, "--min-time") == 0) {
      bad = parse_seconds(v, &o->min_time);
    } else if (strcmp(name, "--max-iters") == 0) {
      bad = parse_long(v, 1, 100000000L, &o->max_iters);
    } else if (strcmp(name, "--burst") == 0) {
      bad = parse_long(v, 2, 64, &o->burst);
    } else if (strcmp(name, "--burst-max-bytes") == 0) {
      bad = parse_long(v, 0, 1L << 30, &o->burst_max_bytes);
    } else if (strcmp(name, "--pairs") == 0) {
      bad = parse_long(v, 1, 64, &o->pairs);
    } else if (strcmp(name, "--compute-time") == 0) {
      bad = parse_seconds(v, &o->compute_time);
    } else if (strcmp(name, "--seed") == 0) {
      bad = parse_long(v, 0, LONG_MAX, &o->seed);
    } else {
      return "unknown option";
    }
    if (bad) return "bad option value";
  }
  return NULL;
}

/* ------------------------------------------------------------------ placement */

/* node[r]: the node of rank r, numbered by first appearance of its processor name. */
static int* nodes_of_ranks(int nprocs) {
  char name[MPI_MAX_PROCESSOR_NAME];
  memset(name, 0, sizeof name);
  int len = 0;
  MPI_Get_processor_name(name, &len);
  char* all = malloc((size_t)nprocs * MPI_MAX_PROCESSOR_NAME);
  int* node = malloc((size_t)nprocs * sizeof(int));
  if (!all || !node) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
                MPI_COMM_WORLD);
  int nodes = 0;
  for (int r = 0; r < nprocs; ++r) {
    node[r] = -1;
    for (int q = 0; q < r && node[r] < 0; ++q)
      if (strncmp(all + (size_t)q * MPI_MAX_PROCESSOR_NAME,
                  all + (size_t)r * MPI_MAX_PROCESSOR_NAME, MPI_MAX_PROCESSOR_NAME) == 0)
        node[r] = node[q];
    if (node[r] < 0) node[r] = nodes++;
  }
  free(all);
  return node;
}

/* The ranks of node `n`, in rank order, into `out`; returns how many. */
static int ranks_on(const int* node, int nprocs, int n, int* out) {
  int count = 0;
  for (int r = 0; r < nprocs; ++r)
    if (node[r] == n) out[count++] = r;
  return count;
}

/* The pairs a test of `link` with `want` concurrent pairs uses, or count 0 when the placement
 * cannot give that many. Same node: consecutive ranks of the first node with two ranks or
 * more. Cross node: the i-th rank of node 0 with the i-th rank of node 1. */
static PairSet pairs_for(const int* node, int nprocs, int link, int want) {
  PairSet set;
  set.count = 0;
  int* a = malloc((size_t)nprocs * sizeof(int));
  int* b = malloc((size_t)nprocs * sizeof(int));
  if (!a || !b) MPI_Abort(MPI_COMM_WORLD, 1);
  if (link == SAME_NODE) {
    for (int n = 0; n < nprocs; ++n) {
      const int k = ranks_on(node, nprocs, n, a);
      if (k < 2) continue;
      if (k / 2 >= want) {
        for (int i = 0; i < want; ++i) set.pairs[i] = (Pair){a[2 * i], a[2 * i + 1]};
        set.count = want;
      }
      break;
    }
  } else {
    const int ka = ranks_on(node, nprocs, 0, a), kb = ranks_on(node, nprocs, 1, b);
    if (ka >= want && kb >= want) {
      for (int i = 0; i < want; ++i) set.pairs[i] = (Pair){a[i], b[i]};
      set.count = want;
    }
  }
  free(a);
  free(b);
  return set;
}

/* The most concurrent pairs `link` allows, up to `limit`. */
static int most_pairs(const int* node, int nprocs, int link, int limit) {
  int best = 0;
  for (int p = 1; p <= limit; ++p)
    if (pairs_for(node, nprocs, link, p).count == p) best = p;
  return best;
}

/* ------------------------------------------------------------------ schedule */

static uint64_t next_random(uint64_t* state) {
  /* xorshift64*: the same sequence on every rank and every platform. */
  uint64_t x = *state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *state = x;
  return x * 0x2545F4914F6CDD1DULL;
}

/* Message sizes: 0, then round(2^(j / per_octave)) up to max_bytes, without repeats. */
static long* message_sizes(const Options* o, int* count) {
  long* sizes = malloc(sizeof(long) * (size_t)(2 + 64 * o->per_octave));
  if (!sizes) MPI_Abort(MPI_COMM_WORLD, 1);
  int n = 0;
  sizes[n++] = 0;
  for (long j = 0;; ++j) {
    const double v = pow(2.0, (double)j / (double)o->per_octave);
    if (v > (double)o->max_bytes * (1 + 1e-12)) break;
    const long s = lround(v);
    if (s != sizes[n - 1]) sizes[n++] = s;
  }
  *count = n;
  return sizes;
}

static int append_step(Step** steps, int* count, int* capacity, Step s) {
  if (*count == *capacity) {
    *capacity = *capacity ? 2 * *capacity : 1024;
    Step* grown = realloc(*steps, sizeof(Step) * (size_t)*capacity);
    if (!grown) return -1;
    *steps = grown;
  }
  (*steps)[(*count)++] = s;
  return 0;
}

/* Every step of one repetition, then shuffled; repetitions one after the other. */
static Step* build_schedule(const Options* o, const int* node, int nprocs, int* count) {
  int nsizes = 0;
  long* sizes = message_sizes(o, &nsizes);
  Step* steps = NULL;
  int n = 0, capacity = 0;
  uint64_t state = 0x9E3779B97F4A7C15ULL ^ (uint64_t)o->seed;
  if (state == 0) state = 1;
  for (int rep = 0; rep < (int)o->reps; ++rep) {
    const int first = n;
    if (append_step(&steps, &n, &capacity, (Step){ROUND_EXCHANGE, NO_LINK, nprocs, 8, rep}) ||
        append_step(&steps, &n, &capacity, (Step){ROUND_ALLREDUCE, NO_LINK, nprocs, 8, rep}))
      MPI_Abort(MPI_COMM_WORLD, 1);
    for (int link = 0; link < LINK_COUNT && !o->rounds_only; ++link) {
      if (pairs_for(node, nprocs, link, 1).count != 1) continue;
      const int most = most_pairs(node, nprocs, link, (int)o->pairs);
      for (int i = 0; i < nsizes; ++i) {
        for (int test = PINGPONG; test <= ISEND_OVERHEAD; ++test) {
          if ((test == SEND_OVERHEAD || test == ISEND_OVERHEAD) && sizes[i] > o->burst_max_bytes)
            continue;
          if (append_step(&steps, &n, &capacity, (Step){test, link, 1, sizes[i], rep}))
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        /* Concurrent pingpongs: two pairs, and the most the placement allows. */
        for (int p = 2; p <= most; p = (p == most) ? most + 1 : (2 * p > most ? most : 2 * p)) {
          if (append_step(&steps, &n, &capacity, (Step){PINGPONG, link, p, sizes[i], rep}))
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
      }
    }
    if (!o->rounds_only &&
        (append_step(&steps, &n, &capacity, (Step){COMPUTE, NO_LINK, 1, 0, rep}) ||
         (nprocs > 1 &&
          append_step(&steps, &n, &capacity, (Step){COMPUTE, NO_LINK, nprocs, 0, rep}))))
      MPI_Abort(MPI_COMM_WORLD, 1);
    for (int i = n - 1; i > first; --i) {
      const int j = first + (int)(next_random(&state) % (uint64_t)(i - first + 1));
      const Step t = steps[i];
      steps[i] = steps[j];
      steps[j] = t;
    }
  }
  free(sizes);
  *count = n;
  return steps;
}

/* ------------------------------------------------------------------ the measurements */

typedef struct {
  char* send;
  char* recv;
  char** burst; /* the receiver's buffers for one burst */
  double* x;    /* compute probe */
  double* y;
} Buffers;

enum { kProbeLength = 2048, kTagSync = 1, kTagData = 2 };

static void* buffer(size_t bytes) {
  if (bytes == 0) bytes = 1;
#ifdef P3S_SMPI_BUILD
  /* SMPI neither allocates nor copies shared buffers: only the model's time is simulated. */
  return SMPI_SHARED_MALLOC(bytes);
#else
  char* p = malloc(bytes);
  if (p) memset(p, 1, bytes); /* touched once, so that no measurement pays the page faults */
  return p;
#endif
}

static double thread_cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A 0-byte round trip between the pair, so that the follower is waiting when the leader
 * starts its clock. */
static void pair_sync(int leader, int peer) {
  char c = 0;
  if (leader) {
    MPI_Send(&c, 0, MPI_CHAR, peer, kTagSync, MPI_COMM_WORLD);
    MPI_Recv(&c, 0, MPI_CHAR, peer, kTagSync, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(&c, 0, MPI_CHAR, peer, kTagSync, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&c, 0, MPI_CHAR, peer, kTagSync, MPI_COMM_WORLD);
  }
}

static int by_value(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static double median(double* v, long n) {
  qsort(v, (size_t)n, sizeof(double), by_value);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

enum { kChunks = 8 };

/* `iters` round trips timed in up to kChunks chunks; the leader's median over the chunks of the
 * time per round trip, so that a chunk in which the OS took a core away does not count (the
 * follower returns 0). */
static double pingpong(int test, int leader, int peer, long bytes, long iters, Buffers* b) {
  const int n = (int)bytes;
  MPI_Request req[2];
  double per_trip[kChunks];
  const long chunks = iters < kChunks ? iters : kChunks;
  pair_sync(leader, peer);
  for (long c = 0; c < chunks; ++c) {
    const long count = iters / chunks + (c < iters % chunks);
    const double start = MPI_Wtime();
    for (long i = 0; i < count; ++i) {
      if (test == PINGPONG_ISEND) {
        if (leader) {
          MPI_Irecv(b->recv, n, MPI_CHAR, peer, kTagData, MPI_COMM_WORLD, &req[1]);
          MPI_Isend(b->send, n, MPI_CHAR, peer, kTagData, MPI_COMM_WORLD, &req[0]);
          MPI_Wait(&req[0], MPI_STATUS_IGNORE);
          MPI_Wait(&req[1], MPI_STATUS_IGNORE);
        } else {
          MPI_Irecv(b->recv, n, MPI_CHAR, peer, kTagData, MPI_COMM_WORLD, &req[1]);
          MPI_Wait(&req[1], MPI_STATUS_IGNORE);
          MPI_Isend(b->send, n, MPI_CHAR, peer, kTagData, MPI_COMM_WORLD, &req[0]);
          MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        }
      } else if (leader) {
        if (test == PINGPONG_SSEND)
          MPI_Ssend(b->send, n, MPI_CHAR, peer, kTagData, MPI_COMM_WORLD);
        else
          MPI_Send(b->send, n, MPI_CHAR, peer, kTagData, MPI_COMM_WORLD);
        MPI_Recv(b->recv, n, MPI_CHAR, peer, kTagData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(b->recv, n, MPI_CHAR, peer, kTagData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (test == PINGPONG_SSEND)
          MPI_Ssend(b->send, n, MPI_CHAR, peer, kTagData, MPI_COMM_WORLD);
        else
          MPI_Send(b->send, n, MPI_CHAR, peer, kTagData, MPI_COMM_WORLD);
      }
    }
    per_trip[c] = (MPI_Wtime() - start) / (double)count;
  }
  return leader ? median(per_trip, chunks) : 0;
}

/* `iters` bursts of `burst` sends that the follower has already posted; the leader's median
 * over the bursts of its seconds per call inside its sending calls (MPI_Send, or MPI_Isend with
 * the completion untimed). */
static double send_bursts(int test, int leader, int peer, long bytes, long iters, int burst,
                          Buffers* b) {
  const int n = (int)bytes;
  MPI_Request req[64];
  char c = 0;
  double* per_call = leader ? malloc(sizeof(double) * (size_t)iters) : NULL;
  if (leader && !per_call) MPI_Abort(MPI_COMM_WORLD, 1);
  for (long i = 0; i < iters; ++i) {
    if (leader) {
      MPI_Recv(&c, 0, MPI_CHAR, peer, kTagSync, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      const double start = MPI_Wtime();
      for (int k = 0; k < burst; ++k) {
        if (test == SEND_OVERHEAD)
          MPI_Send(b->send, n, MPI_CHAR, peer, kTagData, MPI_COMM_WORLD);
        else
          MPI_Isend(b->send, n, MPI_CHAR, peer, kTagData, MPI_COMM_WORLD, &req[k]);
      }
      per_call[i] = (MPI_Wtime() - start) / burst;
      if (test == ISEND_OVERHEAD) MPI_Waitall(burst, req, MPI_STATUSES_IGNORE);
    } else {
      for (int k = 0; k < burst; ++k)
        MPI_Irecv(b->burst[k], n, MPI_CHAR, peer, kTagData, MPI_COMM_WORLD, &req[k]);
      MPI_Send(&c, 0, MPI_CHAR, peer, kTagSync, MPI_COMM_WORLD);
      MPI_Waitall(burst, req, MPI_STATUSES_IGNORE);
    }
  }
  /* The leader's last sends may still be in flight: they are the follower's to complete. */
  pair_sync(leader, peer);
  const double result = leader ? median(per_call, iters) : 0;
  free(per_call);
  return result;
}

static volatile double probe_sink;

/* `sweeps` DAXPY sweeps over the probe's arrays; flops = 2 x length x sweeps. */
static void probe(long sweeps, Buffers* b) {
#ifdef P3S_SMPI_BUILD
  (void)b;
  smpi_execute_flops(2.0 * kProbeLength * (double)sweeps);
#else
  const double a = 1.0000001;
  for (long s = 0; s < sweeps; ++s)
    for (int i = 0; i < kProbeLength; ++i) b->y[i] = a * b->x[i] + b->y[i];
  probe_sink = b->y[sweeps % kProbeLength];
#endif
}

typedef struct {
  Record* items;
  long count, capacity;
} Records;

static void keep(Records* r, Record rec) {
  if (r->count == r->capacity) {
    r->capacity = r->capacity ? 2 * r->capacity : 256;
    Record* grown = realloc(r->items, sizeof(Record) * (size_t)r->capacity);
    if (!grown) MPI_Abort(MPI_COMM_WORLD, 1);
    r->items = grown;
  }
  r->items[r->count++] = rec;
}

static long clamp_iters(double want, long max_iters) {
  if (!(want < (double)max_iters)) return max_iters;
  return want < 1 ? 1 : (long)ceil(want);
}

static void run_compute(const Step* s, long seq, int rank, int nprocs, const Options* o, Buffers* b,
                        Records* out) {
  const int alone = s->pairs == 1;
  const int mine = !alone || rank == 0;
  /* Rank 0 sizes the run: sweeps that last --compute-time. */
  long sweeps = 256;
  if (rank == 0) {
    for (;;) {
      const double start = MPI_Wtime();
      probe(sweeps, b);
      const double t = MPI_Wtime() - start;
      if (t >= o->compute_time / 8 || sweeps > (1L << 40)) {
        sweeps = clamp_iters((double)sweeps * o->compute_time / (t > 0 ? t : 1e-9), 1L << 40);
        break;
      }
      sweeps *= 4;
    }
  }
  MPI_Bcast(&sweeps, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  if (!mine) return;
  const double cpu0 = thread_cpu_seconds(), wall0 = MPI_Wtime();
  probe(sweeps, b);
  const double wall = MPI_Wtime() - wall0;
#ifdef P3S_SMPI_BUILD
  /* SMPI has no CPU clock of its own: a rank's simulated compute is its CPU time. */
  const double cpu = wall;
  (void)cpu0;
#else
  const double cpu = thread_cpu_seconds() - cpu0;
#endif
  keep(out, (Record){seq, 0, sweeps, s->rep, COMPUTE, NO_LINK, alone ? 1 : nprocs, rank, rank, -1,
                     0, 0, wall, 2.0 * kProbeLength * (double)sweeps, cpu});
}

static void run_messages(const Step* s, long seq, int rank, const int* node, int nprocs,
                         const Options* o, Buffers* b, Records* out) {
  const PairSet set = pairs_for(node, nprocs, s->link, s->pairs);
  int pair = -1, leader = 0, peer = -1;
  for (int i = 0; i < set.count; ++i) {
    if (set.pairs[i].a == rank) pair = i, leader = 1, peer = set.pairs[i].b;
    if (set.pairs[i].b == rank) pair = i, leader = 0, peer = set.pairs[i].a;
  }
  const int burst = s->test == SEND_OVERHEAD || s->test == ISEND_OVERHEAD;
  /* One warm-up iteration sizes the run on the first pair's leader. */
  long iters = 1;
  double warm = 0;
  if (pair >= 0) {
    /* Seconds of one iteration: a burst, or a round trip. */
    warm =
        burst ? send_bursts(s->test, leader, peer, s->bytes, 1, (int)o->burst, b) * (double)o->burst
              : pingpong(s->test, leader, peer, s->bytes, 1, b);
  }
  if (pair == 0 && leader)
    iters = clamp_iters(o->min_time / (warm > 0 ? warm : 1e-9), o->max_iters);
  MPI_Bcast(&iters, 1, MPI_LONG, set.pairs[0].a, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  if (pair < 0) return;
  const double seconds = burst
                             ? send_bursts(s->test, leader, peer, s->bytes, iters, (int)o->burst, b)
                             : pingpong(s->test, leader, peer, s->bytes, iters, b) / 2;
  if (leader) {
    keep(out, (Record){seq, s->bytes, iters, s->rep, s->test, s->link, s->pairs, pair, rank, peer,
                       0, 0, seconds, 0, 0});
  }
}

/* The online processors of this rank's node (SMPI: of its simulated host). */
static int node_cores(void) {
#ifdef P3S_SMPI_BUILD
  return sg_host_core_count(sg_host_self());
#else
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  return cores > 0 ? (int)cores : 1;
#endif
}

/* One iteration of a round test on every rank. */
static void round_iteration(int test, int rank, int nprocs, Buffers* b) {
  if (test == ROUND_ALLREDUCE) {
    double mine = 1.0, sum = 0;
    MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return;
  }
  const int left = (rank + nprocs - 1) % nprocs, right = (rank + 1) % nprocs;
  MPI_Request req[4];
  MPI_Irecv(b->recv, 8, MPI_CHAR, left, kTagData, MPI_COMM_WORLD, &req[0]);
  MPI_Irecv(b->recv + 8, 8, MPI_CHAR, right, kTagData, MPI_COMM_WORLD, &req[1]);
  MPI_Isend(b->send, 8, MPI_CHAR, left, kTagData, MPI_COMM_WORLD, &req[2]);
  MPI_Isend(b->send + 8, 8, MPI_CHAR, right, kTagData, MPI_COMM_WORLD, &req[3]);
  MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
}

/* Every rank runs the test; each takes the median over chunks of its time per iteration, and
 * rank 0 records the slowest rank's: the round is over when its last rank is. */
static void run_rounds(const Step* s, long seq, int rank, int nprocs, const int* node,
                       const Options* o, Buffers* b, Records* out) {
  double start = MPI_Wtime();
  round_iteration(s->test, rank, nprocs, b); /* warm-up, and rank 0 sizes the run with it */
  long iters = clamp_iters(o->min_time / fmax(MPI_Wtime() - start, 1e-9), o->max_iters);
  if (iters < 8 * kChunks) iters = 8 * kChunks;
  MPI_Bcast(&iters, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  double per_iteration[kChunks];
  MPI_Barrier(MPI_COMM_WORLD);
  for (long c = 0; c < kChunks; ++c) {
    const long count = iters / kChunks + (c < iters % kChunks);
    start = MPI_Wtime();
    for (long i = 0; i < count; ++i) round_iteration(s->test, rank, nprocs, b);
    per_iteration[c] = (MPI_Wtime() - start) / (double)count;
  }
  const double mine = median(per_iteration, kChunks);
  double slowest = 0;
  MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  /* The node with the most ranks, and its cores. */
  int most = 0, cores = 0;
  int* on_node = calloc((size_t)nprocs, sizeof(int));
  int* cores_of = malloc(sizeof(int) * (size_t)nprocs);
  if (!on_node || !cores_of) MPI_Abort(MPI_COMM_WORLD, 1);
  const int own = node_cores();
  MPI_Allgather(&own, 1, MPI_INT, cores_of, 1, MPI_INT, MPI_COMM_WORLD);
  for (int r = 0; r < nprocs; ++r) {
    if (++on_node[node[r]] > most) most = on_node[node[r]], cores = cores_of[r];
  }
  free(on_node);
  free(cores_of);
  if (rank == 0) {
    keep(out, (Record){seq, s->bytes, iters, s->rep, s->test, NO_LINK, nprocs, 0, 0, 0, most, cores,
                       slowest, 0, 0});
  }
}

/* ------------------------------------------------------------------ output */

static void print_json_string(FILE* f, const char* s) {
  fputc('"', f);
  for (; *s; ++s) {
    const unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c < 0x20)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
  fputc('"', f);
}

static int by_seq(const void* a, const void* b) {
  const Record* x = a;
  const Record* y = b;
  if (x->seq != y->seq) return x->seq < y->seq ? -1 : 1;
  if (x->pair != y->pair) return x->pair < y->pair ? -1 : 1;
  return x->rank_a - y->rank_a;
}

static void write_header(FILE* f, const Options* o, int nprocs, int nsizes) {
  char name[MPI_MAX_PROCESSOR_NAME];
  memset(name, 0, sizeof name);
  int len = 0;
  MPI_Get_processor_name(name, &len);
  char library[MPI_MAX_LIBRARY_VERSION_STRING];
  memset(library, 0, sizeof library);
  MPI_Get_library_version(library, &len);
  char* newline = strchr(library, '\n');
  if (newline) *newline = '\0';
  char date[32];
  const time_t now = time(NULL);
  struct tm utc;
  gmtime_r(&now, &utc);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &utc);
  fprintf(f, "{\"format\":\"p3s-calibration 1\",\"benchmark\":\"p3s-calibrate-bench\",");
#ifdef P3S_SMPI_BUILD
  fprintf(f, "\"build\":\"smpi\",");
#else
  fprintf(f, "\"build\":\"mpi\",");
#endif
  fprintf(f, "\"nprocs\":%d,\"mpi_library\":", nprocs);
  print_json_string(f, library);
  fprintf(f, ",\"date\":\"%s\",\"clock\":\"MPI_Wtime\",\"wtick\":%.6g,", date, MPI_Wtick());
  fprintf(f,
          "\"options\":{\"max_bytes\":%ld,\"per_octave\":%ld,\"sizes\":%d,\"reps\":%ld,"
          "\"min_time\":%g,\"max_iters\":%ld,\"burst\":%ld,\"burst_max_bytes\":%ld,\"pairs\":%ld,"
          "\"compute_time\":%g,\"seed\":%ld,\"probe_length\":%d,\"rounds_only\":%s},",
          o->max_bytes, o->per_octave, nsizes, o->reps, o->min_time, o->max_iters, o->burst,
          o->burst_max_bytes, o->pairs, o->compute_time, o->seed, kProbeLength,
          o->rounds_only ? "true" : "false");
  fprintf(f, "\"hosts\":[");
}

static void write_records(FILE* f, Record* all, long total) {
  qsort(all, (size_t)total, sizeof(Record), by_seq);
  for (long i = 0; i < total; ++i) {
    const Record* r = &all[i];
    if (r->test == ROUND_EXCHANGE || r->test == ROUND_ALLREDUCE) {
      fprintf(f,
              "{\"test\":\"%s\",\"ranks\":%d,\"ranks_per_node\":%d,\"cores_per_node\":%d,"
              "\"bytes\":%ld,\"rep\":%d,\"seq\":%ld,\"iterations\":%ld,\"seconds\":%.9g}\n",
              kTestName[r->test], r->pairs, r->ranks_per_node, r->cores_per_node, r->bytes, r->rep,
              r->seq, r->iters, r->seconds);
    } else if (r->test == COMPUTE) {
      fprintf(f,
              "{\"test\":\"compute\",\"ranks\":[%d],\"concurrent\":%d,\"rep\":%d,\"seq\":%ld,"
              "\"sweeps\":%ld,\"flops\":%.17g,\"cpu_seconds\":%.9g,\"wall_seconds\":%.9g}\n",
              r->rank_a, r->pairs, r->rep, r->seq, r->iters, r->flops, r->cpu_seconds, r->seconds);
    } else {
      fprintf(f,
              "{\"test\":\"%s\",\"link\":\"%s\",\"pairs\":%d,\"pair\":%d,\"ranks\":[%d,%d],"
              "\"bytes\":%ld,\"rep\":%d,\"seq\":%ld,\"iterations\":%ld,\"seconds\":%.9g}\n",
              kTestName[r->test], kLinkName[r->link], r->pairs, r->pair, r->rank_a, r->rank_b,
              r->bytes, r->rep, r->seq, r->iters, r->seconds);
    }
  }
  fprintf(f, "{\"end\":\"complete\",\"measurements\":%ld}\n", total);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, nprocs = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  Options o;
  const char* problem = parse_options(argc, argv, &o);
  if (problem) {
    if (rank == 0) {
      if (*problem) fprintf(stderr, "error: %s\n", problem);
      fputs(kUsage, *problem ? stderr : stdout);
    }
    MPI_Finalize();
    return *problem ? 2 : 0;
  }
  int* node = nodes_of_ranks(nprocs);
  if (pairs_for(node, nprocs, SAME_NODE, 1).count == 0 &&
      pairs_for(node, nprocs, CROSS_NODE, 1).count == 0) {
    if (rank == 0) {
      fputs("error: no pair of ranks to measure: run at least two ranks\n", stderr);
      fputs(kUsage, stderr);
    }
    MPI_Finalize();
    return 2;
  }
  FILE* f = NULL;
  if (rank == 0) {
    f = o.out ? fopen(o.out, "w") : stdout;
    if (!f) {
      fprintf(stderr, "error: cannot write %s\n", o.out);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }

  Buffers b;
  /* At least the round tests' two 8-byte halves. */
  const size_t message_bytes = (size_t)(o.max_bytes < 16 ? 16 : o.max_bytes);
  b.send = buffer(message_bytes);
  b.recv = buffer(message_bytes);
  b.burst = malloc(sizeof(char*) * (size_t)o.burst);
  b.x = malloc(sizeof(double) * kProbeLength);
  b.y = malloc(sizeof(double) * kProbeLength);
  if (!b.send || !b.recv || !b.burst || !b.x || !b.y) MPI_Abort(MPI_COMM_WORLD, 1);
  const long burst_bytes = o.burst_max_bytes < o.max_bytes ? o.burst_max_bytes : o.max_bytes;
  for (long k = 0; k < o.burst; ++k) {
    b.burst[k] = buffer((size_t)burst_bytes);
    if (!b.burst[k]) MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (int i = 0; i < kProbeLength; ++i) b.x[i] = 1e-3 * (i % 7), b.y[i] = 0;

  int nsteps = 0;
  Step* steps = build_schedule(&o, node, nprocs, &nsteps);
  Records mine = {NULL, 0, 0};
  for (int i = 0; i < nsteps; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (steps[i].test == COMPUTE)
      run_compute(&steps[i], i, rank, nprocs, &o, &b, &mine);
    else if (steps[i].test == ROUND_EXCHANGE || steps[i].test == ROUND_ALLREDUCE)
      run_rounds(&steps[i], i, rank, nprocs, node, &o, &b, &mine);
    else
      run_messages(&steps[i], i, rank, node, nprocs, &o, &b, &mine);
  }

  /* Rank 0 gathers every leader's records and writes them in the order they were taken. */
  int count = (int)mine.count;
  int* counts = rank == 0 ? malloc(sizeof(int) * (size_t)nprocs) : NULL;
  int* displs = rank == 0 ? malloc(sizeof(int) * (size_t)nprocs) : NULL;
  MPI_Gather(&count, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
  long total = 0;
  Record* all = NULL;
  if (rank == 0) {
    for (int r = 0; r < nprocs; ++r) {
      displs[r] = (int)(total * (long)sizeof(Record));
      total += counts[r];
      counts[r] *= (int)sizeof(Record);
    }
    all = malloc(sizeof(Record) * (size_t)(total > 0 ? total : 1));
    if (!all) MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Gatherv(mine.items, count * (int)sizeof(Record), MPI_BYTE, all, counts, displs, MPI_BYTE, 0,
              MPI_COMM_WORLD);

  /* Host names per rank for the header. */
  char name[MPI_MAX_PROCESSOR_NAME];
  memset(name, 0, sizeof name);
  int len = 0;
  MPI_Get_processor_name(name, &len);
  char* names = rank == 0 ? malloc((size_t)nprocs * MPI_MAX_PROCESSOR_NAME) : NULL;
  MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0,
             MPI_COMM_WORLD);
  if (rank == 0) {
    int nsizes = 0;
    free(message_sizes(&o, &nsizes));
    write_header(f, &o, nprocs, nsizes);
    for (int r = 0; r < nprocs; ++r) {
      if (r) fputc(',', f);
      print_json_string(f, names + (size_t)r * MPI_MAX_PROCESSOR_NAME);
    }
    fprintf(f, "]}\n");
    write_records(f, all, total);
    if (f != stdout) fclose(f);
    free(all);
    free(names);
    free(counts);
    free(displs);
  }
  free(steps);
  free(mine.items);
  free(node);
  MPI_Finalize();
  return 0;
}
