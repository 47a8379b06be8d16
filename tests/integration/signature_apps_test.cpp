// Traces the test apps for real (Open MPI, oversubscribed), runs `p3s signature` on each run
// and checks the phases against what each app's source does for its arguments: the main
// loop is one phase whose weight is the iteration count on every rank, with the events of one
// iteration; the relevant phases explain the run; their PET matches the measured run.
#include <gtest/gtest.h>

#include <fstream>
#include <optional>

#include "core/event.hpp"
#include "core/run_dir.hpp"
#include "integration/app_expectations.hpp"
#include "integration/run_helpers.hpp"
#include "signature/signature_json.hpp"

namespace p3s::testing {
namespace {

namespace fs = std::filesystem;
using core::Op;
using signature::RankPhase;
using signature::Signature;

// One event of an iteration as the app's source makes it; fields left empty are not checked.
// Peers are world ranks here; they are compared as offsets from the rank.
struct Expected {
  Op op;
  std::optional<int> dst = {};
  std::optional<int> src = {};
  std::optional<long long> bytes = {};
  std::optional<long long> rbytes = {};
  std::optional<int> requests = {};
  std::optional<int> root = {};
};

using Body = std::vector<Expected>;
using BodyOf = Body (*)(int n, int size, int rank);

Body stencil2d_body(int n, int size, int r) {
  int q = 0;
  while (q * q < n) ++q;
  const int row = r / q, col = r % q;
  std::vector<int> neighbours;  // N, S, W, E
  if (row > 0) neighbours.push_back(r - q);
  if (row < q - 1) neighbours.push_back(r + q);
  if (col > 0) neighbours.push_back(r - 1);
  if (col < q - 1) neighbours.push_back(r + 1);
  const long long bytes = size * kDoubleBytes;
  Body body;
  for (int nb : neighbours) body.push_back({.op = Op::Irecv, .src = nb, .rbytes = bytes});
  for (int nb : neighbours) body.push_back({.op = Op::Isend, .dst = nb, .bytes = bytes});
  body.push_back({.op = Op::Waitall, .requests = static_cast<int>(2 * neighbours.size())});
  body.push_back({.op = Op::Allreduce, .bytes = kDoubleBytes});
  return body;
}

Body butterfly_body(int n, int size, int r) {
  const long long bytes = size * kDoubleBytes;
  Body body;
  for (int bit = 1; bit < n; bit <<= 1) {
    body.push_back(
        {.op = Op::Sendrecv, .dst = r ^ bit, .src = r ^ bit, .bytes = bytes, .rbytes = bytes});
  }
  return body;
}

Body ring_body(int n, int size, int r) {
  const long long bytes = size * kDoubleBytes;
  const Expected send{.op = Op::Send, .dst = (r + 1) % n, .bytes = bytes};
  const Expected recv{.op = Op::Recv, .src = (r - 1 + n) % n, .rbytes = bytes};
  return r % 2 == 0 ? Body{send, recv} : Body{recv, send};
}

Body wavefront_body(int n, int size, int r) {
  const auto [px, py] = dims_create_2d(n);
  const int i = r / py, j = r % py;
  const long long bytes = size * kDoubleBytes;
  Body body;
  if (j > 0) body.push_back({.op = Op::Recv, .src = r - 1, .rbytes = bytes});
  if (i > 0) body.push_back({.op = Op::Recv, .src = r - py, .rbytes = bytes});
  if (j < py - 1) body.push_back({.op = Op::Send, .dst = r + 1, .bytes = bytes});
  if (i < px - 1) body.push_back({.op = Op::Send, .dst = r + py, .bytes = bytes});
  return body;
}

Body halo_f_body(int n, int size, int r) {
  const int left = (r - 1 + n) % n, right = (r + 1) % n;
  const long long bytes = size * kDoubleBytes;
  return {{.op = Op::Irecv, .src = left, .rbytes = bytes},
          {.op = Op::Irecv, .src = right, .rbytes = bytes},
          {.op = Op::Isend, .dst = left, .bytes = bytes},
          {.op = Op::Isend, .dst = right, .bytes = bytes},
          {.op = Op::Waitall, .requests = 4},
          {.op = Op::Allreduce, .bytes = kDoubleBytes}};
}

Body subcomm_body(int n, int, int r) {
  const int cols = dims_create_2d(n).second;
  const int row = r / cols, col = r % cols;
  return {
      {.op = Op::Bcast, .root = row * cols}, {.op = Op::Reduce, .root = col}, {.op = Op::Alltoall}};
}

struct AppCase {
  std::string app;
  int nprocs;
  int size;
  int iters;
  BodyOf body;
};

std::string case_name(const ::testing::TestParamInfo<AppCase>& info) {
  return info.param.app + "_n" + std::to_string(info.param.nprocs);
}

void PrintTo(const AppCase& c, std::ostream* os) {
  *os << c.app << " -np " << c.nprocs << " " << c.size << " " << c.iters;
}

int offset(int peer, int rank, int n) {
  return (peer - rank + n) % n;
}

void expect_event(const signature::EventToken& got, const Expected& want, int rank, int n,
                  const std::string& where) {
  EXPECT_EQ(core::op_name(got.op), core::op_name(want.op)) << where;
  if (want.dst) {
    EXPECT_EQ(got.dst, offset(*want.dst, rank, n)) << where << " dst";
  }
  if (want.src) {
    EXPECT_EQ(got.src, offset(*want.src, rank, n)) << where << " src";
  }
  if (want.bytes) {
    EXPECT_EQ(got.bytes, *want.bytes) << where << " bytes";
  }
  if (want.rbytes) {
    EXPECT_EQ(got.rbytes, *want.rbytes) << where << " rbytes";
  }
  if (want.requests) {
    EXPECT_EQ(got.requests, *want.requests) << where << " requests";
  }
  if (want.root) {
    EXPECT_EQ(got.root, offset(*want.root, rank, n)) << where << " root";
  }
}

Signature trace_and_sign(const std::string& name, const AppCase& c) {
  const fs::path dir = scratch_dir(name);
  const CommandResult traced =
      trace_app(dir, c.nprocs, c.app, {std::to_string(c.size), std::to_string(c.iters)});
  EXPECT_EQ(traced.exit_code, 0) << traced.output;
  const CommandResult signed_run = run_command({p3s_bin(), "signature", dir.string()});
  EXPECT_EQ(signed_run.exit_code, 0) << signed_run.output;
  EXPECT_NE(signed_run.output.find("coverage"), std::string::npos) << signed_run.output;
  return signature::read_signature(dir / signature::kSignatureFile);
}

class SignatureApps : public ::testing::TestWithParam<AppCase> {};

// The main loop is one phase of weight `iters` on every rank, with the events of one
// iteration as the app's source makes them, and the relevant phases explain the run.
void expect_main_loop(const Signature& sig, const AppCase& c) {
  ASSERT_EQ(static_cast<int>(sig.ranks.size()), c.nprocs);
  int main_id = -1;
  for (const auto& rank : sig.ranks) {
    const std::string where = "rank " + std::to_string(rank.rank);
    const RankPhase* main = nullptr;
    for (const RankPhase& p : rank.phases) {
      if (p.weight == c.iters) {
        EXPECT_EQ(main, nullptr) << where << ": two phases of weight " << c.iters;
        main = &p;
      }
    }
    ASSERT_NE(main, nullptr) << where << ": no relevant phase of weight " << c.iters;
    if (main_id < 0) main_id = main->id;
    EXPECT_EQ(main->id, main_id) << where;
    EXPECT_EQ(main->occurrences, 1) << where;
    const Body want = c.body(c.nprocs, c.size, rank.rank);
    ASSERT_EQ(main->events.size(), want.size()) << where;
    for (std::size_t e = 0; e < want.size(); ++e) {
      expect_event(main->events[e], want[e], rank.rank, c.nprocs,
                   where + " event " + std::to_string(e));
    }
    EXPECT_GE(rank.coverage(), 0.95) << where;
  }
  EXPECT_EQ(sig.phases.at(main_id).ranks, c.nprocs);
  EXPECT_TRUE(sig.phases.at(main_id).same_weight);
  EXPECT_GE(sig.coverage(), 0.95);
}

TEST_P(SignatureApps, MainLoopIsOnePhaseWeighedByItsIterationsOnEveryRank) {
  const AppCase& c = GetParam();
  const Signature sig = trace_and_sign("signature-" + case_name({c, 0}), c);
  expect_main_loop(sig, c);
  // The prediction check needs real time: with at most 2 ranks per core the ranks are not
  // starved, so the representative's PET must match the measured run.
  if (c.nprocs <= 4) {
    const double pet = static_cast<double>(sig.pet_ns());
    const double aet = static_cast<double>(sig.aet_ns);
    EXPECT_NEAR(pet / aet, 1.0, 0.05) << "PET " << pet << " ns, AET " << aet << " ns";
  }
}

INSTANTIATE_TEST_SUITE_P(Apps, SignatureApps,
                         ::testing::Values(AppCase{"app_stencil2d", 4, 32, 120, stencil2d_body},
                                           AppCase{"app_stencil2d", 9, 16, 60, stencil2d_body},
                                           AppCase{"app_butterfly", 2, 256, 150, butterfly_body},
                                           AppCase{"app_butterfly", 4, 256, 100, butterfly_body},
                                           AppCase{"app_ring", 3, 256, 150, ring_body},
                                           AppCase{"app_ring", 4, 256, 100, ring_body},
                                           AppCase{"app_wavefront", 4, 256, 100, wavefront_body},
                                           AppCase{"app_wavefront", 6, 256, 60, wavefront_body},
                                           AppCase{"app_halo_f", 3, 32, 120, halo_f_body},
                                           AppCase{"app_halo_f", 4, 32, 100, halo_f_body},
                                           // Its two MPI_Comm_split before the loop are
                                           // outside the phases: enough iterations that a
                                           // rank stalled there for a few ms by the loaded
                                           // machine (ctest -j) keeps its coverage.
                                           AppCase{"app_subcomm", 4, 64, 400, subcomm_body},
                                           AppCase{"app_subcomm", 6, 64, 300, subcomm_body}),
                         case_name);

// The same apps simulated by SMPI and imported from its time-independent traces: the same
// phases and weights as under the tracer.
class SignatureSmpiApps : public ::testing::TestWithParam<AppCase> {};

TEST_P(SignatureSmpiApps, MainLoopIsOnePhaseWeighedByItsIterationsOnEveryRank) {
  const AppCase& c = GetParam();
  const fs::path dir = scratch_dir("signature-smpi-" + case_name({c, 0}));
  const CommandResult imported = trace_app_smpi(dir, c.nprocs, c.app.substr(4),
                                                {std::to_string(c.size), std::to_string(c.iters)});
  ASSERT_EQ(imported.exit_code, 0) << imported.output;
  const CommandResult signed_run = run_command({p3s_bin(), "signature", (dir / "run").string()});
  ASSERT_EQ(signed_run.exit_code, 0) << signed_run.output;
  expect_main_loop(signature::read_signature(dir / "run" / signature::kSignatureFile), c);
}

INSTANTIATE_TEST_SUITE_P(Apps, SignatureSmpiApps,
                         ::testing::Values(AppCase{"app_stencil2d", 4, 32, 120, stencil2d_body},
                                           AppCase{"app_stencil2d", 9, 16, 60, stencil2d_body},
                                           AppCase{"app_butterfly", 8, 256, 60, butterfly_body},
                                           AppCase{"app_ring", 5, 256, 100, ring_body}),
                         case_name);

TEST(SignatureIrregular, RandomPeersHasNoMainLoop) {
  const int n = 16, iters = 200;
  const Signature sig =
      trace_and_sign("signature-random-peers", {"app_random_peers", n, 64, iters, nullptr});
  ASSERT_EQ(static_cast<int>(sig.ranks.size()), n);
  for (const auto& rank : sig.ranks) {
    // Partners change every iteration (random_peers_permutation), so no sequence of events
    // repeats for long: what repeats does so by chance (an offset pair recurring among n * n),
    // nowhere near the iteration count, and most of the run is one-off stretches.
    const std::string where = "rank " + std::to_string(rank.rank);
    std::int64_t in_stretches = 0;
    for (const RankPhase& p : rank.phases) {
      EXPECT_LT(p.weight, iters / 10) << where;
      if (p.weight == 1) in_stretches += p.total_ns;
    }
    EXPECT_GT(2 * in_stretches, rank.run_ns) << where;
  }
}

class SignatureBadInput : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    run_ = new fs::path(scratch_dir("signature-bad-input-source"));
    traced_ = new CommandResult(trace_app(*run_, 4, "app_ring", {"16", "20"}));
  }
  static void TearDownTestSuite() {
    delete run_;
    delete traced_;
  }
  // Checked per test: a failure in SetUpTestSuite would have ctest report the tests skipped.
  void SetUp() override { ASSERT_EQ(traced_->exit_code, 0) << traced_->output; }

  // A fresh copy of the traced run to damage.
  static fs::path copy(const std::string& name) {
    const fs::path dir = scratch_dir(name);
    fs::copy(*run_, dir, fs::copy_options::recursive);
    return dir;
  }

  static fs::path* run_;
  static CommandResult* traced_;
};
fs::path* SignatureBadInput::run_ = nullptr;
CommandResult* SignatureBadInput::traced_ = nullptr;

TEST_F(SignatureBadInput, TruncatedRankFileIsAnErrorNamingFileRankAndLine) {
  const fs::path dir = copy("signature-truncated");
  const fs::path file = core::rank_trace_path(dir, 2);
  fs::resize_file(file, fs::file_size(file) / 2);
  const CommandResult r = run_command({p3s_bin(), "signature", dir.string()});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find(file.string() + ":"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("rank 2"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / signature::kSignatureFile));
}

TEST_F(SignatureBadInput, MissingRankFileIsAnErrorNamingIt) {
  const fs::path dir = copy("signature-missing");
  const fs::path file = core::rank_trace_path(dir, 3);
  fs::remove(file);
  const CommandResult r = run_command({p3s_bin(), "signature", dir.string()});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find(file.string()), std::string::npos) << r.output;
}

TEST_F(SignatureBadInput, BadOptionsAreUsageErrors) {
  for (const char* threshold : {"abc", "150%", "-1"}) {
    const CommandResult r =
        run_command({p3s_bin(), "signature", run_->string(), "--threshold", threshold});
    EXPECT_EQ(r.exit_code, 2) << threshold << "\n" << r.output;
  }
  const CommandResult r = run_command({p3s_bin(), "signature", "/nonexistent/run"});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("/nonexistent/run"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace p3s::testing
