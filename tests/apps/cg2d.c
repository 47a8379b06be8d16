/* app_cg2d: a conjugate-gradient solver on a 2D process grid that is square or twice as wide
 * as tall, with the matrix-vector product's row reduction, its transpose and the dot products
 * made of pairwise exchanges, as the NAS CG benchmark makes them (written from that description).
 *
 * usage: app_cg2d [na [iterations]]   (defaults 4096 and 25; n = 2^k, 1 included; na >= 4 a
 *        multiple of npcols)
 *
 * Grid: nprows = 2^floor(k/2), npcols = n / nprows (npcols = nprows, or 2 nprows when k is odd);
 * rank r sits at row r / npcols, column r % npcols. The na x na matrix is cut into nprows x
 * npcols blocks (strong scaling); rank (row, col) holds block (row, col) and the segment of
 * every vector for column block col (na / npcols values, the same on every rank of a column).
 * Row partners, step i = 0 .. log2(npcols)-1: row * npcols + (col XOR 2^i).
 * Transpose partner: on a square grid (row, col) <-> (col, row); on a 2:1 grid, writing
 * col = 2c + h, (row, 2c + h) <-> (c, 2 row + h). Both are involutions; a rank that is its own
 * partner (row == col, or row == c) skips the exchange and copies.
 * Every iteration, in this order:
 *   the local block times p: na / nprows values, the rank's share of its row block of A p;
 *   row reduction, for i = 0 .. log2(npcols)-1: MPI_Irecv from row partner i (tag i + 1),
 *     MPI_Send to it (tag i + 1), MPI_Wait; na / nprows doubles, added;
 *   transpose, unless the partner is the rank itself: MPI_Irecv from the partner (tag 100),
 *     MPI_Send to it (tag 100), MPI_Wait; na / npcols doubles: the part of the row block that is
 *     the partner's column block (all of it on a square grid, half h on a 2:1 grid);
 *   dot product p.q: local, then the row reduction above on 1 double;
 *   dot product r.r: the same;
 * and nothing else (no allreduce: the row reductions give every rank the whole dot product).
 * After the loop: app_finish's MPI_Reduce.
 *
 * Reproduces: three loops of log2(npcols) pairwise exchanges per iteration whose partners are
 * bits of the rank, and a transpose whose partner formula differs between square and 2:1 grids;
 * n = 2 and n = 8 are 2:1, n = 1, 4, 16 and 64 square.
 * Verification: the matrix is 5 on the diagonal and -1 at i +- 1 and i + na/2 (mod na), with
 * eigenvalues in [2, 8]; b = A x* for a known x*, and CG's error bound for that condition
 * number, ||x_k - x*|| <= 4 (1/3)^k ||x*||, must hold on every rank's segment at the end.
 */
#include <math.h>
#include <stdlib.h>

#include "app_common.h"

static const char* const kUsage =
    "app_cg2d [na 4..16777216 (4096), a multiple of npcols] [iterations 1..1000000 (25)]; "
    "n must be a power of two";

static double x_star(long i) {
  return 1.0 + (double)((i * 13) % 7) / 4.0;
}

/* The column indices and values of row i of A; returns how many. */
static int matrix_row(long i, long na, long cols[4], double vals[4]) {
  int k = 0;
  cols[k] = i;
  vals[k++] = 5.0;
  if (i > 0) {
    cols[k] = i - 1;
    vals[k++] = -1.0;
  }
  if (i < na - 1) {
    cols[k] = i + 1;
    vals[k++] = -1.0;
  }
  cols[k] = (i + na / 2) % na;
  vals[k++] = -1.0;
  return k;
}

/* Recursive doubling along the row: `data` (count doubles) ends as the sum over the row. */
static void reduce_row(double* data, double* incoming, int count, int row, int col, int npcols) {
  for (int i = 0; (1 << i) < npcols; ++i) {
    const int partner = row * npcols + (col ^ (1 << i));
    MPI_Request request;
    MPI_Irecv(incoming, count, MPI_DOUBLE, partner, i + 1, MPI_COMM_WORLD, &request);
    MPI_Send(data, count, MPI_DOUBLE, partner, i + 1, MPI_COMM_WORLD);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    for (int k = 0; k < count; ++k) data[k] += incoming[k];
    APP_COMPUTE_FLOPS(count);
  }
}

static double dot(const double* a, const double* b, long count) {
  double sum = 0.0;
  for (long i = 0; i < count; ++i) sum += a[i] * b[i];
  return sum;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  long na = 0, iters = 0;
  if (argc > 3 || app_arg_long(argc, argv, 1, 4, 16777216, 4096, &na) != 0 ||
      app_arg_long(argc, argv, 2, 1, 1000000, 25, &iters) != 0)
    return app_usage(rank, kUsage, "bad arguments");
  if ((n & (n - 1)) != 0) return app_usage(rank, kUsage, "n is not a power of two");
  int k = 0;
  while ((1 << k) < n) ++k;
  const int nprows = 1 << (k / 2), npcols = n / nprows;
  if (na % npcols != 0) return app_usage(rank, kUsage, "na is not a multiple of npcols");
  const int row = rank / npcols, col = rank % npcols;
  int partner = 0;
  long half = 0; /* where, in the row block, the partner's column block starts */
  if (npcols == nprows) {
    partner = col * npcols + row;
  } else {
    const int c = col / 2, h = col % 2;
    partner = c * npcols + 2 * row + h;
    half = h;
  }
  const long seg = na / npcols, rows_len = na / nprows;
  const long col_start = col * seg, row_start = row * rows_len;

  double* x = calloc((size_t)seg, sizeof(double));
  double* r = malloc((size_t)seg * sizeof(double));
  double* p = malloc((size_t)seg * sizeof(double));
  double* q = malloc((size_t)seg * sizeof(double));
  double* w = malloc((size_t)rows_len * sizeof(double));
  double* incoming = malloc((size_t)rows_len * sizeof(double));
  if (!x || !r || !p || !q || !w || !incoming) MPI_Abort(MPI_COMM_WORLD, APP_EXIT_FAIL);
  long cols[4];
  double vals[4];
  /* b = A x* is known everywhere, so every rank computes r.r over the whole vector itself and
   * the first exchange is the loop's. */
  double rho = 0.0, xnorm = 0.0;
  for (long i = 0; i < na; ++i) {
    double b = 0.0;
    const int nz = matrix_row(i, na, cols, vals);
    for (int j = 0; j < nz; ++j) b += vals[j] * x_star(cols[j]);
    rho += b * b;
    xnorm += x_star(i) * x_star(i);
    if (i >= col_start && i < col_start + seg) r[i - col_start] = p[i - col_start] = b;
  }
  xnorm = sqrt(xnorm);

  for (long it = 0; it < iters; ++it) {
    for (long i = 0; i < rows_len; ++i) {
      double sum = 0.0;
      const int nz = matrix_row(row_start + i, na, cols, vals);
      for (int j = 0; j < nz; ++j)
        if (cols[j] >= col_start && cols[j] < col_start + seg)
          sum += vals[j] * p[cols[j] - col_start];
      w[i] = sum;
    }
    APP_COMPUTE_FLOPS(8 * rows_len);
    reduce_row(w, incoming, (int)rows_len, row, col, npcols);
    if (partner != rank) {
      MPI_Request request;
      MPI_Irecv(q, (int)seg, MPI_DOUBLE, partner, 100, MPI_COMM_WORLD, &request);
      MPI_Send(w + half * seg, (int)seg, MPI_DOUBLE, partner, 100, MPI_COMM_WORLD);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
    } else {
      for (long i = 0; i < seg; ++i) q[i] = w[half * seg + i];
    }
    double pq = dot(p, q, seg), pq_in = 0.0;
    reduce_row(&pq, &pq_in, 1, row, col, npcols);
    const double alpha = pq != 0.0 ? rho / pq : 0.0;
    for (long i = 0; i < seg; ++i) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    double rr = dot(r, r, seg), rr_in = 0.0;
    reduce_row(&rr, &rr_in, 1, row, col, npcols);
    const double beta = rho != 0.0 ? rr / rho : 0.0;
    for (long i = 0; i < seg; ++i) p[i] = r[i] + beta * p[i];
    APP_COMPUTE_FLOPS(10 * seg);
    rho = rr;
  }

  double error = 0.0;
  for (long i = 0; i < seg; ++i) error = fmax(error, fabs(x[i] - x_star(col_start + i)));
  const int ok = error <= (4.0 * pow(1.0 / 3.0, (double)iters) + 1e-10) * xnorm;
  free(x);
  free(r);
  free(p);
  free(q);
  free(w);
  free(incoming);
  return app_finish(rank, ok);
}
