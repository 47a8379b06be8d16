// Runs test apps under SimGrid (smpirun -trace-ti), imports their time-independent traces with
// `p3s trace import-ti`, and checks each rank against the communication the app's source implies.
#include <gtest/gtest.h>

#include <fstream>
#include <map>

#include "core/run_dir.hpp"
#include "integration/app_expectations.hpp"
#include "integration/run_helpers.hpp"

namespace p3s::testing {
namespace {

using core::Event;
using core::Op;
namespace fs = std::filesystem;

struct SmpiCase {
  std::string app;  // tests/apps/APP.c, built by smpicc as smpi_APP
  int nprocs;
  int size;
  int iters;
  std::vector<ExpectedRank> (*expect)(int n, int size, int iters);
  bool one_file = false;  // SMPI writes every rank into one file
};

std::string case_name(const ::testing::TestParamInfo<SmpiCase>& info) {
  return info.param.app + "_n" + std::to_string(info.param.nprocs) +
         (info.param.one_file ? "_one_file" : "");
}

CommandResult smpirun(const fs::path& cwd, const SmpiCase& c,
                      const std::vector<std::string>& options) {
  return smpirun_app(cwd, c.nprocs, c.app, {std::to_string(c.size), std::to_string(c.iters)},
                     options);
}

// The app traced under smpirun into DIR/ti/trace.txt. smpirun runs in DIR and is given a
// relative name, so the list holds names relative to DIR, not to the list's own directory:
// the import has to find the files where SMPI put them, beside the list.
fs::path trace_under_smpi(const fs::path& dir, const SmpiCase& c) {
  std::vector<std::string> options = {"-trace-ti", "--cfg=tracing/filename:ti/trace.txt"};
  if (c.one_file) options.push_back("--cfg=tracing/smpi/format/ti-one-file:yes");
  fs::create_directories(dir / "ti");
  CommandResult r = smpirun(dir, c, options);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("SUCCESS"), std::string::npos) << r.output;
  return dir / "ti" / "trace.txt";
}

using MessageKey = std::pair<int, long long>;  // peer, bytes

std::map<MessageKey, int> aggregate(const std::vector<ExpectedMessage>& messages) {
  std::map<MessageKey, int> out;
  for (const auto& m : messages) out[{m.peer, m.bytes}] += m.count;
  return out;
}

bool sends_message(const Event& e) {
  return (e.op == Op::Send || e.op == Op::Isend || e.op == Op::Sendrecv) && e.dst >= 0;
}

bool receives_message(const Event& e) {
  return (e.op == Op::Recv || e.op == Op::Irecv || e.op == Op::Sendrecv) && e.src >= 0;
}

class SmpiApps : public ::testing::TestWithParam<SmpiCase> {};

TEST_P(SmpiApps, AppSucceedsUnderSmpirun) {
  const SmpiCase& c = GetParam();
  CommandResult r = smpirun(scratch_dir("smpi-run-" + case_name({c, 0})), c, {});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("SUCCESS"), std::string::npos) << r.output;
}

TEST_P(SmpiApps, ImportedRanksMatchTheSource) {
  const SmpiCase& c = GetParam();
  const fs::path dir = scratch_dir("ti-import-" + case_name({c, 0}));
  const fs::path list = trace_under_smpi(dir, c);
  CommandResult r = import_ti(list, dir / "run");
  ASSERT_EQ(r.exit_code, 0) << r.output;

  core::RunInfo info = core::read_run_info(dir / "run");
  EXPECT_EQ(info.nprocs, c.nprocs);
  EXPECT_EQ(info.source, "smpi-ti");
  EXPECT_EQ(info.wall_clock, "synthetic");
  EXPECT_EQ(info.cpu_clock, "flops/20000");
  EXPECT_TRUE(info.complete);
  core::check_rank_files(dir / "run", info.nprocs);

  std::vector<ExpectedRank> expected = c.expect(c.nprocs, c.size, c.iters);
  ASSERT_EQ(expected.size(), static_cast<std::size_t>(c.nprocs));
  for (int rank = 0; rank < c.nprocs; ++rank) {
    SCOPED_TRACE("rank " + std::to_string(rank));
    core::RankTrace t = core::read_run_rank(dir / "run", info, rank);
    ASSERT_FALSE(t.events.empty());
    EXPECT_EQ(t.events.back().op, Op::Finalize);
    std::map<std::string, int> ops;
    std::map<MessageKey, int> sends, recvs;
    std::int64_t cpu = 0;
    std::map<std::int64_t, int> completions;  // request id -> completion records naming it
    for (const Event& e : t.events) {
      EXPECT_EQ(e.t_end, e.t_start) << "TI calls take no synthetic time";
      cpu += e.burst_cpu;
      for (const auto& done : e.requests) ++completions[done.req];
      if (e.op == Op::Finalize) continue;
      ++ops[std::string(core::op_name(e.op))];
      if (sends_message(e)) ++sends[{e.dst, e.bytes}];
      if (receives_message(e)) ++recvs[{e.src, e.rbytes}];
      if (e.req >= 0) completions.try_emplace(e.req, 0);
    }
    EXPECT_EQ(ops, expected[rank].op_counts);
    EXPECT_EQ(sends, aggregate(expected[rank].sends));
    EXPECT_EQ(recvs, aggregate(expected[rank].recvs));
    EXPECT_GT(cpu, 0) << "the app's compute should have become bursts";
    for (const auto& [req, n] : completions)
      EXPECT_EQ(n, 1) << "request " << req << " completed " << n << " times";
  }
}

INSTANTIATE_TEST_SUITE_P(Apps, SmpiApps,
                         ::testing::Values(SmpiCase{"stencil2d", 4, 32, 10, expect_stencil2d},
                                           SmpiCase{"stencil2d", 16, 32, 10, expect_stencil2d},
                                           SmpiCase{"ring", 3, 64, 10, expect_ring},
                                           SmpiCase{"ring", 8, 64, 10, expect_ring},
                                           SmpiCase{"ring", 5, 64, 10, expect_ring, true}),
                         case_name);

TEST(TiImportCommand, KeepsAnEarlierRunUnlessForced) {
  const SmpiCase c{"ring", 3, 16, 2, expect_ring};
  const fs::path dir = scratch_dir("ti-import-force");
  const fs::path list = trace_under_smpi(dir, c);
  ASSERT_EQ(import_ti(list, dir / "run").exit_code, 0);
  CommandResult again = import_ti(list, dir / "run");
  EXPECT_EQ(again.exit_code, 2) << again.output;
  EXPECT_NE(again.output.find("--force"), std::string::npos) << again.output;
  EXPECT_EQ(import_ti(list, dir / "run", {"--force", "--workload", "count=16"}).exit_code, 0);
  core::RunInfo info = core::read_run_info(dir / "run");
  ASSERT_TRUE(info.workload);
  EXPECT_EQ(info.workload->size, 16);
}

TEST(TiImportCommand, BadTraceIsAnErrorNamingFileAndLine) {
  const fs::path dir = scratch_dir("ti-import-bad");
  fs::create_directories(dir / "t.txt_files");
  std::ofstream(dir / "t.txt_files" / "1_rank-1.txt") << "0 init\n0 frobnicate\n0 finalize\n";
  std::ofstream(dir / "t.txt") << "t.txt_files/1_rank-1.txt\n";
  CommandResult r = import_ti(dir / "t.txt", dir / "run");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.output.find("1_rank-1.txt:2"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "run")) << "a failed import must leave no run directory";
}

}  // namespace
}  // namespace p3s::testing
