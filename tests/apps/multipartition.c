/* app_multipartition: an ADI solver on a multipartitioned cube, as NAS BT and SP lay out their
 * cells (written from that description): every rank holds sqrt(n) cells placed diagonally, and
 * each sweep direction is a pipeline of sqrt(n) stages.
 *
 * usage: app_multipartition [size [steps]]   (defaults 48 and 10; n = p * p a perfect square,
 *        1 included, with p dividing size and p < 100)
 *
 * The global domain is size^3 points (strong scaling), cut into p x p x p cells of
 * e = size / p points per edge. Rank r sits at row r / p, column r % p and owns the p cells
 * (x, y, z) = (k, (row + k) mod p, (col + k) mod p), k = 0 .. p-1, so the cell (x, y, z) belongs
 * to rank ((y - x) mod p) * p + (z - x) mod p, and every slab of cells along every axis holds
 * exactly one cell of every rank. The rank a message goes to is the owner of the next (or
 * previous) cell along the axis, derived from this placement at every stage.
 * Every time step, for each direction d = x, y, z (d = 0, 1, 2), in this order:
 *   forward elimination, stages s = 0 .. p-1 on the rank's cell in slab s along d:
 *     if s > 0: MPI_Irecv from the owner of the previous cell (tag 100 (2d + 1) + s - 1),
 *       MPI_Wait on the previous stage's send, MPI_Wait on the receive;
 *     the elimination over the cell;
 *     if s < p-1: MPI_Isend to the owner of the next cell (tag 100 (2d + 1) + s);
 *   back substitution, stages s = p-1 .. 0, the other way round:
 *     if s < p-1: MPI_Irecv from the owner of the next cell (tag 100 (2d + 2) + s + 1),
 *       MPI_Wait on the previous stage's send, MPI_Wait on the receive;
 *     the substitution over the cell;
 *     if s > 0: MPI_Isend to the owner of the previous cell (tag 100 (2d + 2) + s);
 *   every message a face of a cell: e * e * 5 doubles (5 unknowns per point, as BT's);
 * then MPI_Allreduce of 2 doubles (MPI_SUM): the squared error and the squared solution.
 * After the loop: app_finish's MPI_Reduce. The tags name the slab of the sending cell, so a tag
 * is a function of the stage. With p = 1 a time step is its compute and the allreduce; with
 * p = 2 the next and previous cells along an axis belong to one rank.
 *
 * Reproduces: pipelines whose stage count grows as sqrt(n) (3 (p - 1) sends each way per time
 * step), first and last stages without their receive or send, per-stage tags, successors that
 * follow from a cell placement the application computes.
 * Verification: each direction solves the tridiagonal systems (-1, 4, -1) along its lines,
 * across the cells of all ranks; the right-hand side is A_x A_y A_z applied to a known field, so
 * after the three directions every point must hold that field (checked through the allreduce).
 */
#include <stdlib.h>

#include "app_common.h"

static const char* const kUsage =
    "app_multipartition [size 1..128 (48), a multiple of sqrt(n)] [steps 1..1000000 (10)]; "
    "n must be a perfect square below 10000";

enum { kVars = 5 };

/* The known solution along one axis, and A applied to it (zero outside the domain). */
static double field(long i) {
  return 1.0 + (double)((i * 37) % 11) / 8.0;
}
static double a_field(long i, long size) {
  return 4.0 * field(i) - (i > 0 ? field(i - 1) : 0.0) - (i < size - 1 ? field(i + 1) : 0.0);
}

static int mod(int a, int p) {
  return ((a % p) + p) % p;
}

/* The rank that owns cell (x, y, z) under the diagonal placement. */
static int owner(const int cell[3], int p) {
  return mod(cell[1] - cell[0], p) * p + mod(cell[2] - cell[0], p);
}

typedef struct {
  long e;
  long stride[3];   /* of local x, y, z in a cell's array; a variable is e^3 further */
  const double* cp; /* c' of the elimination at each global index along a line */
} Geometry;

/* The other two axes of axis d, in increasing order. */
static void others(int d, int* o1, int* o2) {
  *o1 = d == 0 ? 1 : 0;
  *o2 = d == 2 ? 1 : 2;
}

/* Forward elimination along axis d over one cell whose slab along d is `slab`; `in` holds the
 * previous cell's last plane of d' (NULL for the first cell), `out` gets this cell's. */
static void eliminate(double* u, const Geometry* g, int d, int slab, const double* in,
                      double* out) {
  int o1, o2;
  others(d, &o1, &o2);
  const long e = g->e, e3 = e * e * e, sd = g->stride[d];
  for (int c = 0; c < kVars; ++c)
    for (long a = 0; a < e; ++a)
      for (long b = 0; b < e; ++b) {
        const long face = (c * e + a) * e + b;
        double* line = u + c * e3 + a * g->stride[o1] + b * g->stride[o2];
        double prev = in ? in[face] : 0.0;
        for (long m = 0; m < e; ++m) {
          const long gi = slab * e + m;
          const double cprev = gi > 0 ? g->cp[gi - 1] : 0.0;
          line[m * sd] = (line[m * sd] + prev) / (4.0 + cprev);
          prev = line[m * sd];
        }
        out[face] = prev;
      }
}

/* Back substitution along axis d over one cell; `in` holds the next cell's first plane of the
 * solution (NULL for the last cell), `out` gets this cell's. */
static void substitute(double* u, const Geometry* g, int d, int slab, const double* in,
                       double* out) {
  int o1, o2;
  others(d, &o1, &o2);
  const long e = g->e, e3 = e * e * e, sd = g->stride[d];
  for (int c = 0; c < kVars; ++c)
    for (long a = 0; a < e; ++a)
      for (long b = 0; b < e; ++b) {
        const long face = (c * e + a) * e + b;
        double* line = u + c * e3 + a * g->stride[o1] + b * g->stride[o2];
        double next = in ? in[face] : 0.0;
        for (long m = e - 1; m >= 0; --m) {
          line[m * sd] -= g->cp[slab * e + m] * next;
          next = line[m * sd];
        }
        out[face] = next;
      }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  long size = 0, steps = 0;
  if (argc > 3 || app_arg_long(argc, argv, 1, 1, 128, 48, &size) != 0 ||
      app_arg_long(argc, argv, 2, 1, 1000000, 10, &steps) != 0)
    return app_usage(rank, kUsage, "bad arguments");
  int p = 1;
  while ((p + 1) * (p + 1) <= n) ++p;
  if (p * p != n || p >= 100)
    return app_usage(rank, kUsage, "n is not a perfect square below 10000");
  if (size % p != 0) return app_usage(rank, kUsage, "size is not a multiple of sqrt(n)");
  const int row = rank / p, col = rank % p;
  const long e = size / p, e3 = e * e * e, face = e * e * kVars;

  double* cp = malloc((size_t)size * sizeof(double));
  double* u = malloc((size_t)(p * kVars * e3) * sizeof(double));
  double* sendbuf = malloc((size_t)face * sizeof(double));
  double* recvbuf = malloc((size_t)face * sizeof(double));
  if (!cp || !u || !sendbuf || !recvbuf) MPI_Abort(MPI_COMM_WORLD, APP_EXIT_FAIL);
  /* c' depends on the position along a line only, the same for every line: each rank computes it
   * instead of receiving it with the faces. */
  for (long i = 0; i < size; ++i) cp[i] = -1.0 / (4.0 + (i > 0 ? cp[i - 1] : 0.0));
  const Geometry geo = {e, {1, e, e * e}, cp};
  int cells[100][3];
  for (int k = 0; k < p; ++k) {
    cells[k][0] = k;
    cells[k][1] = (row + k) % p;
    cells[k][2] = (col + k) % p;
  }

  int ok = 1;
  for (long step = 0; step < steps; ++step) {
    const double scale = (double)(step + 1);
    for (int k = 0; k < p; ++k)
      for (int c = 0; c < kVars; ++c)
        for (long z = 0; z < e; ++z)
          for (long y = 0; y < e; ++y)
            for (long x = 0; x < e; ++x)
              u[(k * kVars + c) * e3 + (z * e + y) * e + x] =
                  scale * (c + 1) * a_field(cells[k][0] * e + x, size) *
                  a_field(cells[k][1] * e + y, size) * a_field(cells[k][2] * e + z, size);
    for (int d = 0; d < 3; ++d) {
      /* The rank's cell in each slab along d. */
      int in_slab[100];
      for (int k = 0; k < p; ++k) in_slab[cells[k][d]] = k;
      MPI_Request send_req = MPI_REQUEST_NULL, recv_req;
      for (int s = 0; s < p; ++s) {
        const int k = in_slab[s];
        int prev[3] = {cells[k][0], cells[k][1], cells[k][2]};
        int next[3] = {cells[k][0], cells[k][1], cells[k][2]};
        --prev[d];
        ++next[d];
        const double* in = NULL;
        if (s > 0) {
          MPI_Irecv(recvbuf, (int)face, MPI_DOUBLE, owner(prev, p), 100 * (2 * d + 1) + s - 1,
                    MPI_COMM_WORLD, &recv_req);
          MPI_Wait(&send_req, MPI_STATUS_IGNORE);
          MPI_Wait(&recv_req, MPI_STATUS_IGNORE);
          in = recvbuf;
        }
        /* The previous stage's send has completed: its buffer takes this stage's face. */
        eliminate(u + k * kVars * e3, &geo, d, s, in, sendbuf);
        APP_COMPUTE_FLOPS(3 * kVars * e3);
        if (s < p - 1) {
          MPI_Isend(sendbuf, (int)face, MPI_DOUBLE, owner(next, p), 100 * (2 * d + 1) + s,
                    MPI_COMM_WORLD, &send_req);
        }
      }
      for (int s = p - 1; s >= 0; --s) {
        const int k = in_slab[s];
        int prev[3] = {cells[k][0], cells[k][1], cells[k][2]};
        int next[3] = {cells[k][0], cells[k][1], cells[k][2]};
        --prev[d];
        ++next[d];
        const double* in = NULL;
        if (s < p - 1) {
          MPI_Irecv(recvbuf, (int)face, MPI_DOUBLE, owner(next, p), 100 * (2 * d + 2) + s + 1,
                    MPI_COMM_WORLD, &recv_req);
          MPI_Wait(&send_req, MPI_STATUS_IGNORE);
          MPI_Wait(&recv_req, MPI_STATUS_IGNORE);
          in = recvbuf;
        }
        substitute(u + k * kVars * e3, &geo, d, s, in, sendbuf);
        APP_COMPUTE_FLOPS(2 * kVars * e3);
        if (s > 0) {
          MPI_Isend(sendbuf, (int)face, MPI_DOUBLE, owner(prev, p), 100 * (2 * d + 2) + s,
                    MPI_COMM_WORLD, &send_req);
        }
      }
    }
    double local[2] = {0.0, 0.0}, global[2] = {0.0, 0.0};
    for (int k = 0; k < p; ++k)
      for (int c = 0; c < kVars; ++c)
        for (long z = 0; z < e; ++z)
          for (long y = 0; y < e; ++y)
            for (long x = 0; x < e; ++x) {
              const double want = scale * (c + 1) * field(cells[k][0] * e + x) *
                                  field(cells[k][1] * e + y) * field(cells[k][2] * e + z);
              const double diff = u[(k * kVars + c) * e3 + (z * e + y) * e + x] - want;
              local[0] += diff * diff;
              local[1] += want * want;
            }
    MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (!(global[0] <= 1e-24 * global[1])) ok = 0;
  }
  free(cp);
  free(u);
  free(sendbuf);
  free(recvbuf);
  return app_finish(rank, ok);
}
