// Traces every test app for real (Open MPI, oversubscribed) and checks each rank's trace
// against the communication the app's source implies for its arguments.
#include <gtest/gtest.h>

#include <map>
#include <tuple>

#include "core/run_dir.hpp"
#include "integration/app_expectations.hpp"
#include "integration/run_helpers.hpp"

namespace p3s::testing {
namespace {

using core::Event;
using core::Op;

struct AppCase {
  std::string app;
  int nprocs;
  int size;
  int iters;
  std::vector<ExpectedRank> (*expect)(int n, int size, int iters);
};

void PrintTo(const AppCase& c, std::ostream* os) {
  *os << c.app << " -np " << c.nprocs << " " << c.size << " " << c.iters;
}

std::string case_name(const ::testing::TestParamInfo<AppCase>& info) {
  return info.param.app + "_n" + std::to_string(info.param.nprocs);
}

using MessageKey = std::pair<int, long long>;  // peer, bytes

std::map<MessageKey, int> aggregate(const std::vector<ExpectedMessage>& messages) {
  std::map<MessageKey, int> out;
  for (const auto& m : messages) out[{m.peer, m.bytes}] += m.count;
  return out;
}

bool sends_message(const Event& e) {
  switch (e.op) {
    case Op::Send:
    case Op::Ssend:
    case Op::Bsend:
    case Op::Rsend:
    case Op::Isend:
    case Op::Issend:
    case Op::Sendrecv:
    case Op::SendrecvReplace:
    case Op::Start:
      return e.dst >= 0;
    default:
      return false;
  }
}

bool receives_message(const Event& e) {
  switch (e.op) {
    case Op::Recv:
    case Op::Irecv:
    case Op::Sendrecv:
    case Op::SendrecvReplace:
    case Op::Start:
      return e.src >= 0;
    default:
      return false;
  }
}

class TraceApps : public ::testing::TestWithParam<AppCase> {};

TEST_P(TraceApps, EveryRankRecordsWhatTheSourceDoes) {
  const AppCase& c = GetParam();
  auto dir = scratch_dir("trace-" + case_name({c, 0}));
  CommandResult r =
      trace_app(dir, c.nprocs, c.app, {std::to_string(c.size), std::to_string(c.iters)});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("SUCCESS"), std::string::npos)
      << "the app's own check failed under the tracer:\n"
      << r.output;

  core::RunInfo info = core::read_run_info(dir);
  ASSERT_EQ(info.nprocs, c.nprocs);
  EXPECT_TRUE(info.complete);
  EXPECT_EQ(info.exit_code, 0);
  core::check_rank_files(dir, info.nprocs);

  std::vector<ExpectedRank> expected = c.expect(c.nprocs, c.size, c.iters);
  ASSERT_EQ(expected.size(), static_cast<std::size_t>(c.nprocs));
  for (int rank = 0; rank < c.nprocs; ++rank) {
    SCOPED_TRACE("rank " + std::to_string(rank));
    core::RankTrace t = core::read_run_rank(dir, info, rank);
    EXPECT_EQ(t.end, core::TraceEnd::Complete);
    ASSERT_FALSE(t.events.empty());
    EXPECT_EQ(t.events.back().op, Op::Finalize);

    std::map<std::string, int> ops;
    std::map<MessageKey, int> sends, recvs;
    for (const Event& e : t.events) {
      if (e.op == Op::Finalize) continue;
      ++ops[std::string(core::op_name(e.op))];
      if (sends_message(e)) ++sends[{e.dst, e.bytes}];
      if (receives_message(e)) ++recvs[{e.src, e.rbytes}];
    }
    EXPECT_EQ(ops, expected[rank].op_counts);
    EXPECT_EQ(sends, aggregate(expected[rank].sends));
    EXPECT_EQ(recvs, aggregate(expected[rank].recvs));
  }
}

INSTANTIATE_TEST_SUITE_P(Apps, TraceApps,
                         ::testing::Values(AppCase{"app_stencil2d", 4, 32, 20, expect_stencil2d},
                                           AppCase{"app_stencil2d", 16, 32, 10, expect_stencil2d},
                                           AppCase{"app_butterfly", 4, 16, 20, expect_butterfly},
                                           AppCase{"app_butterfly", 8, 16, 10, expect_butterfly},
                                           AppCase{"app_ring", 3, 16, 20, expect_ring},
                                           AppCase{"app_ring", 5, 16, 10, expect_ring},
                                           AppCase{"app_wavefront", 6, 16, 10, expect_wavefront},
                                           AppCase{"app_wavefront", 12, 16, 5, expect_wavefront},
                                           AppCase{"app_halo_f", 4, 32, 20, expect_halo_f},
                                           AppCase{"app_halo_f", 5, 32, 10, expect_halo_f},
                                           AppCase{"app_subcomm", 6, 8, 10, expect_subcomm},
                                           AppCase{"app_subcomm", 12, 8, 5, expect_subcomm}),
                         case_name);

}  // namespace
}  // namespace p3s::testing
