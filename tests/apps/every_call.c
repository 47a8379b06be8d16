/* app_every_call: calls every MPI function the p3s tracer wraps in C at least once, and writes
 * its own record of each call, independently of the tracer, for the integration test to hold
 * the trace against.
 *
 * usage: app_every_call RECORD_DIR [abort]   (n even, n >= 2)
 *
 * Each rank writes RECORD_DIR/record-RRRRR.txt, one line per MPI call that the trace format
 * (src/core/FORMATS.md) writes as an event, and MPI_Dims_create's line as the trace writes it,
 * in call order:
 *   OP DST BYTES SRC RBYTES ROOT COMM NEW
 * with peers and roots as MPI_COMM_WORLD ranks (-1 none or MPI_PROC_NULL, -2 MPI_ANY_SOURCE),
 * bytes as count x type size with the type sizes written out here (derived types by their
 * layout). COMM is the communicator the call ran on, as its members' world ranks in
 * communicator rank order (`0,1,2,3`), or `*` for calls on requests (completions, starts) and
 * MPI_Finalize; NEW is the communicator a creation call made (`null` for MPI_COMM_NULL), `*`
 * for other calls. After a completion or MPI_Startall, one line per request it completed or
 * started:
 *   = s|r PEER BYTES
 * (a receive's actual source and size). Calls the format does not record (MPI_Init,
 * MPI_Comm_free, MPI_Request_free ...) are called but have no line.
 *
 * Even ranks call MPI_Init, odd ranks MPI_Init_thread (each process may use either). With
 * `abort`, every rank calls MPI_Barrier and rank 0 then calls MPI_Abort: its record ends with
 * the line `abort`.
 *
 * The blocking point-to-point calls pair rank r with r ^ 1 (hence n even), the rest run round
 * the ring or on sub-communicators. Rank 0 prints SUCCESS when every received value was
 * checked. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_common.h"

enum { kInt = 4, kDouble = 8, kShort = 2, kLongLong = 8, kMaxRanks = 64 };

static FILE* record;
static int me, nprocs, failures;
/* The communicator the calls being recorded run on. */
static MPI_Comm current;

/* Writes the members of `comm` as world ranks, or `null`. */
static void write_members(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) {
    fprintf(record, "null");
    return;
  }
  int size = 0;
  MPI_Comm_size(comm, &size);
  int ranks[kMaxRanks], world[kMaxRanks];
  for (int i = 0; i < size; ++i) ranks[i] = i;
  MPI_Group group, world_group;
  MPI_Comm_group(comm, &group);
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  MPI_Group_translate_ranks(group, size, ranks, world_group, world);
  MPI_Group_free(&group);
  MPI_Group_free(&world_group);
  for (int i = 0; i < size; ++i) fprintf(record, i == 0 ? "%d" : ",%d", world[i]);
}

static void fields(const char* op, int dst, long long bytes, int src, long long rbytes, int root) {
  fprintf(record, "%s %d %lld %d %lld %d ", op, dst, bytes, src, rbytes, root);
}

/* A call on the current communicator. */
static void line(const char* op, int dst, long long bytes, int src, long long rbytes, int root) {
  fields(op, dst, bytes, src, rbytes, root);
  write_members(current);
  fprintf(record, " *\n");
}

/* A call on requests (start, completion) or MPI_Finalize: no communicator, no bytes. */
static void event(const char* op) {
  fprintf(record, "%s -1 0 -1 0 -1 * *\n", op);
}

/* The same as `event` for a persistent start, which carries its request's message. */
static void started(const char* op, int dst, long long bytes, int src, long long rbytes) {
  fields(op, dst, bytes, src, rbytes, -1);
  fprintf(record, "* *\n");
}

/* A communicator creation on `parent` that made `made`. */
static void created(const char* op, MPI_Comm parent, MPI_Comm made) {
  fields(op, -1, 0, -1, 0, -1);
  write_members(parent);
  fprintf(record, " ");
  write_members(made);
  fprintf(record, "\n");
}

static void completed(char kind, int peer, long long bytes) {
  fprintf(record, "= %c %d %lld\n", kind, peer, bytes);
}

static void check(int ok, const char* what) {
  if (!ok) {
    fprintf(stderr, "rank %d: wrong data after %s\n", me, what);
    ++failures;
  }
}

/* The MPI_COMM_WORLD rank of rank `rank` of `group`, which it frees. */
static int world_rank_in(MPI_Group group, int rank) {
  MPI_Group world;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int out = -1;
  MPI_Group_translate_ranks(group, 1, &rank, world, &out);
  MPI_Group_free(&group);
  MPI_Group_free(&world);
  return out;
}

/* The MPI_COMM_WORLD rank of `rank` in `comm` (MPI_PROC_NULL stays -1). */
static int world_rank(MPI_Comm comm, int rank) {
  if (rank == MPI_PROC_NULL) return -1;
  MPI_Group group;
  MPI_Comm_group(comm, &group);
  return world_rank_in(group, rank);
}

/* The MPI_COMM_WORLD rank of rank `rank` of an intercommunicator's remote group. */
static int remote_world_rank(MPI_Comm inter, int rank) {
  MPI_Group group;
  MPI_Comm_remote_group(inter, &group);
  return world_rank_in(group, rank);
}

/* Blocking sends and receives between partners r and r ^ 1, PROC_NULL and zero counts. */
static void blocking_point_to_point(void) {
  const int partner = me ^ 1;
  const int even = me % 2 == 0;
  int ints[20] = {0};
  MPI_Status status;

  /* MPI_Send of 10 ints into a receive posted for 20: the received size is what arrived. */
  for (int i = 0; i < 10; ++i) ints[i] = me * 100 + i;
  if (even) {
    MPI_Send(ints, 10, MPI_INT, partner, 1, MPI_COMM_WORLD);
    line("send", partner, 10 * kInt, -1, 0, -1);
    MPI_Recv(ints, 20, MPI_INT, partner, 1, MPI_COMM_WORLD, &status);
    line("recv", -1, 0, partner, 10 * kInt, -1);
  } else {
    MPI_Recv(ints, 20, MPI_INT, partner, 1, MPI_COMM_WORLD, &status);
    line("recv", -1, 0, partner, 10 * kInt, -1);
    check(ints[9] == partner * 100 + 9, "MPI_Recv");
    for (int i = 0; i < 10; ++i) ints[i] = me * 100 + i;
    MPI_Send(ints, 10, MPI_INT, partner, 1, MPI_COMM_WORLD);
    line("send", partner, 10 * kInt, -1, 0, -1);
  }

  /* MPI_Ssend of a derived type: 2 x vector(3 blocks of 2 ints, stride 4) = 12 ints = 48 bytes,
   * received as 12 contiguous ints. */
  MPI_Datatype vector;
  MPI_Type_vector(3, 2, 4, MPI_INT, &vector);
  MPI_Type_commit(&vector);
  int strided[24];
  for (int i = 0; i < 24; ++i) strided[i] = me * 1000 + i;
  if (even) {
    MPI_Ssend(strided, 2, vector, partner, 2, MPI_COMM_WORLD);
    line("ssend", partner, 2 * 3 * 2 * kInt, -1, 0, -1);
    MPI_Recv(ints, 12, MPI_INT, partner, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    line("recv", -1, 0, partner, 12 * kInt, -1);
  } else {
    MPI_Recv(ints, 12, MPI_INT, partner, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    line("recv", -1, 0, partner, 12 * kInt, -1);
    /* Element 2 of the received ints is the first of the vector's second block: index 4. */
    check(ints[2] == partner * 1000 + 4, "MPI_Ssend of a vector type");
    MPI_Ssend(strided, 2, vector, partner, 2, MPI_COMM_WORLD);
    line("ssend", partner, 2 * 3 * 2 * kInt, -1, 0, -1);
  }
  MPI_Type_free(&vector);

  /* MPI_Bsend of 5 doubles through an attached buffer. */
  double doubles[5] = {me, me, me, me, me};
  int buffer_size = 5 * kDouble + MPI_BSEND_OVERHEAD;
  void* buffer = malloc((size_t)buffer_size);
  MPI_Buffer_attach(buffer, buffer_size);
  MPI_Bsend(doubles, 5, MPI_DOUBLE, partner, 3, MPI_COMM_WORLD);
  line("bsend", partner, 5 * kDouble, -1, 0, -1);
  MPI_Recv(doubles, 5, MPI_DOUBLE, partner, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  line("recv", -1, 0, partner, 5 * kDouble, -1);
  check(doubles[4] == partner, "MPI_Bsend");
  MPI_Buffer_detach(&buffer, &buffer_size);
  free(buffer);

  /* MPI_Rsend needs the receive posted first: the odd rank posts it, then a zero-byte
   * MPI_Sendrecv tells the even rank it may send. */
  MPI_Request request;
  if (even) {
    MPI_Sendrecv(NULL, 0, MPI_INT, partner, 4, NULL, 0, MPI_INT, partner, 4, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    line("sendrecv", partner, 0, partner, 0, -1);
    ints[0] = me;
    MPI_Rsend(ints, 1, MPI_INT, partner, 5, MPI_COMM_WORLD);
    line("rsend", partner, kInt, -1, 0, -1);
  } else {
    MPI_Irecv(ints, 1, MPI_INT, partner, 5, MPI_COMM_WORLD, &request);
    line("irecv", -1, 0, partner, kInt, -1);
    MPI_Sendrecv(NULL, 0, MPI_INT, partner, 4, NULL, 0, MPI_INT, partner, 4, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    line("sendrecv", partner, 0, partner, 0, -1);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    event("wait");
    completed('r', partner, kInt);
    check(ints[0] == partner, "MPI_Rsend");
  }

  /* Zero counts, and MPI_PROC_NULL on both sides. */
  MPI_Send(ints, 0, MPI_INT, partner, 6, MPI_COMM_WORLD);
  line("send", partner, 0, -1, 0, -1);
  MPI_Recv(ints, 0, MPI_INT, partner, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  line("recv", -1, 0, partner, 0, -1);
  MPI_Send(ints, 10, MPI_INT, MPI_PROC_NULL, 7, MPI_COMM_WORLD);
  line("send", -1, 0, -1, 0, -1);
  MPI_Recv(ints, 10, MPI_INT, MPI_PROC_NULL, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  line("recv", -1, 0, -1, 0, -1);
}

/* Sendrecv(_replace) round the ring, with MPI_PROC_NULL on either side, and the probes. */
static void exchanges_and_probes(void) {
  const int right = (me + 1) % nprocs, left = (me + nprocs - 1) % nprocs;
  double out[3] = {me, me, me}, in[4] = {0};
  MPI_Status status;

  MPI_Sendrecv(out, 3, MPI_DOUBLE, right, 10, in, 4, MPI_DOUBLE, left, 10, MPI_COMM_WORLD, &status);
  line("sendrecv", right, 3 * kDouble, left, 3 * kDouble, -1);
  check(in[2] == left, "MPI_Sendrecv");
  /* Sent to the right and received from nobody, then received from the left and sent to
   * nobody: the message of the first call arrives in the second. */
  MPI_Sendrecv(out, 2, MPI_DOUBLE, right, 11, in, 4, MPI_DOUBLE, MPI_PROC_NULL, 11, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  line("sendrecv", right, 2 * kDouble, -1, 0, -1);
  MPI_Sendrecv(out, 3, MPI_DOUBLE, MPI_PROC_NULL, 11, in, 4, MPI_DOUBLE, left, 11, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  line("sendrecv", -1, 0, left, 2 * kDouble, -1);
  check(in[1] == left, "MPI_Sendrecv with MPI_PROC_NULL");

  long long value[2] = {me, me};
  MPI_Sendrecv_replace(value, 2, MPI_LONG_LONG, right, 12, left, 12, MPI_COMM_WORLD, &status);
  line("sendrecv_replace", right, 2 * kLongLong, left, 2 * kLongLong, -1);
  check(value[1] == left, "MPI_Sendrecv_replace");

  /* Probe with MPI_ANY_SOURCE: the source and size found; then the receive. */
  int ints[8] = {0};
  MPI_Send(ints, 7, MPI_INT, right, 13, MPI_COMM_WORLD);
  line("send", right, 7 * kInt, -1, 0, -1);
  MPI_Probe(MPI_ANY_SOURCE, 13, MPI_COMM_WORLD, &status);
  line("probe", -1, 0, left, 7 * kInt, -1);
  check(status.MPI_SOURCE == left, "MPI_Probe");
  MPI_Recv(ints, 8, MPI_INT, status.MPI_SOURCE, 13, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  line("recv", -1, 0, left, 7 * kInt, -1);

  /* MPI_Iprobe until found: a call that finds nothing receives nothing from the peer asked. */
  MPI_Send(ints, 3, MPI_INT, right, 14, MPI_COMM_WORLD);
  line("send", right, 3 * kInt, -1, 0, -1);
  int flag = 0;
  while (!flag) {
    MPI_Iprobe(left, 14, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    line("iprobe", -1, 0, left, flag ? 3 * kInt : 0, -1);
  }
  MPI_Recv(ints, 8, MPI_INT, left, 14, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  line("recv", -1, 0, left, 3 * kInt, -1);

  /* Probing MPI_PROC_NULL finds at once an empty message from nobody. */
  MPI_Probe(MPI_PROC_NULL, 15, MPI_COMM_WORLD, &status);
  line("probe", -1, 0, -1, 0, -1);
  MPI_Iprobe(MPI_PROC_NULL, 15, MPI_COMM_WORLD, &flag, &status);
  line("iprobe", -1, 0, -1, 0, -1);
  check(flag, "MPI_Iprobe of MPI_PROC_NULL");
}

/* Posts a receive of 6 doubles from the left and a send of `count` to the right, with `tag`,
 * into requests[0] and requests[1]. */
static void post_pair(double* in, const double* out, int count, int tag, MPI_Request* requests) {
  const int right = (me + 1) % nprocs, left = (me + nprocs - 1) % nprocs;
  MPI_Irecv(in, 6, MPI_DOUBLE, left, tag, MPI_COMM_WORLD, &requests[0]);
  line("irecv", -1, 0, left, 6 * kDouble, -1);
  MPI_Isend(out, count, MPI_DOUBLE, right, tag, MPI_COMM_WORLD, &requests[1]);
  line("isend", right, (long long)count * kDouble, -1, 0, -1);
}

/* Non-blocking sends and receives, completed by every wait and test call. */
static void nonblocking_point_to_point(void) {
  const int right = (me + 1) % nprocs, left = (me + nprocs - 1) % nprocs;
  double out[6] = {me, me, me, me, me, me}, in[4][6];
  MPI_Request requests[4];
  MPI_Status statuses[4];
  int flag = 0, index = 0, outcount = 0, indices[4];

  /* MPI_Wait and MPI_Waitall: a receive from MPI_ANY_SOURCE resolved at completion. */
  MPI_Irecv(in[0], 6, MPI_DOUBLE, MPI_ANY_SOURCE, 20, MPI_COMM_WORLD, &requests[0]);
  line("irecv", -1, 0, -2, 6 * kDouble, -1);
  MPI_Isend(out, 4, MPI_DOUBLE, right, 20, MPI_COMM_WORLD, &requests[1]);
  line("isend", right, 4 * kDouble, -1, 0, -1);
  MPI_Wait(&requests[0], &statuses[0]);
  event("wait");
  completed('r', left, 4 * kDouble);
  check(in[0][3] == left, "MPI_Irecv from MPI_ANY_SOURCE");
  /* requests[0] is MPI_REQUEST_NULL now: nothing completes for it. */
  MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
  event("waitall");
  completed('s', right, 4 * kDouble);

  /* MPI_Issend and MPI_Waitany over a receive, a synchronous send and a PROC_NULL send. */
  MPI_Irecv(in[0], 6, MPI_DOUBLE, left, 21, MPI_COMM_WORLD, &requests[0]);
  line("irecv", -1, 0, left, 6 * kDouble, -1);
  MPI_Issend(out, 5, MPI_DOUBLE, right, 21, MPI_COMM_WORLD, &requests[1]);
  line("issend", right, 5 * kDouble, -1, 0, -1);
  MPI_Isend(out, 5, MPI_DOUBLE, MPI_PROC_NULL, 21, MPI_COMM_WORLD, &requests[2]);
  line("isend", -1, 0, -1, 0, -1);
  for (int done = 0; done < 3; ++done) {
    MPI_Waitany(3, requests, &index, &statuses[0]);
    event("waitany");
    if (index == 0) completed('r', left, 5 * kDouble);
    if (index == 1) completed('s', right, 5 * kDouble);
    if (index == 2) completed('s', -1, 0);
  }
  check(in[0][4] == left, "MPI_Issend");

  /* MPI_Waitsome over two receives (one from MPI_PROC_NULL) and a send. */
  MPI_Irecv(in[0], 6, MPI_DOUBLE, left, 22, MPI_COMM_WORLD, &requests[0]);
  line("irecv", -1, 0, left, 6 * kDouble, -1);
  MPI_Irecv(in[1], 6, MPI_DOUBLE, MPI_PROC_NULL, 22, MPI_COMM_WORLD, &requests[1]);
  line("irecv", -1, 0, -1, 0, -1);
  MPI_Isend(out, 0, MPI_DOUBLE, right, 22, MPI_COMM_WORLD, &requests[2]);
  line("isend", right, 0, -1, 0, -1);
  for (int done = 0; done < 3; done += outcount) {
    MPI_Waitsome(3, requests, &outcount, indices, statuses);
    event("waitsome");
    for (int k = 0; k < outcount; ++k) {
      if (indices[k] == 0) completed('r', left, 0);
      if (indices[k] == 1) completed('r', -1, 0);
      if (indices[k] == 2) completed('s', right, 0);
    }
  }
  /* Nothing left to complete: MPI_UNDEFINED, and no request record. */
  MPI_Waitsome(3, requests, &outcount, indices, statuses);
  event("waitsome");
  check(outcount == MPI_UNDEFINED, "MPI_Waitsome on null requests");

  /* The test family, each called until its requests complete. */
  post_pair(in[0], out, 1, 23, requests);
  for (flag = 0; !flag;) {
    MPI_Test(&requests[0], &flag, MPI_STATUS_IGNORE);
    event("test");
    if (flag) completed('r', left, kDouble);
  }
  for (flag = 0; !flag;) {
    MPI_Testall(1, &requests[1], &flag, statuses);
    event("testall");
    if (flag) completed('s', right, kDouble);
  }

  post_pair(in[0], out, 6, 24, requests);
  for (int done = 0; done < 2;) {
    MPI_Testany(2, requests, &index, &flag, MPI_STATUS_IGNORE);
    event("testany");
    if (flag && index == 0) completed('r', left, 6 * kDouble);
    if (flag && index == 1) completed('s', right, 6 * kDouble);
    if (flag && index != MPI_UNDEFINED) ++done;
  }

  post_pair(in[0], out, 2, 25, requests);
  for (int done = 0; done < 2;) {
    MPI_Testsome(2, requests, &outcount, indices, MPI_STATUSES_IGNORE);
    event("testsome");
    for (int k = 0; k < outcount && outcount != MPI_UNDEFINED; ++k) {
      if (indices[k] == 0) completed('r', left, 2 * kDouble);
      if (indices[k] == 1) completed('s', right, 2 * kDouble);
      ++done;
    }
  }
}

/* Persistent requests: started once each with MPI_Start and then together with MPI_Startall. */
static void persistent_requests(void) {
  const int right = (me + 1) % nprocs, left = (me + nprocs - 1) % nprocs;
  int out[5] = {me, me, me, me, me}, in[5] = {0};
  MPI_Request requests[2];

  MPI_Recv_init(in, 5, MPI_INT, left, 30, MPI_COMM_WORLD, &requests[0]);
  line("recv_init", -1, 0, left, 5 * kInt, -1);
  MPI_Send_init(out, 5, MPI_INT, right, 30, MPI_COMM_WORLD, &requests[1]);
  line("send_init", right, 5 * kInt, -1, 0, -1);
  MPI_Start(&requests[0]);
  started("start", -1, 0, left, 5 * kInt);
  MPI_Start(&requests[1]);
  started("start", right, 5 * kInt, -1, 0);
  MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
  event("waitall");
  completed('r', left, 5 * kInt);
  completed('s', right, 5 * kInt);
  check(in[4] == left, "persistent receive");
  MPI_Startall(2, requests);
  event("startall");
  completed('r', left, 5 * kInt);
  completed('s', right, 5 * kInt);
  MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
  event("waitall");
  completed('r', left, 5 * kInt);
  completed('s', right, 5 * kInt);
  MPI_Request_free(&requests[0]);
  MPI_Request_free(&requests[1]);

  /* A persistent receive from MPI_ANY_SOURCE: its completion names the sender. */
  MPI_Recv_init(in, 5, MPI_INT, MPI_ANY_SOURCE, 32, MPI_COMM_WORLD, &requests[0]);
  line("recv_init", -1, 0, -2, 5 * kInt, -1);
  MPI_Start(&requests[0]);
  started("start", -1, 0, -2, 5 * kInt);
  MPI_Send(out, 3, MPI_INT, right, 32, MPI_COMM_WORLD);
  line("send", right, 3 * kInt, -1, 0, -1);
  MPI_Wait(&requests[0], MPI_STATUS_IGNORE);
  event("wait");
  completed('r', left, 3 * kInt);
  MPI_Request_free(&requests[0]);

  /* Persistent requests with MPI_PROC_NULL: started, completed, and moving nothing. */
  MPI_Send_init(out, 5, MPI_INT, MPI_PROC_NULL, 31, MPI_COMM_WORLD, &requests[0]);
  line("send_init", -1, 0, -1, 0, -1);
  MPI_Recv_init(in, 5, MPI_INT, MPI_PROC_NULL, 31, MPI_COMM_WORLD, &requests[1]);
  line("recv_init", -1, 0, -1, 0, -1);
  MPI_Startall(2, requests);
  event("startall");
  completed('s', -1, 0);
  completed('r', -1, 0);
  MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
  event("waitall");
  completed('s', -1, 0);
  completed('r', -1, 0);
  MPI_Request_free(&requests[0]);
  MPI_Request_free(&requests[1]);
}

/* The blocking collectives on MPI_COMM_WORLD: MPI_IN_PLACE, zero counts and derived types. */
static void blocking_collectives(void) {
  const int n = nprocs;
  int counts[kMaxRanks], displs[kMaxRanks], rcounts[kMaxRanks], rdispls[kMaxRanks];
  int ints[4 * kMaxRanks * kMaxRanks];
  double doubles[4 * kMaxRanks];
  memset(ints, 0, sizeof ints);
  memset(doubles, 0, sizeof doubles);

  MPI_Barrier(MPI_COMM_WORLD);
  line("barrier", -1, 0, -1, 0, -1);

  for (int i = 0; i < 7; ++i) doubles[i] = me == 1 ? 7.0 : 0.0;
  MPI_Bcast(doubles, 7, MPI_DOUBLE, 1, MPI_COMM_WORLD);
  line("bcast", -1, 7 * kDouble, -1, 7 * kDouble, 1);
  check(doubles[6] == 7.0, "MPI_Bcast");

  for (int i = 0; i < 3; ++i) ints[i] = 1;
  MPI_Reduce(me == 0 ? MPI_IN_PLACE : ints, ints, 3, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  line("reduce", -1, 3 * kInt, -1, 3 * kInt, 0);
  if (me == 0) check(ints[2] == n, "MPI_Reduce with MPI_IN_PLACE");

  for (int i = 0; i < 4; ++i) doubles[i] = 1.0;
  MPI_Allreduce(MPI_IN_PLACE, doubles, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  line("allreduce", -1, 4 * kDouble, -1, 4 * kDouble, -1);
  check(doubles[3] == n, "MPI_Allreduce with MPI_IN_PLACE");

  /* Gather to rank 2 % n, in place at the root. */
  const int groot = 2 % n;
  ints[2 * me] = me;
  ints[2 * me + 1] = me;
  /* At the root the send count is ignored: 0 there tells MPI_IN_PLACE's block from it. */
  MPI_Gather(me == groot ? MPI_IN_PLACE : &ints[2 * me], me == groot ? 0 : 2, MPI_INT, ints, 2,
             MPI_INT, groot, MPI_COMM_WORLD);
  line("gather", -1, 2 * kInt, -1, me == groot ? 2LL * kInt * n : 0, groot);
  if (me == groot) check(ints[2 * n - 1] == n - 1, "MPI_Gather with MPI_IN_PLACE");

  /* Gatherv to rank 0: rank i sends i + 1 ints. */
  long long gathered = 0;
  for (int i = 0; i < n; ++i) {
    counts[i] = i + 1;
    displs[i] = i * n;
    gathered += counts[i];
  }
  int mine[kMaxRanks];
  for (int i = 0; i <= me; ++i) mine[i] = me;
  MPI_Gatherv(mine, me + 1, MPI_INT, ints, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
  line("gatherv", -1, (me + 1) * kInt, -1, me == 0 ? gathered * kInt : 0, 0);
  if (me == 0) check(ints[(n - 1) * n + n - 1] == n - 1, "MPI_Gatherv");

  /* Scatter from rank 1, in place at the root. */
  for (int i = 0; i < 3 * n; ++i) ints[i] = i / 3;
  MPI_Scatter(ints, 3, MPI_INT, me == 1 ? MPI_IN_PLACE : ints, me == 1 ? 0 : 3, MPI_INT, 1,
              MPI_COMM_WORLD);
  line("scatter", -1, me == 1 ? 3LL * kInt * n : 0, -1, 3 * kInt, 1);
  check(ints[2] == (me == 1 ? 0 : me), "MPI_Scatter");

  /* Scatterv from the last rank: rank i gets i + 1 doubles. */
  for (int i = 0; i < n; ++i) {
    counts[i] = i + 1;
    displs[i] = i * n;
  }
  for (int i = 0; i < n * n; ++i) doubles[i] = i / n;
  double received[kMaxRanks];
  MPI_Scatterv(doubles, counts, displs, MPI_DOUBLE, received, me + 1, MPI_DOUBLE, n - 1,
               MPI_COMM_WORLD);
  line("scatterv", -1, me == n - 1 ? gathered * kDouble : 0, -1, (me + 1) * kDouble, n - 1);
  check(received[me] == me, "MPI_Scatterv");

  /* Allgather of one contiguous(3 shorts) = 6 bytes each. */
  MPI_Datatype three_shorts;
  MPI_Type_contiguous(3, MPI_SHORT, &three_shorts);
  MPI_Type_commit(&three_shorts);
  short shorts[3 * kMaxRanks + 3] = {(short)me, (short)me, (short)me};
  MPI_Allgather(shorts, 1, three_shorts, &shorts[3], 3, MPI_SHORT, MPI_COMM_WORLD);
  line("allgather", -1, 3 * kShort, -1, 3LL * kShort * n, -1);
  check(shorts[3 + 3 * n - 1] == n - 1, "MPI_Allgather of a contiguous type");
  MPI_Type_free(&three_shorts);

  /* Allgatherv in place: rank i contributes i + 1 ints. */
  for (int i = 0; i < n; ++i) {
    counts[i] = i + 1;
    displs[i] = i * n;
  }
  for (int i = 0; i <= me; ++i) ints[me * n + i] = me;
  MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ints, counts, displs, MPI_INT, MPI_COMM_WORLD);
  line("allgatherv", -1, (me + 1) * kInt, -1, gathered * kInt, -1);
  check(ints[(n - 1) * n] == n - 1, "MPI_Allgatherv with MPI_IN_PLACE");

  /* Alltoall of zero counts. */
  MPI_Alltoall(ints, 0, MPI_INT, &ints[n], 0, MPI_INT, MPI_COMM_WORLD);
  line("alltoall", -1, 0, -1, 0, -1);

  /* Alltoallv: to rank j, (me + 2 j) % 3 + 1 ints; from rank j, (j + 2 me) % 3 + 1. */
  long long sent = 0, got = 0;
  for (int j = 0; j < n; ++j) {
    counts[j] = (me + 2 * j) % 3 + 1;
    displs[j] = 4 * j;
    rcounts[j] = (j + 2 * me) % 3 + 1;
    rdispls[j] = 4 * j;
    sent += counts[j];
    got += rcounts[j];
  }
  int sendv[4 * kMaxRanks], recvv[4 * kMaxRanks];
  for (int i = 0; i < 4 * n; ++i) sendv[i] = me;
  MPI_Alltoallv(sendv, counts, displs, MPI_INT, recvv, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD);
  line("alltoallv", -1, sent * kInt, -1, got * kInt, -1);
  check(recvv[4 * (n - 1)] == n - 1, "MPI_Alltoallv");

  /* Alltoallw: 2 ints to even ranks, 2 doubles to odd ones; this rank receives its kind. */
  MPI_Datatype stypes[kMaxRanks], rtypes[kMaxRanks];
  long long wsent = 0, wgot = 0;
  const int my_size = me % 2 == 0 ? kInt : kDouble;
  for (int j = 0; j < n; ++j) {
    counts[j] = 2;
    rcounts[j] = 2;
    displs[j] = 16 * j;
    rdispls[j] = 16 * j;
    stypes[j] = j % 2 == 0 ? MPI_INT : MPI_DOUBLE;
    rtypes[j] = me % 2 == 0 ? MPI_INT : MPI_DOUBLE;
    wsent += 2 * (j % 2 == 0 ? kInt : kDouble);
    wgot += 2 * my_size;
  }
  char wsend[16 * kMaxRanks], wrecv[16 * kMaxRanks];
  memset(wsend, 0, sizeof wsend);
  MPI_Alltoallw(wsend, counts, displs, stypes, wrecv, rcounts, rdispls, rtypes, MPI_COMM_WORLD);
  line("alltoallw", -1, wsent, -1, wgot, -1);

  /* The all-to-alls in place: the send arguments are ignored (zero counts here), and this rank
   * contributes what it receives. Alltoallv and Alltoallw with symmetric counts j + me + 1. */
  MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recvv, 2, MPI_INT, MPI_COMM_WORLD);
  line("alltoall", -1, 2LL * kInt * n, -1, 2LL * kInt * n, -1);
  long long symmetric = 0;
  int zeros[kMaxRanks];
  for (int j = 0; j < n; ++j) {
    rcounts[j] = j + me + 1;
    rdispls[j] = 2 * kMaxRanks * j / n;
    zeros[j] = 0;
    symmetric += rcounts[j];
  }
  MPI_Alltoallv(MPI_IN_PLACE, zeros, zeros, MPI_DATATYPE_NULL, recvv, rcounts, rdispls, MPI_INT,
                MPI_COMM_WORLD);
  line("alltoallv", -1, symmetric * kInt, -1, symmetric * kInt, -1);
  for (int j = 0; j < n; ++j) {
    rdispls[j] *= kInt;
    rtypes[j] = MPI_INT;
  }
  MPI_Alltoallw(MPI_IN_PLACE, zeros, zeros, rtypes, recvv, rcounts, rdispls, rtypes,
                MPI_COMM_WORLD);
  line("alltoallw", -1, symmetric * kInt, -1, symmetric * kInt, -1);

  /* Reduce_scatter: block i holds i + 1 ints. */
  for (int i = 0; i < n; ++i) counts[i] = i + 1;
  for (int i = 0; i < (int)gathered; ++i) sendv[i] = 1;
  MPI_Reduce_scatter(sendv, recvv, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  line("reduce_scatter", -1, gathered * kInt, -1, (me + 1) * kInt, -1);
  check(recvv[me] == n, "MPI_Reduce_scatter");

  for (int i = 0; i < 2 * n; ++i) doubles[i] = 1.0;
  MPI_Reduce_scatter_block(doubles, received, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  line("reduce_scatter_block", -1, 2LL * kDouble * n, -1, 2 * kDouble, -1);
  check(received[1] == n, "MPI_Reduce_scatter_block");

  long long one = 1, prefix = 0;
  MPI_Scan(&one, &prefix, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  line("scan", -1, kLongLong, -1, kLongLong, -1);
  check(prefix == me + 1, "MPI_Scan");
  int pair[2] = {1, 1}, before[2] = {0, 0};
  MPI_Exscan(pair, before, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  line("exscan", -1, 2 * kInt, -1, 2 * kInt, -1);
  if (me > 0) check(before[1] == me, "MPI_Exscan");
}

/* The non-blocking collectives, all outstanding together, then one MPI_Waitall: each
 * completes as a send with no peer and the bytes this rank contributes. */
enum { kNonblocking = 16 };
static long long nb_bytes[kNonblocking];
static int nb_count;

static void nb_line(const char* op, long long bytes, long long rbytes, int root) {
  line(op, -1, bytes, -1, rbytes, root);
  nb_bytes[nb_count++] = bytes;
}

static void nonblocking_collectives(void) {
  const int n = nprocs;
  /* Each call has its own buffers: sending from the first half, receiving into the second. */
  enum { kHalf = 4 * kMaxRanks };
  static int a[kNonblocking][2 * kHalf];
  static double d[kNonblocking][2 * kHalf];
  int counts[kMaxRanks], displs[kMaxRanks], ones[kMaxRanks], unit_displs[kMaxRanks];
  MPI_Datatype types[kMaxRanks];
  MPI_Request r[kNonblocking];
  long long sum = 0;
  for (int i = 0; i < n; ++i) {
    counts[i] = i + 1;
    displs[i] = 4 * i;
    ones[i] = 1;
    unit_displs[i] = i;
    types[i] = MPI_DOUBLE;
    sum += i + 1;
  }
  for (int k = 0; k < kNonblocking; ++k) {
    for (int i = 0; i < 2 * kHalf; ++i) {
      a[k][i] = 1;
      d[k][i] = 1.0;
    }
  }
  nb_count = 0;
  const int last = n - 1;

  MPI_Ibarrier(MPI_COMM_WORLD, &r[0]);
  nb_line("ibarrier", 0, 0, -1);
  MPI_Ibcast(d[1], 3, MPI_DOUBLE, last, MPI_COMM_WORLD, &r[1]);
  nb_line("ibcast", 3 * kDouble, 3 * kDouble, last);
  MPI_Ireduce(me == 0 ? MPI_IN_PLACE : a[2], me == 0 ? a[2] : &a[2][kHalf], 2, MPI_INT, MPI_SUM, 0,
              MPI_COMM_WORLD, &r[2]);
  nb_line("ireduce", 2 * kInt, 2 * kInt, 0);
  MPI_Iallreduce(MPI_IN_PLACE, d[3], 5, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, &r[3]);
  nb_line("iallreduce", 5 * kDouble, 5 * kDouble, -1);
  MPI_Igather(a[4], 0, MPI_INT, &a[4][1], 0, MPI_INT, 1 % n, MPI_COMM_WORLD, &r[4]);
  nb_line("igather", 0, 0, 1 % n);
  MPI_Igatherv(a[5], me + 1, MPI_INT, &a[5][kHalf], counts, displs, MPI_INT, last, MPI_COMM_WORLD,
               &r[5]);
  nb_line("igatherv", (me + 1) * kInt, me == last ? sum * kInt : 0, last);
  MPI_Iscatter(d[6], 2, MPI_DOUBLE, &d[6][kHalf], 2, MPI_DOUBLE, 0, MPI_COMM_WORLD, &r[6]);
  nb_line("iscatter", me == 0 ? 2LL * kDouble * n : 0, 2 * kDouble, 0);
  MPI_Iscatterv(a[7], counts, displs, MPI_INT, me == 0 ? MPI_IN_PLACE : a[7], me == 0 ? 0 : me + 1,
                MPI_INT, 0, MPI_COMM_WORLD, &r[7]);
  nb_line("iscatterv", me == 0 ? sum * kInt : 0, (me + 1) * kInt, 0);
  MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, d[8], 2, MPI_DOUBLE, MPI_COMM_WORLD, &r[8]);
  nb_line("iallgather", 2 * kDouble, 2LL * kDouble * n, -1);
  MPI_Iallgatherv(a[9], me + 1, MPI_INT, &a[9][kHalf], counts, displs, MPI_INT, MPI_COMM_WORLD,
                  &r[9]);
  nb_line("iallgatherv", (me + 1) * kInt, sum * kInt, -1);
  MPI_Ialltoall(d[10], 1, MPI_DOUBLE, &d[10][kHalf], 1, MPI_DOUBLE, MPI_COMM_WORLD, &r[10]);
  nb_line("ialltoall", 1LL * kDouble * n, 1LL * kDouble * n, -1);
  MPI_Ialltoallv(a[11], ones, unit_displs, MPI_INT, &a[11][kHalf], ones, unit_displs, MPI_INT,
                 MPI_COMM_WORLD, &r[11]);
  nb_line("ialltoallv", 1LL * kInt * n, 1LL * kInt * n, -1);
  int bdispls[kMaxRanks];
  for (int i = 0; i < n; ++i) bdispls[i] = kDouble * i;
  MPI_Ialltoallw(d[12], ones, bdispls, types, &d[12][kHalf], ones, bdispls, types, MPI_COMM_WORLD,
                 &r[12]);
  nb_line("ialltoallw", 1LL * kDouble * n, 1LL * kDouble * n, -1);
  MPI_Ireduce_scatter(a[13], &a[13][kHalf], counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[13]);
  nb_line("ireduce_scatter", sum * kInt, (me + 1) * kInt, -1);
  MPI_Ireduce_scatter_block(d[14], &d[14][kHalf], 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r[14]);
  nb_line("ireduce_scatter_block", 1LL * kDouble * n, kDouble, -1);
  MPI_Iscan(d[15], &d[15][kHalf], 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r[15]);
  nb_line("iscan", 2 * kDouble, 2 * kDouble, -1);
  MPI_Waitall(kNonblocking, r, MPI_STATUSES_IGNORE);
  event("waitall");
  for (int k = 0; k < kNonblocking; ++k) completed('s', -1, nb_bytes[k]);
  check(d[3][4] == 1.0 && d[15][kHalf + 1] == me + 1, "non-blocking collectives");

  /* MPI_Iexscan alone, completed by MPI_Wait. */
  MPI_Request request;
  int one = 1, before = 0;
  MPI_Iexscan(&one, &before, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &request);
  line("iexscan", -1, kInt, -1, kInt, -1);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  event("wait");
  completed('s', -1, kInt);
  if (me > 0) check(before == me, "MPI_Iexscan");
}

/* An intercommunicator between the even and the odd ranks (MPI_Intercomm_create is not
 * wrapped: the tracer describes the communicator on first use). Peers and roots are world ranks
 * of the remote group; in a rooted collective the root group's root passes MPI_ROOT (recorded
 * as this rank) and its other members MPI_PROC_NULL (idle: root -1, nothing moved). Its COMM is
 * the local group, which is what the tracer's comm line for an intercommunicator lists. */
static void intercommunicator(MPI_Comm parity) {
  const int even = me % 2 == 0;
  /* Each side's leader is its rank 0 in `parity`, the largest world rank of that parity. */
  const int remote_leader = even ? nprocs - 1 : nprocs - 2;
  MPI_Comm inter;
  MPI_Intercomm_create(parity, 0, MPI_COMM_WORLD, remote_leader, 50, &inter);
  current = inter;
  int sub = 0, remote_size = 0;
  MPI_Comm_rank(inter, &sub);
  MPI_Comm_remote_size(inter, &remote_size);

  int out[4] = {me, me, me, me}, in[4 * kMaxRanks];
  const int partner = remote_world_rank(inter, sub);
  MPI_Sendrecv(out, 2, MPI_INT, sub, 51, in, 4, MPI_INT, sub, 51, inter, MPI_STATUS_IGNORE);
  line("sendrecv", partner, 2 * kInt, partner, 2 * kInt, -1);
  check(in[1] == partner, "MPI_Sendrecv on an intercommunicator");

  /* Broadcast and gather rooted at the even side's rank 0. */
  int root_arg;
  int root_world;
  if (even) {
    root_arg = sub == 0 ? MPI_ROOT : MPI_PROC_NULL;
    root_world = sub == 0 ? me : -1;
  } else {
    root_arg = 0;
    root_world = remote_world_rank(inter, 0);
  }
  const int idle = even && sub != 0;
  MPI_Bcast(out, 3, MPI_INT, root_arg, inter);
  line("bcast", -1, idle ? 0 : 3 * kInt, -1, idle ? 0 : 3 * kInt, root_world);
  MPI_Gather(out, 1, MPI_INT, in, 1, MPI_INT, root_arg, inter);
  if (even) {
    line("gather", -1, 0, -1, sub == 0 ? 1LL * kInt * remote_size : 0, root_world);
  } else {
    line("gather", -1, kInt, -1, 0, root_world);
  }

  double x = 1.0, sum = 0.0;
  MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, inter);
  line("allreduce", -1, kDouble, -1, kDouble, -1);
  check(sum == remote_size, "MPI_Allreduce on an intercommunicator");
  MPI_Request request;
  MPI_Ialltoall(out, 1, MPI_INT, in, 1, MPI_INT, inter, &request);
  line("ialltoall", -1, 1LL * kInt * remote_size, -1, 1LL * kInt * remote_size, -1);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  event("wait");
  completed('s', -1, 1LL * kInt * remote_size);
  MPI_Comm_free(&inter);
  current = parity;
}

/* Communicator and topology creation, and calls on the communicators made: peers and roots
 * are recorded as world ranks. */
static void sub_communicators(void) {
  const int n = nprocs;
  MPI_Status status;

  /* Split by parity, ranks in reverse world order: sub rank 0 is the largest world rank. */
  MPI_Comm parity;
  MPI_Comm_split(MPI_COMM_WORLD, me % 2, n - me, &parity);
  created("comm_split", MPI_COMM_WORLD, parity);
  current = parity;
  int size = 0, sub = 0;
  MPI_Comm_size(parity, &size);
  MPI_Comm_rank(parity, &sub);
  int value[4] = {me, me, me, me};
  MPI_Bcast(value, 4, MPI_INT, 0, parity);
  line("bcast", -1, 4 * kInt, -1, 4 * kInt, world_rank(parity, 0));
  check(value[0] == world_rank(parity, 0), "MPI_Bcast on a split communicator");
  if (size > 1) {
    const int next = (sub + 1) % size, prev = (sub + size - 1) % size;
    MPI_Sendrecv(value, 1, MPI_INT, next, 40, &value[1], 1, MPI_INT, prev, 40, parity, &status);
    line("sendrecv", world_rank(parity, next), kInt, world_rank(parity, prev), kInt, -1);
  }
  int members[kMaxRanks];
  MPI_Allgather(&me, 1, MPI_INT, members, 1, MPI_INT, parity);
  line("allgather", -1, kInt, -1, 1LL * kInt * size, -1);
  check(members[0] == world_rank(parity, 0), "MPI_Allgather on a split communicator");
  MPI_Request request;
  MPI_Igather(&me, 1, MPI_INT, members, 1, MPI_INT, size - 1, parity, &request);
  line("igather", -1, kInt, -1, sub == size - 1 ? 1LL * kInt * size : 0,
       world_rank(parity, size - 1));
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  event("wait");
  completed('s', -1, kInt);

  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  created("comm_dup", MPI_COMM_WORLD, dup);
  current = dup;
  double x = 1.0;
  MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_SUM, dup);
  line("allreduce", -1, kDouble, -1, kDouble, -1);
  check(x == n, "MPI_Allreduce on a duplicate");

  /* The upper half of the ranks; the lower half gets MPI_COMM_NULL. */
  MPI_Group world_group, upper_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  int range[1][3] = {{n / 2, n - 1, 1}};
  MPI_Group_range_incl(world_group, 1, range, &upper_group);
  MPI_Comm upper;
  MPI_Comm_create(MPI_COMM_WORLD, upper_group, &upper);
  created("comm_create", MPI_COMM_WORLD, upper);
  if (upper != MPI_COMM_NULL) {
    current = upper;
    double upper_sum = 0.0;
    MPI_Reduce(&x, &upper_sum, 1, MPI_DOUBLE, MPI_SUM, 0, upper);
    line("reduce", -1, kDouble, -1, kDouble, n / 2);
    MPI_Comm_free(&upper);
  }
  MPI_Group_free(&upper_group);
  MPI_Group_free(&world_group);

  /* MPI_Dims_create with the first extent given: no event, a dims_create line with the
   * extents given and chosen. */
  int chosen[2] = {2, 0};
  MPI_Dims_create(n, 2, chosen);
  fprintf(record, "dims_create %d 2 2 0 %d %d\n", n, chosen[0], chosen[1]);

  /* A 2 x n/2 periodic grid, a shift along each row, and the rows as a sub-communicator. */
  MPI_Comm grid, row;
  int dims[2] = {2, n / 2}, periods[2] = {1, 1};
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  created("cart_create", MPI_COMM_WORLD, grid);
  current = grid;
  int from = 0, to = 0;
  MPI_Cart_shift(grid, 1, 1, &from, &to);
  MPI_Sendrecv(value, 2, MPI_INT, to, 41, &value[2], 2, MPI_INT, from, 41, grid, &status);
  line("sendrecv", world_rank(grid, to), 2 * kInt, world_rank(grid, from), 2 * kInt, -1);
  int remain[2] = {0, 1};
  MPI_Cart_sub(grid, remain, &row);
  created("cart_sub", grid, row);
  current = row;
  MPI_Barrier(row);
  line("barrier", -1, 0, -1, 0, -1);
  MPI_Comm_free(&row);
  MPI_Comm_free(&grid);

  /* A ring as a distributed graph: this rank declares its edge to the right. */
  MPI_Comm ring;
  int source = me, degree = 1, destination = (me + 1) % n, weight = 1;
  MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &source, &degree, &destination, &weight, MPI_INFO_NULL,
                        0, &ring);
  created("dist_graph_create", MPI_COMM_WORLD, ring);
  MPI_Comm_free(&ring);
  MPI_Comm_free(&dup);
  intercommunicator(parity);
  MPI_Comm_free(&parity);
  current = MPI_COMM_WORLD;
}

int main(int argc, char** argv) {
  /* Which init a rank calls depends on its rank, known only after init: the launcher's
   * environment says it first (Open MPI and MPICH's Hydra). */
  const char* env_rank = getenv("OMPI_COMM_WORLD_RANK");
  if (env_rank == NULL) env_rank = getenv("PMI_RANK");
  const int odd = env_rank != NULL && atoi(env_rank) % 2 == 1;
  if (odd) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  } else {
    MPI_Init(&argc, &argv);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  current = MPI_COMM_WORLD;
  const char* usage = "app_every_call RECORD_DIR [abort]   (n even, 2..64)";
  if (argc < 2 || argc > 3) return app_usage(me, usage, "expected a record directory");
  const int abort_run = argc == 3 && strcmp(argv[2], "abort") == 0;
  if (argc == 3 && !abort_run) return app_usage(me, usage, "the second argument may be `abort`");
  if (nprocs % 2 != 0 || nprocs > kMaxRanks) return app_usage(me, usage, "n must be even, <= 64");
  if (odd != (me % 2 == 1)) return app_usage(me, usage, "launcher's rank variable disagrees");

  char path[4096];
  snprintf(path, sizeof path, "%s/record-%05d.txt", argv[1], me);
  record = fopen(path, "w");
  if (record == NULL) {
    perror(path);
    MPI_Abort(MPI_COMM_WORLD, APP_EXIT_USAGE);
  }

  if (abort_run) {
    MPI_Barrier(MPI_COMM_WORLD);
    line("barrier", -1, 0, -1, 0, -1);
    if (me == 0) {
      fprintf(record, "abort\n");
      fclose(record);
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
    /* The others wait to be ended by the abort. */
    MPI_Barrier(MPI_COMM_WORLD);
    return APP_EXIT_FAIL;
  }

  blocking_point_to_point();
  exchanges_and_probes();
  nonblocking_point_to_point();
  persistent_requests();
  blocking_collectives();
  nonblocking_collectives();
  sub_communicators();

  int total = 0;
  MPI_Reduce(&failures, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  line("reduce", -1, kInt, -1, kInt, 0);
  MPI_Finalize();
  event("finalize");
  fclose(record);
  if (me == 0) printf("%s\n", total == 0 ? "SUCCESS" : "FAIL");
  return me == 0 && total != 0 ? APP_EXIT_FAIL : APP_EXIT_SUCCESS;
}
