// The communication each test application in tests/apps/ must produce, derived by hand from
// the apps' source and arguments -- the independent truth that integration tests compare p3s
// traces (and predicted traces) against. No MPI and no p3s code here: if a trace and this
// file disagree, the tracer or the app is wrong; they cannot share a mistake with it.
//
// What is counted: the MPI calls an app makes itself between MPI_Init and MPI_Finalize
// (both excluded) that communicate or create communicators. Not counted, because the tracer
// does not record them: MPI_Comm_rank, MPI_Comm_size, MPI_Comm_free, MPI_Dims_create,
// MPI_Wtime, MPI_Abort. Every app ends with one MPI_Reduce to rank 0 of MPI_COMM_WORLD that
// checks the result; it is included ("reduce").
//
// Operation names are the MPI function in lower case without "MPI_" ("isend", "comm_split").
// Operations a rank never calls are absent from its op_counts (never present with 0).
// Point-to-point messages are aggregated per (peer, bytes) over the whole run and sorted by
// peer, then bytes; a MPI_Sendrecv contributes one message to `sends` (to its destination) and
// one to `recvs` (from its source). Collectives appear only in op_counts.
//
// Every expect_* function returns one ExpectedRank per world rank, takes the app's own
// arguments (n = process count, size = its first argument, iters = its second) and throws
// std::invalid_argument for what the app itself rejects with exit code 2 (a process count it
// does not support, a size or iteration count below 1).
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace p3s::testing {

struct ExpectedMessage {
  int peer;         // world rank
  long long bytes;  // size of each message
  int count;        // how many such messages over the whole run
  friend bool operator==(const ExpectedMessage&, const ExpectedMessage&) = default;
};

struct ExpectedRank {
  std::map<std::string, int> op_counts;
  std::vector<ExpectedMessage> sends;
  std::vector<ExpectedMessage> recvs;
};

// Every app's messages are arrays of doubles.
inline constexpr long long kDoubleBytes = 8;

// app_random_peers's default seed (its optional third argument).
inline constexpr long kRandomPeersDefaultSeed = 12345;

// Grid shape chosen by MPI_Dims_create(n, 2, dims) in Open MPI 4.1, as {dims[0], dims[1]}
// (checked against Open MPI 4.1.4 for every n up to 20000). Open MPI takes n's prime factors
// from largest to smallest, multiplies each into the dimension with the smallest product so
// far (the first one on ties), then sorts the two in decreasing order. This is not always the
// squarest shape (n = 72 gives 12 x 6, not 9 x 8). Other MPI libraries choose differently:
// SimGrid 3.32's SMPI gives 9 x 1 for n = 9 and 9 x 4 for n = 36, so this does not describe
// app_wavefront or app_subcomm run under smpirun.
std::pair<int, int> dims_create_2d(int n);

// app_stencil2d: q x q grid (q = sqrt(n), n a perfect square), rank = row*q + col,
// non-periodic. Per iteration: one irecv and one isend per existing neighbour (N, S, W, E), one
// waitall (even with no neighbours), one allreduce. Then one reduce. Halo: size doubles.
std::vector<ExpectedRank> expect_stencil2d(int n, int size, int iters);

// app_butterfly: n a power of two. Per iteration, for k = 0..log2(n)-1, one sendrecv of size
// doubles with rank XOR 2^k. Then one reduce.
std::vector<ExpectedRank> expect_butterfly(int n, int size, int iters);

// app_ring: n >= 2. Per iteration one send of size doubles to (r+1) % n and one recv from
// (r-1+n) % n (even ranks send first, odd ranks receive first). Then one reduce.
std::vector<ExpectedRank> expect_ring(int n, int size, int iters);

// app_wavefront: px x py grid from dims_create_2d(n), rank = i*py + j. Per iteration: recv
// from west (r-1, if j > 0) and north (r-py, if i > 0), then send to east (r+1, if j < py-1)
// and south (r+py, if i < px-1); all size doubles. Then one reduce.
std::vector<ExpectedRank> expect_wavefront(int n, int size, int iters);

// app_halo_f (Fortran): periodic 1D, left = (r-1+n) % n, right = (r+1) % n. Per iteration:
// 2 irecv, 2 isend (size doubles, one to each side), one waitall, one allreduce. Then one
// reduce. With n <= 2 left and right are the same rank (n = 1: itself), so the two messages
// per iteration aggregate into one entry.
std::vector<ExpectedRank> expect_halo_f(int n, int size, int iters);

// app_subcomm: rows x cols grid from dims_create_2d(n), two comm_split calls (rows, then
// columns). Per iteration one bcast (row comm), one reduce (column comm) and one alltoall (row
// comm); then one more reduce on MPI_COMM_WORLD, so reduce = iters + 1. No point-to-point
// messages of the app's own (whatever the collectives do inside MPI is not the app's).
std::vector<ExpectedRank> expect_subcomm(int n, int size, int iters);

// The permutation p that app_random_peers uses in iteration `iteration` (0-based): rank r
// sends to p[r] and receives from the i with p[i] == r. Mirrors random_peers.c exactly.
std::vector<int> random_peers_permutation(int n, int iteration,
                                          long seed = kRandomPeersDefaultSeed);

// app_random_peers: per iteration one sendrecv (size doubles to p[r], from p^-1[r], possibly r
// itself), then one reduce. The messages are aggregated over the run like the other apps';
// the peers of one iteration come from random_peers_permutation(). The three-argument form
// (default seed) has the same signature as the other expect_* functions.
std::vector<ExpectedRank> expect_random_peers(int n, int size, int iters, long seed);
std::vector<ExpectedRank> expect_random_peers(int n, int size, int iters);

}  // namespace p3s::testing
