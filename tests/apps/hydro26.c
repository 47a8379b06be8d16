/* app_hydro26: a hydrodynamics proxy on a NON-periodic cube of ranks that exchanges faces, edges
 * and corners with up to 26 neighbours, three times per time step.
 *
 * usage: app_hydro26 [edge [iterations]]   (defaults 12 and 30; n a cube: 1, 8, 27, 64, ...)
 *
 * The application places its ranks itself (no MPI topology): k = cbrt(n) ranks per side, rank r
 * at (x, y, z) = (r % k, (r / k) % k, r / k^2). Each rank owns edge^3 cells. The 26 directions
 * (dx, dy, dz) in {-1, 0, 1}^3 \ {0} are taken in one fixed order, dz slowest, dx fastest; a
 * neighbour exists when its coordinates are inside the cube (the guard every rank tests; a
 * corner rank has 7 neighbours, an inner one 26). A message in direction d carries the cells
 * the two ranks share: edge^2 doubles for a face, edge for an edge, 1 for a corner, times the
 * exchange's field count.
 * Setup: MPI_Bcast of 2 ints from rank 0 (the arguments).
 * Every time step, three exchanges, each in this order:
 *   MPI_Irecv from each existing neighbour of the exchange's directions, in the fixed order,
 *   MPI_Isend to each of them, in the same order,
 *   MPI_Waitall over the receives (called even with none),
 *   MPI_Wait on each send request, in the order posted;
 * exchange 1: all 26 directions, 3 fields (tag 1); exchange 2: the 13 directions that come after
 * (0, 0, 0) in the order receive 1 field (tag 2) and the 13 before it send it (a one-sided sum
 * towards the upper neighbours); exchange 3: the 6 faces, 1 field (tag 3). Then MPI_Allreduce
 * of 1 double (MPI_MIN): the next time step's length.
 * After the loop: app_finish's MPI_Reduce.
 *
 * Reproduces: border ranks that skip most of a long, fixed sequence of guarded calls, waits per
 * request after a waitall, and the run at n = 1 where every neighbour is missing.
 * Verification: every message carries the sender's coordinates and direction in its first
 * three doubles, checked on arrival; the reduced time step is the known minimum over ranks.
 */
#include <math.h>
#include <stdlib.h>

#include "app_common.h"

static const char* const kUsage = "app_hydro26 [edge 1..64 (12)] [iterations 1..1000000 (30)]";

enum { kDirections = 26, kFields = 3 };

typedef struct {
  int dx, dy, dz;
} Direction;

/* The cells two ranks share across direction d: a face, an edge or a corner of the block. */
static long shared_cells(Direction d, long edge) {
  const int zeros = (d.dx == 0) + (d.dy == 0) + (d.dz == 0);
  return zeros == 2 ? edge * edge : zeros == 1 ? edge : 1;
}

/* The neighbour across d, or -1 outside the cube. */
static int neighbour(int x, int y, int z, int k, Direction d) {
  const int nx = x + d.dx, ny = y + d.dy, nz = z + d.dz;
  if (nx < 0 || ny < 0 || nz < 0 || nx >= k || ny >= k || nz >= k) return -1;
  return nx + k * (ny + k * nz);
}

/* One exchange: receives from the neighbours across recv_dirs, sends to those across
 * send_dirs, `fields` values per shared cell plus the sender's coordinates. */
static int exchange(const Direction* recv_dirs, const Direction* send_dirs, int count, int fields,
                    int tag, int x, int y, int z, int k, long edge, double* buffer,
                    long slot_doubles) {
  MPI_Request recv_req[kDirections], send_req[kDirections];
  int from[kDirections], nrecv = 0, nsend = 0, ok = 1;
  for (int i = 0; i < count; ++i) {
    const int peer = neighbour(x, y, z, k, recv_dirs[i]);
    if (peer >= 0) {
      const long len = shared_cells(recv_dirs[i], edge) * fields + 3;
      from[nrecv] = i;
      MPI_Irecv(buffer + (long)i * slot_doubles, (int)len, MPI_DOUBLE, peer, tag, MPI_COMM_WORLD,
                &recv_req[nrecv++]);
    }
  }
  double* out = buffer + (long)kDirections * slot_doubles;
  for (int i = 0; i < count; ++i) {
    const int peer = neighbour(x, y, z, k, send_dirs[i]);
    if (peer >= 0) {
      const long len = shared_cells(send_dirs[i], edge) * fields + 3;
      double* msg = out + (long)i * slot_doubles;
      msg[0] = x;
      msg[1] = y;
      msg[2] = z;
      for (long c = 3; c < len; ++c) msg[c] = (double)(x + y + z + c);
      MPI_Isend(msg, (int)len, MPI_DOUBLE, peer, tag, MPI_COMM_WORLD, &send_req[nsend++]);
    }
  }
  MPI_Waitall(nrecv, recv_req, MPI_STATUSES_IGNORE);
  for (int s = 0; s < nsend; ++s) MPI_Wait(&send_req[s], MPI_STATUS_IGNORE);
  for (int q = 0; q < nrecv; ++q) {
    const Direction d = recv_dirs[from[q]];
    const double* msg = buffer + (long)from[q] * slot_doubles;
    if (msg[0] != x + d.dx || msg[1] != y + d.dy || msg[2] != z + d.dz) ok = 0;
  }
  return ok;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  long edge = 0, iters = 0;
  if (argc > 3 || app_arg_long(argc, argv, 1, 1, 64, 12, &edge) != 0 ||
      app_arg_long(argc, argv, 2, 1, 1000000, 30, &iters) != 0)
    return app_usage(rank, kUsage, "bad arguments");
  int k = (int)lround(cbrt((double)n));
  if (k * k * k != n) return app_usage(rank, kUsage, "the process count must be a cube");
  const int x = rank % k, y = (rank / k) % k, z = rank / (k * k);

  int args[2] = {(int)edge, (int)iters};
  MPI_Bcast(args, 2, MPI_INT, 0, MPI_COMM_WORLD);
  int ok = args[0] == edge && args[1] == iters;

  Direction all[kDirections], lower[kDirections / 2], upper[kDirections / 2], faces[6];
  int count = 0, nfaces = 0;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        if (dx == 0 && dy == 0 && dz == 0) continue;
        const Direction d = {dx, dy, dz};
        if (count < kDirections / 2)
          lower[count] = d;
        else
          upper[count - kDirections / 2] = d;
        if (abs(dx) + abs(dy) + abs(dz) == 1) faces[nfaces++] = d;
        all[count++] = d;
      }

  const long slot_doubles = edge * edge * kFields + 3;
  double* buffer = malloc((size_t)(2 * kDirections * slot_doubles) * sizeof(double));
  double* cells = malloc((size_t)(edge * edge * edge) * sizeof(double));
  if (!buffer || !cells) MPI_Abort(MPI_COMM_WORLD, APP_EXIT_FAIL);
  for (long c = 0; c < edge * edge * edge; ++c) cells[c] = (double)((c + rank) % 11);

  for (long it = 0; it < iters; ++it) {
    ok &= exchange(all, all, kDirections, kFields, 1, x, y, z, k, edge, buffer, slot_doubles);
    /* A sum towards the upper neighbours: receive from the 13 lower directions, send to the 13
     * upper ones. */
    ok &= exchange(lower, upper, kDirections / 2, 1, 2, x, y, z, k, edge, buffer, slot_doubles);
    ok &= exchange(faces, faces, 6, 1, 3, x, y, z, k, edge, buffer, slot_doubles);
    double energy = 0.0;
    for (long c = 0; c < edge * edge * edge; ++c) {
      cells[c] = 0.5 * cells[c] + 0.25 * (double)(c % 7);
      energy += cells[c];
    }
    APP_COMPUTE_FLOPS(4 * edge * edge * edge);
    /* Each rank's candidate step; the smallest, rank 0's, wins (energy is never negative). */
    double local_dt = 1.0 + rank + (energy < 0.0 ? 1.0 : 0.0), dt = 0.0;
    MPI_Allreduce(&local_dt, &dt, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    if (dt != 1.0) ok = 0;
  }
  free(buffer);
  free(cells);
  return app_finish(rank, ok);
}
