/* app_swaps3d: ghost swaps as molecular-dynamics codes make them (LAMMPS's CommBrick), on a
 * PERIODIC MPI_Dims_create(n, 3) grid (MPI_Cart_create, row-major).
 *
 * usage: app_swaps3d [edge [iterations]]   (defaults 16, 40; n >= 1)
 *
 * Every iteration k:
 *   forward: for dimension d = 0, 1, 2 and side s = -1, then +1: MPI_Irecv from the neighbour
 *     on side -s, MPI_Send to the neighbour on side s, MPI_Wait (tag 0; edge^2 + d doubles:
 *     the block's face, and a double more per dimension already swapped, as ghosts of ghosts
 *     make a code's later swaps larger);
 *   a step over the edge^3 block;
 *   reverse: the same six swaps in reverse order, each sending to side -s and receiving from
 *     side s (tag 1, the same sizes).
 * Then app_finish's MPI_Reduce.
 *
 * Reproduces: swaps one at a time, a receive from one side and a send to the other; in a
 * dimension of extent 2 both sides are one rank, so training grids 2 x 2 x 2, 3 x 2 x 2 and
 * 4 x 2 x 2 never show which side a swap's send goes to, while 4 x 4 x 4 does.
 * Verification: every face received holds its sender's rank and swap number.
 */
#include <stdlib.h>

#include "app_common.h"

static const char* const kUsage = "app_swaps3d [edge 1..256 (16)] [iterations 1..1000000 (40)]";

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  long edge = 0, iterations = 0;
  if (argc > 3 || app_arg_long(argc, argv, 1, 1, 256, 16, &edge) != 0 ||
      app_arg_long(argc, argv, 2, 1, 1000000, 40, &iterations) != 0)
    return app_usage(rank, kUsage, "bad arguments");
  int dims[3] = {0, 0, 0}, periods[3] = {1, 1, 1};
  MPI_Dims_create(n, 3, dims);
  MPI_Comm grid;
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &grid);
  int neighbour[3][2]; /* [d][0]: side -1, [d][1]: side +1, as world ranks (reorder is off) */
  for (int d = 0; d < 3; ++d) MPI_Cart_shift(grid, d, 1, &neighbour[d][0], &neighbour[d][1]);

  const size_t face = (size_t)(edge * edge);
  const size_t largest = face + 2;
  double* out = malloc(largest * sizeof(double));
  double* in = malloc(largest * sizeof(double));
  double* block = calloc((size_t)(edge * edge * edge), sizeof(double));
  if (!out || !in || !block) MPI_Abort(MPI_COMM_WORLD, APP_EXIT_FAIL);
  int ok = 1;
  for (long k = 0; k < iterations; ++k) {
    for (int pass = 0; pass < 2; ++pass) {
      for (int i = 0; i < 6; ++i) {
        const int swap = pass == 0 ? i : 5 - i;
        const int d = swap / 2, side = swap % 2; /* side 0: -1, side 1: +1 */
        const int to = neighbour[d][pass == 0 ? side : 1 - side];
        const int from = neighbour[d][pass == 0 ? 1 - side : side];
        const size_t count = face + (size_t)d;
        for (size_t j = 0; j < count; ++j) out[j] = rank * 8.0 + swap;
        MPI_Request request;
        MPI_Irecv(in, (int)count, MPI_DOUBLE, from, pass, MPI_COMM_WORLD, &request);
        MPI_Send(out, (int)count, MPI_DOUBLE, to, pass, MPI_COMM_WORLD);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
        if (in[0] != from * 8.0 + swap || in[count - 1] != from * 8.0 + swap) ok = 0;
      }
      if (pass == 0) {
        for (long j = 0; j < edge * edge * edge; ++j)
          block[j] = 0.5 * block[j] + in[j % (long)face];
      }
    }
  }
  MPI_Comm_free(&grid);
  free(out);
  free(in);
  free(block);
  return app_finish(rank, ok);
}
