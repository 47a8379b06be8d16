/* app_torus3d: a 3D diffusion on a PERIODIC grid of ranks the application lays out itself, with
 * one MPI_Sendrecv per direction and face.
 *
 * usage: app_torus3d [edge [iterations]]   (defaults 16 and 30; any n >= 1)
 *
 * Grid px x py x pz: of the factorisations of n into three, the one with the least surface
 * (px py + py pz + px pz), ties to the smaller px then py, listed in ascending order
 * (px <= py <= pz; n = 12 gives 2 x 2 x 3, n = 18 2 x 3 x 3, n = 108 3 x 6 x 6). x is the
 * fastest coordinate: rank r sits at (r % px, (r / px) % py, r / (px py)). This is not
 * MPI_Dims_create's layout (descending extents, the last coordinate fastest). Every dimension
 * wraps around, so a dimension of extent 1 makes a rank its own neighbour and one of extent 2
 * puts the same rank on both sides. Each rank owns edge^3 cells (weak scaling).
 * Every iteration, for each dimension in x, y, z order:
 *   MPI_Sendrecv: the upper face (edge^2 doubles) to the upper neighbour, the lower ghost face
 *     from the lower one (tag 2d);
 *   MPI_Sendrecv: the lower face to the lower neighbour, the upper ghost face from the upper
 *     one (tag 2d + 1);
 * then the diffusion step, then MPI_Allreduce of 1 double (MPI_SUM): the squared change.
 * After the loop: MPI_Allreduce of 1 double (MPI_SUM), the global total; app_finish's
 * MPI_Reduce.
 *
 * Reproduces: a periodic decomposition whose small grids are 1 or 2 wide in some dimension
 * (where the side a message goes to cannot be seen), on a layout the application chooses.
 * Verification: diffusion on a periodic domain conserves the global total.
 */
#include <math.h>
#include <stdlib.h>

#include "app_common.h"

static const char* const kUsage = "app_torus3d [edge 1..128 (16)] [iterations 1..1000000 (30)]";

static void grid_of(int n, int dims[3]) {
  long best = -1;
  for (int a = 1; a <= n; ++a) {
    if (n % a != 0) continue;
    for (int b = a; b <= n / a; ++b) {
      if ((n / a) % b != 0) continue;
      const int c = n / a / b;
      if (c < b) continue;
      const long surface = (long)a * b + (long)b * c + (long)a * c;
      if (best < 0 || surface < best) {
        best = surface;
        dims[0] = a;
        dims[1] = b;
        dims[2] = c;
      }
    }
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  long edge = 0, iters = 0;
  if (argc > 3 || app_arg_long(argc, argv, 1, 1, 128, 16, &edge) != 0 ||
      app_arg_long(argc, argv, 2, 1, 1000000, 30, &iters) != 0)
    return app_usage(rank, kUsage, "bad arguments");
  int dims[3];
  grid_of(n, dims);
  const int c[3] = {rank % dims[0], (rank / dims[0]) % dims[1], rank / (dims[0] * dims[1])};
  int lower[3], upper[3];
  for (int d = 0; d < 3; ++d) {
    int lo[3] = {c[0], c[1], c[2]}, up[3] = {c[0], c[1], c[2]};
    lo[d] = (c[d] + dims[d] - 1) % dims[d];
    up[d] = (c[d] + 1) % dims[d];
    lower[d] = lo[0] + dims[0] * (lo[1] + dims[1] * lo[2]);
    upper[d] = up[0] + dims[0] * (up[1] + dims[1] * up[2]);
  }

  const long w = edge + 2, face = edge * edge;
  double* u = calloc((size_t)(w * w * w), sizeof(double));
  double* next = calloc((size_t)(w * w * w), sizeof(double));
  double* out = malloc((size_t)(2 * face) * sizeof(double));
  double* in = malloc((size_t)(2 * face) * sizeof(double));
  if (!u || !next || !out || !in) MPI_Abort(MPI_COMM_WORLD, APP_EXIT_FAIL);
#define AT(a, x, y, z) ((a)[((size_t)(z)*w + (size_t)(y)) * w + (size_t)(x)])
  double initial = 0.0;
  for (long z = 1; z <= edge; ++z)
    for (long y = 1; y <= edge; ++y)
      for (long x = 1; x <= edge; ++x) {
        AT(u, x, y, z) = (double)((x * 3 + y * 5 + z * 7 + rank) % 17);
        initial += AT(u, x, y, z);
      }

  for (long it = 0; it < iters; ++it) {
    for (int d = 0; d < 3; ++d) {
      /* Face `side` (0 lower, 1 upper) of dimension d: layer 1 or edge; ghosts 0 and edge+1. */
      for (int side = 0; side < 2; ++side) {
        const long layer = side == 0 ? 1 : edge;
        long m = 0;
        for (long a = 1; a <= edge; ++a)
          for (long b = 1; b <= edge; ++b) {
            const long x = d == 0 ? layer : a, y = d == 1 ? layer : (d == 0 ? a : b),
                       z = d == 2 ? layer : b;
            out[side * face + m++] = AT(u, x, y, z);
          }
      }
      MPI_Sendrecv(out + face, (int)face, MPI_DOUBLE, upper[d], 2 * d, in, (int)face, MPI_DOUBLE,
                   lower[d], 2 * d, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Sendrecv(out, (int)face, MPI_DOUBLE, lower[d], 2 * d + 1, in + face, (int)face,
                   MPI_DOUBLE, upper[d], 2 * d + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (int side = 0; side < 2; ++side) {
        const long ghost = side == 0 ? 0 : edge + 1;
        long m = 0;
        for (long a = 1; a <= edge; ++a)
          for (long b = 1; b <= edge; ++b) {
            const long x = d == 0 ? ghost : a, y = d == 1 ? ghost : (d == 0 ? a : b),
                       z = d == 2 ? ghost : b;
            AT(u, x, y, z) = in[side * face + m++];
          }
      }
    }
    double change = 0.0;
    for (long z = 1; z <= edge; ++z)
      for (long y = 1; y <= edge; ++y)
        for (long x = 1; x <= edge; ++x) {
          const double v = AT(u, x, y, z);
          const double flow = AT(u, x - 1, y, z) + AT(u, x + 1, y, z) + AT(u, x, y - 1, z) +
                              AT(u, x, y + 1, z) + AT(u, x, y, z - 1) + AT(u, x, y, z + 1) - 6 * v;
          AT(next, x, y, z) = v + 0.1 * flow;
          change += 0.01 * flow * flow;
        }
    APP_COMPUTE_FLOPS(10 * edge * edge * edge);
    double* t = u;
    u = next;
    next = t;
    double total_change = 0.0;
    MPI_Allreduce(&change, &total_change, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  double local = 0.0;
  for (long z = 1; z <= edge; ++z)
    for (long y = 1; y <= edge; ++y)
      for (long x = 1; x <= edge; ++x) local += AT(u, x, y, z);
  double sums[2] = {initial, local}, global[2] = {0.0, 0.0};
  MPI_Allreduce(sums, global, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  const int ok = fabs(global[0] - global[1]) <= 1e-9 * (fabs(global[0]) + 1.0);
  free(u);
  free(next);
  free(out);
  free(in);
  return app_finish(rank, ok);
}
