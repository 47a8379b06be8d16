#include "core/run_dir.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "core/format_error.hpp"

namespace p3s::core {
namespace {
namespace fs = std::filesystem;

class RunDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("p3s-run-dir-test-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  void write_rank(int rank, int nprocs) {
    std::string text;
    append_header(text, {rank, nprocs, "h", {}, "w", "c", 0, 0});
    std::vector<std::int32_t> world(nprocs);
    for (int i = 0; i < nprocs; ++i) world[i] = i;
    append_comm(text, {0, world});
    append_end(text, TraceEnd::Complete, 0, 0);
    std::ofstream(rank_trace_path(dir_, rank)) << text;
  }

  fs::path dir_;
};

TEST_F(RunDirTest, RunInfoRoundTrips) {
  RunInfo info;
  info.nprocs = 4;
  info.command = {"mpirun", "-np", "4", "./app"};
  info.workload = Workload{"grid", 512};
  info.date = "2026-11-22T12:00:00Z";
  info.host = "node";
  info.wall_clock = "CLOCK_MONOTONIC";
  info.cpu_clock = "CLOCK_THREAD_CPUTIME_ID";
  info.wall_seconds = 1.5;
  write_run_info(dir_, info);
  EXPECT_EQ(read_run_info(dir_), info);
}

TEST_F(RunDirTest, MissingRankIsNamed) {
  write_rank(0, 3);
  write_rank(2, 3);
  try {
    check_rank_files(dir_, 3);
    FAIL() << "missing rank 1 not reported";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("rank-00001.p3st"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("rank 1 left no trace"), std::string::npos) << e.what();
  }
}

TEST_F(RunDirTest, RankFromAnotherRunIsRejected) {
  write_rank(0, 2);
  write_rank(1, 4);  // a file left by a 4-rank run
  RunInfo info;
  info.nprocs = 2;
  read_run_rank(dir_, info, 0);
  EXPECT_THROW(read_run_rank(dir_, info, 1), FormatError);
}

TEST_F(RunDirTest, CorruptRunJsonIsAnError) {
  std::ofstream(dir_ / kRunInfoFile) << "{\"format\": \"p3s-run 1\", \"nprocs\": ";
  EXPECT_THROW(read_run_info(dir_), FormatError);
  std::ofstream(dir_ / kRunInfoFile) << "{\"format\": \"p3s-run 7\"}";
  EXPECT_THROW(read_run_info(dir_), FormatError);
  EXPECT_THROW(read_run_info(dir_ / "nowhere"), FormatError);
}

}  // namespace
}  // namespace p3s::core
