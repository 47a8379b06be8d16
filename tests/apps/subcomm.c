/* app_subcomm: collectives on row and column sub-communicators of a 2D process grid.
 *
 * usage: app_subcomm [count [iterations]]   (defaults 256 and 50; any n >= 1)
 *
 * Process grid: MPI_Dims_create(n, 2, dims) gives rows = dims[0] and cols = dims[1]
 * (rows >= cols). Rank r sits at row r / cols, column r % cols (row-major).
 * Setup: two MPI_Comm_split calls on MPI_COMM_WORLD, key = world rank in both:
 *   first the row communicator (color = row; cols members; row-rank = column),
 *   then the column communicator (color = column; rows members; column-rank = row).
 * Every iteration, in this order:
 *   MPI_Bcast of `count` doubles in the row communicator from row-rank 0 (world rank row*cols);
 *   MPI_Reduce (MPI_SUM) of `count` doubles in the column communicator to column-rank 0
 *     (world rank = column);
 *   MPI_Alltoall of `count` doubles per destination in the row communicator.
 * After the loop: both communicators are freed (MPI_Comm_free), then one MPI_Reduce (MPI_MIN
 * of an int) of the verdicts to rank 0 of MPI_COMM_WORLD.
 *
 * Verification: every value sent is a small integer computed from who sends it, to whom, which
 * element and which iteration, so each receiver checks what it got (broadcast, reduced sum,
 * each all-to-all block) exactly against what the senders must have sent.
 */
#include <stdlib.h>

#include "app_common.h"

static const char* const kUsage = "app_subcomm [count 1..65536 (256)] [iterations 1..1000000 (50)]";

/* What each collective carries, as functions of the sender (and receiver) only. */
static double bcast_value(long row, long k, long it) {
  return (double)((row * 17 + k * 3 + it) % 1000);
}
static double reduce_value(long world_rank, long k, long it) {
  return (double)((world_rank * 5 + k + it * 7) % 100);
}
static double alltoall_value(long from_col, long to_col, long k, long it) {
  return (double)(from_col * 10000 + to_col * 100 + (k + it) % 100);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, nprocs = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

  long count_arg = 0, iters_arg = 0;
  if (argc > 3 || app_arg_long(argc, argv, 1, 1, 65536, 256, &count_arg) != 0 ||
      app_arg_long(argc, argv, 2, 1, 1000000, 50, &iters_arg) != 0)
    return app_usage(rank, kUsage, "bad arguments");
  const int count = (int)count_arg;
  const int iters = (int)iters_arg;

  int dims[2] = {0, 0};
  MPI_Dims_create(nprocs, 2, dims);
  const int rows = dims[0], cols = dims[1];
  const int row = rank / cols, col = rank % cols;

  MPI_Comm row_comm, col_comm;
  MPI_Comm_split(MPI_COMM_WORLD, row, rank, &row_comm);
  MPI_Comm_split(MPI_COMM_WORLD, col, rank, &col_comm);

  double* bcast_buf = malloc((size_t)count * sizeof(double));
  double* reduce_in = malloc((size_t)count * sizeof(double));
  double* reduce_out = malloc((size_t)count * sizeof(double));
  double* a2a_out = malloc((size_t)cols * count * sizeof(double));
  double* a2a_in = malloc((size_t)cols * count * sizeof(double));
  if (!bcast_buf || !reduce_in || !reduce_out || !a2a_out || !a2a_in)
    MPI_Abort(MPI_COMM_WORLD, APP_EXIT_FAIL);

  int ok = 1;
  for (int it = 0; it < iters; ++it) {
    /* Row broadcast from the first column. */
    if (col == 0)
      for (int k = 0; k < count; ++k) bcast_buf[k] = bcast_value(row, k, it);
    MPI_Bcast(bcast_buf, count, MPI_DOUBLE, 0, row_comm);
    for (int k = 0; k < count; ++k)
      if (bcast_buf[k] != bcast_value(row, k, it)) ok = 0;

    /* Column reduction to the first row. */
    for (int k = 0; k < count; ++k) reduce_in[k] = reduce_value(rank, k, it);
    MPI_Reduce(reduce_in, reduce_out, count, MPI_DOUBLE, MPI_SUM, 0, col_comm);
    if (row == 0)
      for (int k = 0; k < count; ++k) {
        double expected = 0.0;
        for (int r = 0; r < rows; ++r) expected += reduce_value((long)r * cols + col, k, it);
        if (reduce_out[k] != expected) ok = 0;
      }

    /* Row all-to-all: block d goes to the rank in column d of this row. */
    for (int d = 0; d < cols; ++d)
      for (int k = 0; k < count; ++k)
        a2a_out[(size_t)d * count + k] = alltoall_value(col, d, k, it);
    MPI_Alltoall(a2a_out, count, MPI_DOUBLE, a2a_in, count, MPI_DOUBLE, row_comm);
    for (int s = 0; s < cols; ++s)
      for (int k = 0; k < count; ++k)
        if (a2a_in[(size_t)s * count + k] != alltoall_value(s, col, k, it)) ok = 0;
  }

  free(bcast_buf);
  free(reduce_in);
  free(reduce_out);
  free(a2a_out);
  free(a2a_in);
  MPI_Comm_free(&row_comm);
  MPI_Comm_free(&col_comm);
  return app_finish(rank, ok);
}
