// Derivations behind app_expectations.hpp: each function restates, from the app's source, which
// calls every rank makes and with whom. Keep in step with tests/apps/*.c and halo.f90.
#include "integration/app_expectations.hpp"

#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace p3s::testing {

std::pair<int, int> dims_create_2d(int n) {
  if (n < 1) throw std::invalid_argument("dims_create_2d: n must be positive");
  std::vector<int> factors;  // ascending
  int rest = n;
  for (int f = 2; f * f <= rest; ++f)
    while (rest % f == 0) {
      factors.push_back(f);
      rest /= f;
    }
  if (rest > 1) factors.push_back(rest);
  int a = 1, b = 1;
  for (auto it = factors.rbegin(); it != factors.rend(); ++it) {
    int& smaller = b < a ? b : a;  // ties go to the first dimension, as in Open MPI
    smaller *= *it;
  }
  return a >= b ? std::pair{a, b} : std::pair{b, a};
}

namespace {

// Collects one rank's expectations; aggregates messages by (peer, bytes) as they are added.
class RankBuilder {
 public:
  void op(const std::string& name, long long calls) {
    if (calls > 0) ops_[name] += static_cast<int>(calls);
  }
  void send(int peer, long long bytes, int count) { add(sends_, peer, bytes, count); }
  void recv(int peer, long long bytes, int count) { add(recvs_, peer, bytes, count); }

  ExpectedRank build() const { return ExpectedRank{ops_, flatten(sends_), flatten(recvs_)}; }

 private:
  using Table = std::map<std::pair<int, long long>, int>;  // (peer, bytes) -> count

  static void add(Table& table, int peer, long long bytes, int count) {
    if (count > 0) table[{peer, bytes}] += count;
  }
  static std::vector<ExpectedMessage> flatten(const Table& table) {
    std::vector<ExpectedMessage> out;
    for (const auto& [key, count] : table) out.push_back({key.first, key.second, count});
    return out;
  }

  std::map<std::string, int> ops_;
  Table sends_, recvs_;
};

void require(bool condition, const char* what) {
  if (!condition) throw std::invalid_argument(what);
}

void require_size_and_iters(int size, int iters) {
  require(size >= 1, "problem size must be positive");
  require(iters >= 1, "iteration count must be positive");
}

}  // namespace

std::vector<ExpectedRank> expect_stencil2d(int n, int size, int iters) {
  require_size_and_iters(size, iters);
  int q = 0;
  while (q * q < n) ++q;
  require(n >= 1 && q * q == n, "stencil2d needs a perfect-square process count");
  const long long bytes = size * kDoubleBytes;
  std::vector<ExpectedRank> ranks;
  for (int r = 0; r < n; ++r) {
    const int row = r / q, col = r % q;
    std::vector<int> neighbours;
    if (row > 0) neighbours.push_back(r - q);
    if (row < q - 1) neighbours.push_back(r + q);
    if (col > 0) neighbours.push_back(r - 1);
    if (col < q - 1) neighbours.push_back(r + 1);
    RankBuilder b;
    const long long per_iter = static_cast<long long>(neighbours.size());
    b.op("irecv", per_iter * iters);
    b.op("isend", per_iter * iters);
    b.op("waitall", iters);
    b.op("allreduce", iters);
    b.op("reduce", 1);
    for (int peer : neighbours) {
      b.send(peer, bytes, iters);
      b.recv(peer, bytes, iters);
    }
    ranks.push_back(b.build());
  }
  return ranks;
}

std::vector<ExpectedRank> expect_butterfly(int n, int size, int iters) {
  require_size_and_iters(size, iters);
  require(n >= 1 && (n & (n - 1)) == 0, "butterfly needs a power-of-two process count");
  const long long bytes = size * kDoubleBytes;
  std::vector<ExpectedRank> ranks;
  for (int r = 0; r < n; ++r) {
    RankBuilder b;
    int steps = 0;
    for (int bit = 1; bit < n; bit <<= 1, ++steps) {
      b.send(r ^ bit, bytes, iters);
      b.recv(r ^ bit, bytes, iters);
    }
    b.op("sendrecv", static_cast<long long>(steps) * iters);
    b.op("reduce", 1);
    ranks.push_back(b.build());
  }
  return ranks;
}

std::vector<ExpectedRank> expect_ring(int n, int size, int iters) {
  require_size_and_iters(size, iters);
  require(n >= 2, "ring needs at least 2 processes");
  const long long bytes = size * kDoubleBytes;
  std::vector<ExpectedRank> ranks;
  for (int r = 0; r < n; ++r) {
    RankBuilder b;
    b.op("send", iters);
    b.op("recv", iters);
    b.op("reduce", 1);
    b.send((r + 1) % n, bytes, iters);
    b.recv((r - 1 + n) % n, bytes, iters);
    ranks.push_back(b.build());
  }
  return ranks;
}

std::vector<ExpectedRank> expect_wavefront(int n, int size, int iters) {
  require_size_and_iters(size, iters);
  require(n >= 1, "wavefront needs at least 1 process");
  const auto [px, py] = dims_create_2d(n);
  const long long bytes = size * kDoubleBytes;
  std::vector<ExpectedRank> ranks;
  for (int r = 0; r < n; ++r) {
    const int i = r / py, j = r % py;
    RankBuilder b;
    std::vector<int> from, to;
    if (j > 0) from.push_back(r - 1);      // west
    if (i > 0) from.push_back(r - py);     // north
    if (j < py - 1) to.push_back(r + 1);   // east
    if (i < px - 1) to.push_back(r + py);  // south
    for (int peer : from) b.recv(peer, bytes, iters);
    for (int peer : to) b.send(peer, bytes, iters);
    b.op("recv", static_cast<long long>(from.size()) * iters);
    b.op("send", static_cast<long long>(to.size()) * iters);
    b.op("reduce", 1);
    ranks.push_back(b.build());
  }
  return ranks;
}

std::vector<ExpectedRank> expect_halo_f(int n, int size, int iters) {
  require_size_and_iters(size, iters);
  require(n >= 1, "halo_f needs at least 1 process");
  const long long bytes = size * kDoubleBytes;
  std::vector<ExpectedRank> ranks;
  for (int r = 0; r < n; ++r) {
    const int left = (r - 1 + n) % n, right = (r + 1) % n;
    RankBuilder b;
    b.op("irecv", 2LL * iters);
    b.op("isend", 2LL * iters);
    b.op("waitall", iters);
    b.op("allreduce", iters);
    b.op("reduce", 1);
    for (int peer : {left, right}) {
      b.send(peer, bytes, iters);
      b.recv(peer, bytes, iters);
    }
    ranks.push_back(b.build());
  }
  return ranks;
}

std::vector<ExpectedRank> expect_subcomm(int n, int size, int iters) {
  require_size_and_iters(size, iters);
  require(n >= 1, "subcomm needs at least 1 process");
  std::vector<ExpectedRank> ranks;
  for (int r = 0; r < n; ++r) {
    RankBuilder b;
    b.op("comm_split", 2);
    b.op("bcast", iters);
    b.op("reduce", static_cast<long long>(iters) + 1);
    b.op("alltoall", iters);
    ranks.push_back(b.build());
  }
  return ranks;
}

std::vector<int> random_peers_permutation(int n, int iteration, long seed) {
  require(n >= 1 && iteration >= 0 && seed >= 0, "bad random_peers parameters");
  std::uint64_t state =
      (static_cast<std::uint64_t>(seed) << 32) + static_cast<std::uint64_t>(iteration);
  std::vector<int> p(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < p.size(); ++i) p[i] = static_cast<int>(i);
  for (std::size_t i = p.size() - 1; i > 0; --i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const auto draw = static_cast<std::uint32_t>(state >> 33);  // high bits, as the app
    const std::size_t j = draw % static_cast<std::uint32_t>(i + 1);
    std::swap(p[i], p[j]);
  }
  return p;
}

std::vector<ExpectedRank> expect_random_peers(int n, int size, int iters, long seed) {
  require_size_and_iters(size, iters);
  require(n >= 1, "random_peers needs at least 1 process");
  const long long bytes = size * kDoubleBytes;
  std::vector<RankBuilder> builders(static_cast<std::size_t>(n));
  for (int it = 0; it < iters; ++it) {
    const std::vector<int> p = random_peers_permutation(n, it, seed);
    for (std::size_t r = 0; r < p.size(); ++r) {
      builders[r].send(p[r], bytes, 1);
      builders[static_cast<std::size_t>(p[r])].recv(static_cast<int>(r), bytes, 1);
    }
  }
  std::vector<ExpectedRank> ranks;
  for (auto& b : builders) {
    b.op("sendrecv", iters);
    b.op("reduce", 1);
    ranks.push_back(b.build());
  }
  return ranks;
}

std::vector<ExpectedRank> expect_random_peers(int n, int size, int iters) {
  return expect_random_peers(n, size, iters, kRandomPeersDefaultSeed);
}

}  // namespace p3s::testing
