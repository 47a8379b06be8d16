/* app_mgrid: multigrid V-cycles on a periodic cube, on a 3D process grid the application builds
 * from thirds of log2(n), with coarse levels where fewer ranks than planes hold points and the
 * others go idle (as NAS MG's coarse grids do; written from that description).
 *
 * usage: app_mgrid [size [cycles]]   (defaults 32 and 10; n = 2^k, 1 included; size = 2^L a
 *        power of two, 4 <= size <= 128, at least twice the grid's largest extent)
 *
 * Grid: px = 2^floor(k/3), py = 2^ceil((k-1)/3), pz = 2^ceil(k/3) (n = 2: 1x1x2, 4: 1x2x2,
 * 8: 2x2x2, 16: 2x2x4, 64: 4x4x4); rank r = x + px (y + py z). The global grid is size^3 points
 * (strong scaling), periodic. Levels l = 0 (finest) .. L-1 have size / 2^l points per dimension.
 * Along a dimension of extent q the rank holds size / (q 2^l) consecutive points when that is at
 * least 1; below 1, only ranks whose coordinate is a multiple of m = q 2^l / size hold one point
 * (point coordinate / m) and the others are idle at that level. A rank is active at a level
 * when it holds points in all three dimensions; its neighbours along a dimension are the next
 * active ranks, m (or 1) coordinates away either way, periodic.
 * A halo exchange at level l, made by the ranks active there only: for d = x, y, z in order,
 *   when q > 1: MPI_Irecv from the lower neighbour (tag 2d), MPI_Irecv from the upper one
 *   (tag 2d + 1), MPI_Send the upper face to the upper neighbour (tag 2d), MPI_Send the lower
 *   face to the lower one (tag 2d + 1), MPI_Waitall on the two receives; a face is the product of
 *   the rank's point counts in the other two dimensions, in doubles; when q = 1 the rank is its
 *   own neighbour and copies its faces across, without MPI.
 * Every cycle, in this order:
 *   going down, for l = 0 .. L-2: a halo exchange at l, then the restriction to l + 1;
 *   at the coarsest level L-1: two smoothing steps, each a halo exchange and a Jacobi sweep;
 *   going up, for l = L-2 .. 0: the prolongation from l + 1, then a halo exchange at l (a rank
 *     idle at l + 1 takes, after the exchange along each dimension where its parent point lies
 *     below it, its lower ghost plane as its values);
 *   MPI_Allreduce of 1 double (MPI_SUM): the squared residual on the finest level.
 * After the loop: app_finish's MPI_Reduce.
 *
 * Reproduces: a number of levels that grows with the problem, exchanges whose faces shrink by 4
 * per level, neighbours 2^m ranks away and idle ranks on the coarse levels once a dimension has
 * fewer planes than ranks, on a grid whose shape the application derives from log2(n).
 * Verification: cycle c starts from (c + 1) cos(2 pi x / size) cos(2 pi y / size)
 * cos(2 pi z / size). The 7-point restriction maps a cosine to a cosine of the coarser level
 * times (1 + cos theta) / 2, the smoothing multiplies the coarsest one by (3 + cos pi) / 4, and
 * the piecewise-constant prolongation copies each coarse point to its 8 fine points; each rank
 * checks every point it holds after each of these against that closed form, and the reduced
 * residual against the closed form summed over the whole grid.
 */
#include <math.h>
#include <stdlib.h>

#include "app_common.h"

static const char* const kUsage =
    "app_mgrid [size 4..128 (32), a power of two >= 2 x the grid's largest extent] "
    "[cycles 1..1000000 (10)]; n must be a power of two";

enum { kLevels = 8, kSmoothing = 2 };

static const double kPi = 3.14159265358979323846;

/* What a rank holds at one level. */
typedef struct {
  int active;
  int ext[3];   /* points per dimension */
  int first[3]; /* global index of the first one */
  int lower[3], upper[3];
  int pending[3]; /* its values along d come from its lower neighbour after the prolongation */
  double* u;      /* (ext + 2)^3 with one ghost layer each side */
} Level;

typedef struct {
  int dims[3], coord[3];
  long size;
  int levels;
} Grid;

static int at(const Level* lv, int i, int j, int k) {
  return ((k + 1) * (lv->ext[1] + 2) + (j + 1)) * (lv->ext[0] + 2) + (i + 1);
}

static int rank_of(const Grid* g, const int c[3]) {
  return c[0] + g->dims[0] * (c[1] + g->dims[1] * c[2]);
}

static void lay_out(const Grid* g, int l, Level* lv) {
  const long points = g->size >> l;
  lv->active = 1;
  int stride[3];
  for (int d = 0; d < 3; ++d) {
    const int q = g->dims[d];
    if (points >= q) {
      stride[d] = 1;
      lv->ext[d] = (int)(points / q);
      lv->first[d] = g->coord[d] * lv->ext[d];
    } else {
      stride[d] = (int)(q / points);
      lv->ext[d] = 1;
      lv->first[d] = g->coord[d] / stride[d];
      if (g->coord[d] % stride[d] != 0) lv->active = 0;
    }
  }
  for (int d = 0; d < 3; ++d) {
    int lo[3] = {g->coord[0], g->coord[1], g->coord[2]};
    int up[3] = {g->coord[0], g->coord[1], g->coord[2]};
    lo[d] = (lo[d] - stride[d] + g->dims[d]) % g->dims[d];
    up[d] = (up[d] + stride[d]) % g->dims[d];
    lv->lower[d] = rank_of(g, lo);
    lv->upper[d] = rank_of(g, up);
    /* One point here, and at the next level only every other active rank keeps one: an odd one
     * gets its prolonged value from the even one below it. */
    lv->pending[d] = lv->ext[d] == 1 && (points >> 1) < g->dims[d] && lv->first[d] % 2 == 1;
  }
  lv->u = NULL;
  if (lv->active) {
    const size_t cells = (size_t)(lv->ext[0] + 2) * (lv->ext[1] + 2) * (lv->ext[2] + 2);
    lv->u = calloc(cells, sizeof(double));
    if (!lv->u) MPI_Abort(MPI_COMM_WORLD, APP_EXIT_FAIL);
  }
}

/* The face of `lv` at plane `plane` (-1 .. ext) across dimension d, to or from `buf`. */
static long face(Level* lv, int d, int plane, double* buf, int unpack) {
  const int a = d == 0 ? 1 : 0, b = d == 2 ? 1 : 2;
  long m = 0;
  for (int jb = 0; jb < lv->ext[b]; ++jb)
    for (int ja = 0; ja < lv->ext[a]; ++ja) {
      int idx[3];
      idx[d] = plane;
      idx[a] = ja;
      idx[b] = jb;
      double* cell = &lv->u[at(lv, idx[0], idx[1], idx[2])];
      if (unpack)
        *cell = buf[m++];
      else
        buf[m++] = *cell;
    }
  return m;
}

/* The halo exchange at one level; with `prolonged`, the pending planes take their lower ghost. */
static void halo(Level* lv, const Grid* g, double* out, double* in, long max_face, int prolonged) {
  for (int d = 0; d < 3; ++d) {
    const int top = lv->ext[d] - 1;
    if (g->dims[d] > 1) {
      MPI_Request req[2];
      const long count = face(lv, d, top, out, 0);
      face(lv, d, 0, out + max_face, 0);
      MPI_Irecv(in, (int)count, MPI_DOUBLE, lv->lower[d], 2 * d, MPI_COMM_WORLD, &req[0]);
      MPI_Irecv(in + max_face, (int)count, MPI_DOUBLE, lv->upper[d], 2 * d + 1, MPI_COMM_WORLD,
                &req[1]);
      MPI_Send(out, (int)count, MPI_DOUBLE, lv->upper[d], 2 * d, MPI_COMM_WORLD);
      MPI_Send(out + max_face, (int)count, MPI_DOUBLE, lv->lower[d], 2 * d + 1, MPI_COMM_WORLD);
      MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    } else {
      /* Periodic onto itself. */
      face(lv, d, top, in, 0);
      face(lv, d, 0, in + max_face, 0);
    }
    face(lv, d, -1, in, 1);
    face(lv, d, top + 1, in + max_face, 1);
    if (prolonged && lv->pending[d]) face(lv, d, 0, in, 1);
  }
}

/* The 7-point sum of the six neighbours of (i, j, k). */
static double neighbours(const Level* lv, int i, int j, int k) {
  return lv->u[at(lv, i - 1, j, k)] + lv->u[at(lv, i + 1, j, k)] + lv->u[at(lv, i, j - 1, k)] +
         lv->u[at(lv, i, j + 1, k)] + lv->u[at(lv, i, j, k - 1)] + lv->u[at(lv, i, j, k + 1)];
}

/* The closed forms: the cosine at level l with amplitude amp, and the prolonged coarsest one. */
static double cosine(int l, const Grid* g, long x, long y, long z, double amp) {
  const double theta = 2.0 * kPi / (double)(g->size >> l);
  return amp * cos(theta * x) * cos(theta * y) * cos(theta * z);
}
static double prolonged(int l, const Grid* g, long x, long y, long z, double amp) {
  const int shift = g->levels - 1 - l;
  return cosine(g->levels - 1, g, x >> shift, y >> shift, z >> shift, amp);
}

/* Whether every point of an active level matches f(l, x, y, z, amp). */
static int matches(const Level* lv, int l, const Grid* g, double amp,
                   double (*f)(int, const Grid*, long, long, long, double)) {
  int ok = 1;
  for (int k = 0; k < lv->ext[2]; ++k)
    for (int j = 0; j < lv->ext[1]; ++j)
      for (int i = 0; i < lv->ext[0]; ++i) {
        const double want = f(l, g, lv->first[0] + i, lv->first[1] + j, lv->first[2] + k, amp);
        if (fabs(lv->u[at(lv, i, j, k)] - want) > 1e-12 * (fabs(amp) + 1.0)) ok = 0;
      }
  return ok;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  long size = 0, cycles = 0;
  if (argc > 3 || app_arg_long(argc, argv, 1, 4, 128, 32, &size) != 0 ||
      app_arg_long(argc, argv, 2, 1, 1000000, 10, &cycles) != 0)
    return app_usage(rank, kUsage, "bad arguments");
  if ((n & (n - 1)) != 0) return app_usage(rank, kUsage, "n is not a power of two");
  if ((size & (size - 1)) != 0) return app_usage(rank, kUsage, "size is not a power of two");
  int k = 0;
  while ((1 << k) < n) ++k;
  Grid g;
  g.dims[0] = 1 << (k / 3);
  g.dims[1] = 1 << ((k + 1) / 3); /* ceil((k - 1) / 3) */
  g.dims[2] = 1 << ((k + 2) / 3); /* ceil(k / 3) */
  if (size < 2L * g.dims[2]) return app_usage(rank, kUsage, "size is below 2 x the grid extent");
  g.coord[0] = rank % g.dims[0];
  g.coord[1] = rank / g.dims[0] % g.dims[1];
  g.coord[2] = rank / (g.dims[0] * g.dims[1]);
  g.size = size;
  g.levels = 0;
  while ((1L << g.levels) < size) ++g.levels;

  Level lv[kLevels];
  for (int l = 0; l < g.levels; ++l) lay_out(&g, l, &lv[l]);
  long max_face = 0; /* the finest level's largest face: levels only shrink */
  for (int d = 0; d < 3; ++d) {
    const long f = (long)lv[0].ext[0] * lv[0].ext[1] * lv[0].ext[2] / lv[0].ext[d];
    if (f > max_face) max_face = f;
  }
  double* out = malloc((size_t)(2 * max_face) * sizeof(double));
  double* in = malloc((size_t)(2 * max_face) * sizeof(double));
  const Level* top = &lv[g.levels - 1];
  double* smooth = malloc((size_t)(top->ext[0] * top->ext[1] * top->ext[2]) * sizeof(double));
  if (!out || !in || !smooth) MPI_Abort(MPI_COMM_WORLD, APP_EXIT_FAIL);

  /* The amplitudes the closed forms give at each level, and the squared residual of the whole
   * finest grid for cycle 0 (cycle c's is (c + 1)^2 times it). */
  double amp[kLevels];
  amp[0] = 1.0;
  for (int l = 0; l + 1 < g.levels; ++l)
    amp[l + 1] = amp[l] * (1.0 + cos(2.0 * kPi / (double)(size >> l))) / 2.0;
  double coarse_amp = amp[g.levels - 1];
  const double coarse_factor = (3.0 + cos(2.0 * kPi / (double)(size >> (g.levels - 1)))) / 4.0;
  for (int s = 0; s < kSmoothing; ++s) coarse_amp *= coarse_factor;
  /* The finest level ends as +-coarse_amp on blocks of size / 2 per dimension; the residual,
   * (sum of the 6 neighbours - 6 u) / 24, is -u b / 12 where b counts the dimensions in which
   * the point is one of the 4 planes next to a sign change (size / 2 - 1, size / 2, size - 1,
   * 0): summed over the grid, b^2 gives 3 * 4 size^2 + 6 * 16 size. */
  const double expected_residual =
      coarse_amp * coarse_amp * (12.0 * (double)(size * size) + 96.0 * (double)size) / 144.0;

  int ok = 1;
  for (long cycle = 0; cycle < cycles; ++cycle) {
    const double scale = (double)(cycle + 1);
    Level* fine = &lv[0];
    for (int kk = 0; kk < fine->ext[2]; ++kk)
      for (int j = 0; j < fine->ext[1]; ++j)
        for (int i = 0; i < fine->ext[0]; ++i)
          fine->u[at(fine, i, j, kk)] =
              cosine(0, &g, fine->first[0] + i, fine->first[1] + j, fine->first[2] + kk, scale);
    for (int l = 0; l + 1 < g.levels; ++l) {
      Level* f = &lv[l];
      Level* c = &lv[l + 1];
      if (f->active) halo(f, &g, out, in, max_face, 0);
      if (!c->active) continue;
      for (int kk = 0; kk < c->ext[2]; ++kk)
        for (int j = 0; j < c->ext[1]; ++j)
          for (int i = 0; i < c->ext[0]; ++i) {
            const int fi = 2 * (c->first[0] + i) - f->first[0];
            const int fj = 2 * (c->first[1] + j) - f->first[1];
            const int fk = 2 * (c->first[2] + kk) - f->first[2];
            c->u[at(c, i, j, kk)] =
                0.5 * f->u[at(f, fi, fj, fk)] + neighbours(f, fi, fj, fk) / 12.0;
          }
      APP_COMPUTE_FLOPS(8 * c->ext[0] * c->ext[1] * c->ext[2]);
      ok &= matches(c, l + 1, &g, scale * amp[l + 1], cosine);
    }
    Level* coarsest = &lv[g.levels - 1];
    if (coarsest->active) {
      for (int s = 0; s < kSmoothing; ++s) {
        halo(coarsest, &g, out, in, max_face, 0);
        long m = 0;
        for (int kk = 0; kk < coarsest->ext[2]; ++kk)
          for (int j = 0; j < coarsest->ext[1]; ++j)
            for (int i = 0; i < coarsest->ext[0]; ++i, ++m) {
              const double v = coarsest->u[at(coarsest, i, j, kk)];
              smooth[m] = v + (neighbours(coarsest, i, j, kk) - 6.0 * v) / 24.0;
            }
        m = 0;
        for (int kk = 0; kk < coarsest->ext[2]; ++kk)
          for (int j = 0; j < coarsest->ext[1]; ++j)
            for (int i = 0; i < coarsest->ext[0]; ++i)
              coarsest->u[at(coarsest, i, j, kk)] = smooth[m++];
      }
      ok &= matches(coarsest, g.levels - 1, &g, scale * coarse_amp, prolonged);
    }
    for (int l = g.levels - 2; l >= 0; --l) {
      Level* f = &lv[l];
      const Level* c = &lv[l + 1];
      if (!f->active) continue;
      for (int kk = 0; kk < f->ext[2]; ++kk)
        for (int j = 0; j < f->ext[1]; ++j)
          for (int i = 0; i < f->ext[0]; ++i)
            f->u[at(f, i, j, kk)] = c->active ? c->u[at(c, (f->first[0] + i) / 2 - c->first[0],
                                                        (f->first[1] + j) / 2 - c->first[1],
                                                        (f->first[2] + kk) / 2 - c->first[2])]
                                              : 0.0;
      halo(f, &g, out, in, max_face, 1);
      ok &= matches(f, l, &g, scale * coarse_amp, prolonged);
    }
    double residual = 0.0, total = 0.0;
    for (int kk = 0; kk < fine->ext[2]; ++kk)
      for (int j = 0; j < fine->ext[1]; ++j)
        for (int i = 0; i < fine->ext[0]; ++i) {
          const double res =
              (neighbours(fine, i, j, kk) - 6.0 * fine->u[at(fine, i, j, kk)]) / 24.0;
          residual += res * res;
        }
    MPI_Allreduce(&residual, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    const double want = scale * scale * expected_residual;
    if (!(fabs(total - want) <= 1e-9 * want)) ok = 0;
  }
  for (int l = 0; l < g.levels; ++l) free(lv[l].u);
  free(out);
  free(in);
  free(smooth);
  return app_finish(rank, ok);
}
