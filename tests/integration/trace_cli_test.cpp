// p3s trace and p3s show on runs that go wrong: programs that abort or crash, bad flags,
// run directories that are damaged after the fact.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/run_dir.hpp"
#include "integration/run_helpers.hpp"

namespace p3s::testing {
namespace {
namespace fs = std::filesystem;

constexpr int kRanks = 3;
constexpr int kSteps = 7;

// The failing rank's trace holds every exchange it finished, and ends the way it died.
void expect_failing_rank(const fs::path& dir, core::TraceEnd how, int signal) {
  core::RunInfo info = core::read_run_info(dir);
  EXPECT_FALSE(info.complete);
  EXPECT_NE(info.exit_code, 0);
  core::RankTrace t = core::read_run_rank(dir, info, kRanks - 1);  // strict: must be whole
  EXPECT_EQ(t.end, how);
  EXPECT_EQ(t.end_signal, signal);
  ASSERT_EQ(t.events.size(), static_cast<std::size_t>(kSteps));
  for (const auto& e : t.events) {
    EXPECT_EQ(e.op, core::Op::Sendrecv);
    EXPECT_EQ(e.dst, 0);
    EXPECT_EQ(e.src, kRanks - 2);
  }
  // The other ranks were torn down by the launcher: readable up to where they stopped.
  for (int r = 0; r < kRanks - 1; ++r) {
    core::RankTrace other = core::read_run_rank(dir, info, r, {.allow_truncated = true});
    EXPECT_NE(other.end, core::TraceEnd::Complete);
  }
}

TEST(TraceFailures, MpiAbortLeavesAReadableTraceMarkedAborted) {
  auto dir = scratch_dir("abort");
  CommandResult r = trace_app(dir, kRanks, "app_failing", {"abort", std::to_string(kSteps)});
  EXPECT_NE(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("INCOMPLETE"), std::string::npos) << r.output;
  expect_failing_rank(dir, core::TraceEnd::Aborted, 0);
}

TEST(TraceFailures, ASegfaultLeavesAReadableTraceMarkedBySignal) {
  auto dir = scratch_dir("segv");
  CommandResult r = trace_app(dir, kRanks, "app_failing", {"segv", std::to_string(kSteps)});
  EXPECT_NE(r.exit_code, 0) << r.output;
  expect_failing_rank(dir, core::TraceEnd::Signalled, 11);
}

TEST(TraceCli, RefusesToOverwriteARunUnlessForced) {
  auto dir = scratch_dir("overwrite");
  ASSERT_EQ(trace_app(dir, 2, "app_ring", {"8", "3"}).exit_code, 0);
  auto before = fs::last_write_time(dir / "run.json");
  CommandResult again = trace_app(dir, 2, "app_ring", {"8", "3"});
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_NE(again.output.find("--force"), std::string::npos) << again.output;
  EXPECT_EQ(fs::last_write_time(dir / "run.json"), before);
  EXPECT_EQ(trace_app(dir, 2, "app_ring", {"8", "3"}, {"--force"}).exit_code, 0);
}

TEST(TraceCli, WrongFlagsAreUsageErrors) {
  auto dir = scratch_dir("flags");
  for (auto argv : std::vector<std::vector<std::string>>{
           {p3s_bin(), "trace", "--out", dir.string()},                           // no command
           {p3s_bin(), "trace", "--", "true"},                                    // no --out
           {p3s_bin(), "trace", "-o", dir.string(), "-w", "grid", "--", "true"},  // bad workload
           {p3s_bin(), "trace", "--bogus", "--", "true"},
           {p3s_bin(), "frobnicate"}}) {
    CommandResult r = run_command(argv);
    EXPECT_EQ(r.exit_code, 2) << argv[1] << ": " << r.output;
    EXPECT_NE(r.output.find("p3s"), std::string::npos);
  }
  CommandResult nompi = run_command({p3s_bin(), "trace", "-o", (dir / "x").string(), "--", "true"});
  EXPECT_EQ(nompi.exit_code, 1);
  EXPECT_NE(nompi.output.find("no trace written"), std::string::npos) << nompi.output;
}

TEST(TraceCli, HelpAndVersion) {
  CommandResult help = run_command({p3s_bin(), "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.output.find("trace"), std::string::npos);
  EXPECT_EQ(run_command({p3s_bin(), "--version"}).exit_code, 0);
  CommandResult trace_help = run_command({p3s_bin(), "trace", "--help"});
  EXPECT_EQ(trace_help.exit_code, 0);
  EXPECT_NE(trace_help.output.find("--workload"), std::string::npos);
}

// A good 2-rank run, damaged in one way per test; p3s show must name the file and fail.
class DamagedRun : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    good_ = new fs::path(scratch_dir("damaged-source"));
    traced_ =
        new CommandResult(trace_app(*good_, 2, "app_ring", {"8", "5"}, {"--workload", "count=8"}));
  }
  static void TearDownTestSuite() {
    delete good_;
    delete traced_;
  }
  // Checked per test: a failure in SetUpTestSuite would have ctest report the tests skipped.
  void SetUp() override { ASSERT_EQ(traced_->exit_code, 0) << traced_->output; }

  fs::path copy(const std::string& name) {
    fs::path dir = scratch_dir(name);
    fs::copy(*good_, dir);
    return dir;
  }
  static std::string read(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  static void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

  void expect_show_fails(const fs::path& dir, const std::string& file, const std::string& reason) {
    CommandResult r = run_command({p3s_bin(), "show", dir.string()});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find(file), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(reason), std::string::npos) << r.output;
  }

  static fs::path* good_;
  static CommandResult* traced_;
};
fs::path* DamagedRun::good_ = nullptr;
CommandResult* DamagedRun::traced_ = nullptr;

TEST_F(DamagedRun, GoodRunShowsItsCalls) {
  CommandResult r = run_command({p3s_bin(), "show", good_->string()});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("2 ranks"), std::string::npos) << r.output;
  CommandResult j = run_command({p3s_bin(), "show", good_->string(), "--json"});
  ASSERT_EQ(j.exit_code, 0) << j.output;
  // app_ring 8 5: each rank sends 5 messages of 8 doubles, plus the final reduce of one int.
  EXPECT_NE(j.output.find("\"send\""), std::string::npos) << j.output;
  core::RunInfo info = core::read_run_info(*good_);
  ASSERT_TRUE(info.workload.has_value());
  EXPECT_EQ(info.workload->label, "count");
  EXPECT_EQ(info.workload->size, 8);
}

TEST_F(DamagedRun, TruncatedRankFile) {
  fs::path dir = copy("damaged-truncated");
  fs::path f = core::rank_trace_path(dir, 1);
  std::string text = read(f);
  write(f, text.substr(0, text.size() * 2 / 3));
  expect_show_fails(dir, "rank-00001.p3st:", "truncated");
}

TEST_F(DamagedRun, WrongVersion) {
  fs::path dir = copy("damaged-version");
  fs::path f = core::rank_trace_path(dir, 0);
  std::string text = read(f);
  text.replace(0, 11, "p3s-trace 9");
  write(f, text);
  expect_show_fails(dir, "rank-00000.p3st:1:", "unsupported trace version");
}

TEST_F(DamagedRun, GarbageLine) {
  fs::path dir = copy("damaged-garbage");
  fs::path f = core::rank_trace_path(dir, 1);
  std::string text = read(f);
  text.insert(text.find("\nsend ") + 1, "%%garbage%%\n");
  write(f, text);
  expect_show_fails(dir, "rank-00001.p3st:", "unknown record '%%garbage%%'");
}

TEST_F(DamagedRun, MissingRankFile) {
  fs::path dir = copy("damaged-missing");
  fs::remove(core::rank_trace_path(dir, 1));
  expect_show_fails(dir, "rank-00001.p3st", "rank 1 left no trace");
}

TEST_F(DamagedRun, RankFromAnotherRun) {
  fs::path dir = copy("damaged-mixed");
  fs::path other = scratch_dir("damaged-other");
  ASSERT_EQ(trace_app(other, 3, "app_ring", {"8", "5"}).exit_code, 0);
  fs::copy_file(core::rank_trace_path(other, 1), core::rank_trace_path(dir, 1),
                fs::copy_options::overwrite_existing);
  expect_show_fails(dir, "rank-00001.p3st", "files from different runs");
}

}  // namespace
}  // namespace p3s::testing
