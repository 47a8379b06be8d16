/* app_kba_sweep: a KBA transport sweep (as SNAP's) over a 2D process grid, pipelined in chunks.
 *
 * usage: app_kba_sweep [count [chunks [iterations]]]   (defaults 256, 3 and 20; any n >= 1)
 *
 * Process grid: MPI_Dims_create(n, 2, dims) gives pz = dims[0] rows and py = dims[1] columns;
 * rank r sits at row iz = r / py, column iy = r % py (row-major).
 *
 * Every iteration sweeps the grid from each of its four corners in turn (quadrant q: y
 * descending when q & 1, z descending when q & 2), each sweep in `chunks` pipelined chunks.
 * Per chunk, tag 1 + q * chunks + c:
 *   MPI_Recv `count` doubles from the upstream y neighbour (if any), then from the upstream z
 *   neighbour (if any);
 *   if the rank has a downstream neighbour in this sweep, MPI_Waitall on the two requests of
 *   its previous sends (the chunk before, or an earlier sweep or iteration: null where done);
 *   compute the block;
 *   MPI_Isend the block to the downstream y neighbour (if any), then to the downstream z
 *   neighbour (if any).
 * After the four sweeps: MPI_Allreduce (MPI_SUM) of one double, the iteration's convergence
 * test. After the loop: MPI_Waitall on the last sends, then app_finish's MPI_Reduce.
 *
 * Reproduces: a request posted in one iteration and completed in the next (the last chunk's
 * sends, waited for after the allreduce), and a wait that border ranks skip in some sweeps, so
 * each rank's first completed wait is at another chunk.
 *
 * Verification: the corner block starts each chunk from a value of the element, iteration,
 * sweep and chunk; a block adds kYStep to what came along y and kZStep to what came along z,
 * and averages the two when it has both, so it must hold start + dy * kYStep + dz * kZStep,
 * dy and dz its distance from the sweep's corner.
 */
#include <stdlib.h>
#include <string.h>

#include "app_common.h"

static const char* const kUsage =
    "app_kba_sweep [count 1..1048576 (256)] [chunks 1..1000 (3)] [iterations 1..100000 (20)]";

/* Small integers (and averages of two equal ones), so everything stays exact. */
static double sweep_start(long k, long iteration, int quadrant, int chunk) {
  return (double)(k % 100 + 7 * iteration + 3 * quadrant + chunk);
}
static const double kYStep = 1.0;
static const double kZStep = 1000.0;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, nprocs = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

  long count_arg = 0, chunks_arg = 0, iters_arg = 0;
  if (argc > 4 || app_arg_long(argc, argv, 1, 1, 1048576, 256, &count_arg) != 0 ||
      app_arg_long(argc, argv, 2, 1, 1000, 3, &chunks_arg) != 0 ||
      app_arg_long(argc, argv, 3, 1, 100000, 20, &iters_arg) != 0)
    return app_usage(rank, kUsage, "bad arguments");
  const int count = (int)count_arg;
  const int chunks = (int)chunks_arg;
  const int iters = (int)iters_arg;

  int dims[2] = {0, 0};
  MPI_Dims_create(nprocs, 2, dims);
  const int pz = dims[0], py = dims[1];
  const int iz = rank / py, iy = rank % py;
  const int ylo = iy > 0 ? rank - 1 : -1, yhi = iy < py - 1 ? rank + 1 : -1;
  const int zlo = iz > 0 ? rank - py : -1, zhi = iz < pz - 1 ? rank + py : -1;

  double* from_y = malloc((size_t)count * sizeof(double));
  double* from_z = malloc((size_t)count * sizeof(double));
  double* block = malloc((size_t)count * sizeof(double));
  double* outgoing = malloc((size_t)count * sizeof(double));
  if (!from_y || !from_z || !block || !outgoing) MPI_Abort(MPI_COMM_WORLD, APP_EXIT_FAIL);

  /* One request per direction, kept across chunks, sweeps and iterations: a send is waited for
   * just before `outgoing` is filled again. */
  MPI_Request sends[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  int ok = 1;
  for (int it = 0; it < iters; ++it) {
    for (int q = 0; q < 4; ++q) {
      const int y_descending = q & 1, z_descending = (q >> 1) & 1;
      const int up_y = y_descending ? yhi : ylo, down_y = y_descending ? ylo : yhi;
      const int up_z = z_descending ? zhi : zlo, down_z = z_descending ? zlo : zhi;
      const int dy = y_descending ? py - 1 - iy : iy, dz = z_descending ? pz - 1 - iz : iz;
      for (int c = 0; c < chunks; ++c) {
        const int tag = 1 + q * chunks + c;
        if (up_y >= 0)
          MPI_Recv(from_y, count, MPI_DOUBLE, up_y, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (up_z >= 0)
          MPI_Recv(from_z, count, MPI_DOUBLE, up_z, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (down_y >= 0 || down_z >= 0) MPI_Waitall(2, sends, MPI_STATUSES_IGNORE);

        for (int k = 0; k < count; ++k) {
          const double start = sweep_start(k, it, q, c);
          if (up_y >= 0 && up_z >= 0)
            block[k] = 0.5 * ((from_y[k] + kYStep) + (from_z[k] + kZStep));
          else if (up_y >= 0)
            block[k] = from_y[k] + kYStep;
          else if (up_z >= 0)
            block[k] = from_z[k] + kZStep;
          else
            block[k] = start;
          if (block[k] != start + dy * kYStep + dz * kZStep) ok = 0;
        }
        APP_COMPUTE_FLOPS(64.0 * count); /* declared cost (SMPI builds): a transport cell */

        if (down_y >= 0 || down_z >= 0) memcpy(outgoing, block, (size_t)count * sizeof(double));
        if (down_y >= 0)
          MPI_Isend(outgoing, count, MPI_DOUBLE, down_y, tag, MPI_COMM_WORLD, &sends[0]);
        if (down_z >= 0)
          MPI_Isend(outgoing, count, MPI_DOUBLE, down_z, tag, MPI_COMM_WORLD, &sends[1]);
      }
    }
    double local = ok, global = 0;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (global != nprocs) ok = 0;
  }
  MPI_Waitall(2, sends, MPI_STATUSES_IGNORE);

  free(from_y);
  free(from_z);
  free(block);
  free(outgoing);
  return app_finish(rank, ok);
}
