// The SimGrid TI import on hand-written traces: SMPI's file quirks, every action family, and
// the errors that name file and line.
#include "ti/ti_import.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "core/format_error.hpp"
#include "core/smpi_datatype.hpp"

namespace p3s::ti {
namespace {
namespace fs = std::filesystem;

class TiImportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("p3s-ti-import-test-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "elsewhere");
  }
  void TearDown() override { fs::remove_all(dir_); }

  void write(const fs::path& relative, const std::string& text) {
    fs::create_directories((dir_ / relative).parent_path());
    std::ofstream(dir_ / relative, std::ios::binary) << text;
  }

  // A list in dir_ naming one rank file per text, as SMPI does for tracing/filename:t.txt.
  fs::path write_run(const std::vector<std::string>& ranks) {
    std::string list;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      std::string name = "t.txt_files/17.5_rank-" + std::to_string(i + 1) + ".txt";
      write(name, ranks[i]);
      list += name + "\n";
    }
    write("t.txt", list);
    return dir_ / "t.txt";
  }

  TiImport import(const fs::path& list, double flops_per_second = 1e9) {
    return import_ti(list, {flops_per_second, std::nullopt, dir_ / "elsewhere"});
  }

  // The error text of importing `list`, which must fail.
  std::string error_of(const fs::path& list) {
    try {
      import(list);
    } catch (const core::FormatError& e) {
      return e.what();
    }
    ADD_FAILURE() << "import of " << list << " did not fail";
    return "";
  }

  // One rank's trace of a two-rank run whose rank 1 is trivial.
  TiImport import_rank0(const std::string& body) {
    return import(write_run({"0 init\n" + body + "0 finalize\n", "1 init\n1 finalize\n"}));
  }

  fs::path dir_;
};

TEST_F(TiImportTest, RelativeEntriesAreFoundBesideTheList) {
  TiImport t = import(write_run({"0 init\n0 finalize\n", "1 init\n1 finalize\n"}));
  EXPECT_EQ(t.info.nprocs, 2);
  EXPECT_FALSE(t.shared_file);
  EXPECT_EQ(t.ranks[1].rank, 1);
}

TEST_F(TiImportTest, RelativeEntriesFallBackToTheCurrentDirectory) {
  // Recorded from elsewhere/: the names are relative to it, not to the list.
  write("elsewhere/run/a_rank-1.txt", "0 init\n0 finalize\n");
  write("lists/run.txt", "run/a_rank-1.txt\n");
  EXPECT_EQ(import(dir_ / "lists/run.txt").info.nprocs, 1);
}

TEST_F(TiImportTest, RelativeEntriesFallBackToTheFilesDirectoryBesideTheList) {
  // smpirun ran in the parent of deep/ with tracing/filename:deep/t.txt, then deep/ moved.
  write("moved/t.txt_files/1_rank-1.txt", "0 init\n0 finalize\n");
  write("moved/t.txt", "deep/t.txt_files/1_rank-1.txt\n");
  EXPECT_EQ(import(dir_ / "moved/t.txt").info.nprocs, 1);
}

TEST_F(TiImportTest, MissingRankFileNamesEveryPathTried) {
  write("t2.txt", "gone/x_rank-1.txt\n");
  std::string error = error_of(dir_ / "t2.txt");
  EXPECT_NE(error.find("t2.txt:1"), std::string::npos) << error;
  EXPECT_NE(error.find((dir_ / "gone/x_rank-1.txt").string()), std::string::npos) << error;
  EXPECT_NE(error.find((dir_ / "elsewhere/gone/x_rank-1.txt").string()), std::string::npos)
      << error;
}

TEST_F(TiImportTest, RankFilesAreNumberedFromOne) {
  // List entry 2 (SMPI's rank-2 file) must hold rank 1.
  fs::path list = write_run({"0 init\n0 finalize\n", "0 init\n0 finalize\n"});
  std::string error = error_of(list);
  EXPECT_NE(error.find("17.5_rank-2.txt:1"), std::string::npos) << error;
  EXPECT_NE(error.find("from 1"), std::string::npos) << error;
}

TEST_F(TiImportTest, LastLineMayLackItsNewlineAndBlanksTrail) {
  TiImport t = import(
      write_run({"0 init\n0 bcast 4 0 1 \n0 finalize", "1 init\n1 bcast 4 0 1 \n1 finalize"}));
  ASSERT_EQ(t.ranks[0].events.size(), 2u);
  EXPECT_EQ(t.ranks[0].events[1].op, core::Op::Finalize);
}

TEST_F(TiImportTest, OneSharedFileHoldsEveryRank) {
  write("one.txt_files/9_rank-1.txt",
        "0 init\n1 init\n1 send 0 3 2 0\n0 recv 1 3 2 0\n1 finalize\n0 finalize\n");
  write("one.txt", "one.txt_files/9_rank-1.txt\n");
  TiImport t = import(dir_ / "one.txt");
  EXPECT_TRUE(t.shared_file);
  ASSERT_EQ(t.info.nprocs, 2);
  EXPECT_EQ(t.ranks[1].events[0].op, core::Op::Send);
  EXPECT_EQ(t.ranks[1].events[0].dst, 0);
  EXPECT_EQ(t.ranks[0].events[0].src, 1);
  EXPECT_EQ(t.ranks[0].events[0].rbytes, 16);
}

TEST_F(TiImportTest, UnknownActionIsAnErrorAtItsLine) {
  std::string error = error_of(write_run({"0 init\n0 frobnicate 1 2\n0 finalize\n"}));
  EXPECT_NE(error.find("17.5_rank-1.txt:2"), std::string::npos) << error;
  EXPECT_NE(error.find("'frobnicate'"), std::string::npos) << error;
}

TEST_F(TiImportTest, MalformedArgumentsAreErrorsAtTheirLine) {
  for (const char* line :
       {"0 send 1 0\n", "0 send x 0 4 1\n", "0 send 7 0 4 1\n", "0 send 1 0 4 99\n",
        "0 compute -3\n", "0 gatherv 1 0 0 1 1\n", "0 wait 0 1\n"}) {
    SCOPED_TRACE(line);
    std::string error = error_of(
        write_run({std::string("0 init\n") + line + "0 finalize\n", "1 init\n1 finalize\n"}));
    EXPECT_NE(error.find("17.5_rank-1.txt:2"), std::string::npos) << error;
  }
}

TEST_F(TiImportTest, WhatTheTraceHasLostIsAnError) {
  EXPECT_NE(error_of(write_run({"0 init\n0 send 0 1 2 -1\n0 finalize\n"})).find("derived datatype"),
            std::string::npos);
  EXPECT_NE(error_of(write_run({"0 init\n0 Startall\n0 finalize\n"})).find("Startall"),
            std::string::npos);
  EXPECT_NE(
      error_of(write_run({"0 init\n0 reducescatter 0 0 1 \n0 finalize\n", "1 init\n1 finalize\n"}))
          .find("Reduce_scatter_block"),
      std::string::npos);
  EXPECT_NE(error_of(write_run({"0 init\n0 barrier\n"})).find("without 'finalize'"),
            std::string::npos);
  EXPECT_NE(error_of(write_run({"0 barrier\n0 init\n0 finalize\n"})).find("before 'init'"),
            std::string::npos);
}

TEST_F(TiImportTest, ComputeBecomesBurstsAndTimesAreSynthetic) {
  // 2e6 flops at 1e9 flops/s = 2 ms of CPU; sleep adds wall time only; location is ignored.
  TiImport t = import_rank0(
      "0 location app.c 12\n0 compute 2e+06\n0 barrier\n0 compute 1000\n0 sleep 0.5\n0 barrier\n");
  const core::RankTrace& r = t.ranks[0];
  ASSERT_EQ(r.events.size(), 3u);
  EXPECT_EQ(r.events[0].burst_cpu, 2'000'000);
  EXPECT_EQ(r.events[0].t_start, 2'000'000);
  EXPECT_EQ(r.events[0].t_end, r.events[0].t_start);
  EXPECT_EQ(r.events[1].burst_cpu, 1'000);
  EXPECT_EQ(r.burst_wall(1), 500'001'000);
  EXPECT_EQ(r.events[2].op, core::Op::Finalize);
  EXPECT_EQ(r.wall_clock, "synthetic");
  EXPECT_EQ(r.cpu_clock, "flops/1e+09");
  EXPECT_EQ(t.info.cpu_clock, "flops/1e+09");
  EXPECT_EQ(t.info.source, "smpi-ti");
  EXPECT_DOUBLE_EQ(t.info.wall_seconds, 0.502001);
}

TEST_F(TiImportTest, CountsBecomeBytesByDatatype) {
  // 10 MPI_INT, 3 MPI_DOUBLE, 5 MPI_CHAR; without a type, bytes (or doubles after 'init ANY').
  TiImport t = import_rank0("0 send 1 5 10 1\n0 recv 1 5 3 0\n0 isend 1 6 5 2\n0 send 1 7 9\n");
  const auto& e = t.ranks[0].events;
  EXPECT_EQ(e[0].bytes, 40);
  EXPECT_EQ(e[1].rbytes, 24);
  EXPECT_EQ(e[2].bytes, 5);
  EXPECT_EQ(e[3].bytes, 9);
  TiImport mpe =
      import(write_run({"0 init mpe\n0 send 1 7 9\n0 finalize\n", "1 init\n1 finalize\n"}));
  EXPECT_EQ(mpe.ranks[0].events[0].bytes, 72);
  EXPECT_EQ(core::smpi_datatype_size("50"), 32);  // MPI_LONG_DOUBLE_INT
  EXPECT_FALSE(core::smpi_datatype_size("51"));   // a C++ type SMPI 3.32 does not define
}

TEST_F(TiImportTest, WildcardsAndProcNull) {
  TiImport t = import_rank0("0 recv -333 -444 1 1\n0 send -333 4 1 1\n0 sendRecv 2 1 3 -333 1 1\n");
  const auto& e = t.ranks[0].events;
  EXPECT_EQ(e[0].src, core::kAnySource);
  EXPECT_EQ(e[0].rtag, core::kAnyTag);
  EXPECT_EQ(e[1].dst, core::kNone);  // MPI_PROC_NULL
  EXPECT_EQ(e[1].bytes, 0);
  EXPECT_EQ(e[2].dst, 1);
  EXPECT_EQ(e[2].bytes, 8);
  EXPECT_EQ(e[2].src, core::kAnySource);
  EXPECT_EQ(e[2].rbytes, 12);
  EXPECT_EQ(e[2].tag, core::kNone);
}

TEST_F(TiImportTest, WaitsCompleteTheRequestsTheyName) {
  TiImport t = import_rank0(
      "0 irecv 1 7 3 0\n0 isend 1 7 3 0\n0 wait 0 1 7\n0 wait 1 0 7\n"  // named by src dst tag
      "0 irecv -333 8 4 0\n0 isend 1 8 4 0\n0 waitall 2\n"              // all pending
      "0 irecv 1 9 4 0\n0 isend 1 9 4 0\n0 waitAny 2\n0 waitAny 2\n"    // oldest first
      "0 wait 1 0 99\n");                                               // nothing pending: nothing
  const auto& e = t.ranks[0].events;
  ASSERT_EQ(e.size(), 13u);
  EXPECT_EQ(e[0].req, 0);
  EXPECT_EQ(e[2].requests, (std::vector<core::RequestRecord>{{1, true, 1, 7, 24}}));
  EXPECT_EQ(e[3].requests, (std::vector<core::RequestRecord>{{0, false, 1, 7, 24}}));
  EXPECT_EQ(e[6].requests, (std::vector<core::RequestRecord>{{2, false, core::kAnySource, 8, 32},
                                                             {3, true, 1, 8, 32}}));
  EXPECT_EQ(e[9].requests, (std::vector<core::RequestRecord>{{4, false, 1, 9, 32}}));
  EXPECT_EQ(e[10].requests, (std::vector<core::RequestRecord>{{5, true, 1, 9, 32}}));
  EXPECT_TRUE(e[11].requests.empty());
}

TEST_F(TiImportTest, TestCompletesItsRequestWhenNothingLaterDoes) {
  // SMPI writes no wait for a request a test completed.
  TiImport t = import_rank0(
      "0 irecv 1 3 1 1\n0 test 1 0 3\n0 test 1 0 3\n0 isend 1 4 1 1\n0 test 0 1 4\n0 wait 0 1 4\n");
  const auto& e = t.ranks[0].events;
  EXPECT_TRUE(e[1].requests.empty());
  EXPECT_EQ(e[2].requests, (std::vector<core::RequestRecord>{{0, false, 1, 3, 4}}));
  EXPECT_TRUE(e[4].requests.empty());
  EXPECT_EQ(e[5].requests, (std::vector<core::RequestRecord>{{1, true, 1, 4, 4}}));
}

TEST_F(TiImportTest, PersistentStartsBecomeNonBlockingCalls) {
  // Start writes the request's destination (this rank for a receive) and its size in bytes;
  // the wait names the receive's source.
  TiImport t = import_rank0("0 Start 0 29 16 1\n0 Start 1 29 16 1\n0 wait 1 0 29\n0 wait 0 1 29\n");
  const auto& e = t.ranks[0].events;
  EXPECT_EQ(e[0].op, core::Op::Irecv);
  EXPECT_EQ(e[0].src, core::kAnySource);
  EXPECT_EQ(e[0].rbytes, 16);
  EXPECT_EQ(e[1].op, core::Op::Isend);
  EXPECT_EQ(e[1].dst, 1);
  EXPECT_EQ(e[1].bytes, 16);
  EXPECT_EQ(e[2].requests, (std::vector<core::RequestRecord>{{0, false, 1, 29, 16}}));
}

TEST_F(TiImportTest, CollectivesCarryBytesAndRoots) {
  // Rank 0 of 2; MPI_INT (4 bytes) throughout. SMPI leaves out a RECVCOUNT of 0.
  TiImport t = import_rank0(
      "0 bcast 6 1 1 \n0 reduce 2 0 1 1 \n0 allreduce 3 0 1 \n0 gather 3 3 0 1 1\n0 gather 3 1 1 "
      "1\n"
      "0 gatherv 1 1 2 0 1 1\n0 gather 0 3 0 1 1\n0 gatherv 0 1 2 0 1 1\n0 scatter 3 3 0 1 1\n0 "
      "scatterv 0 0 1 1 1 1\n0 allgather 2 2 1 1\n"
      "0 alltoall 2 2 1 1\n0 alltoallv 3 1 2 4 2 2 1 1\n0 allgatherv 1 1 2 1 1\n"
      "0 reducescatter 1 2 0 1\n0 scan 2 0 1 \n0 barrier\n0 ibcast 7 0 1 \n0 waitall 1\n");
  struct Expect {
    core::Op op;
    std::int64_t bytes, rbytes;
    std::int32_t root;
  };
  const std::vector<Expect> expected = {{core::Op::Bcast, 24, 24, 1},
                                        {core::Op::Reduce, 8, 8, 1},
                                        {core::Op::Allreduce, 12, 12, core::kNone},
                                        {core::Op::Gather, 12, 24, 0},
                                        {core::Op::Gather, 12, 0, 1},
                                        {core::Op::Gatherv, 4, 12, 0},
                                        {core::Op::Gather, 12, 24, 0},
                                        {core::Op::Gatherv, 4, 12, 0},  // MPI_IN_PLACE at the root
                                        {core::Op::Scatter, 24, 12, 0},
                                        {core::Op::Scatterv, 0, 4, 1},
                                        {core::Op::Allgather, 8, 16, core::kNone},
                                        {core::Op::Alltoall, 16, 16, core::kNone},
                                        {core::Op::Alltoallv, 12, 16, core::kNone},
                                        {core::Op::Allgatherv, 4, 12, core::kNone},
                                        {core::Op::ReduceScatter, 12, 4, core::kNone},
                                        {core::Op::Scan, 8, 8, core::kNone},
                                        {core::Op::Barrier, 0, 0, core::kNone},
                                        {core::Op::Ibcast, 28, 28, 0}};
  const auto& e = t.ranks[0].events;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    SCOPED_TRACE(core::op_name(expected[i].op));
    EXPECT_EQ(e[i].op, expected[i].op);
    EXPECT_EQ(e[i].bytes, expected[i].bytes);
    EXPECT_EQ(e[i].rbytes, expected[i].rbytes);
    EXPECT_EQ(e[i].root, expected[i].root);
    EXPECT_EQ(e[i].comm, 0);
  }
  EXPECT_EQ(e[17].req, 0);
  EXPECT_EQ(e[18].requests,
            (std::vector<core::RequestRecord>{{0, true, core::kNone, core::kNone, 28}}));
}

TEST_F(TiImportTest, WrittenRunReadsBackStrictly) {
  TiImport t = import(
      write_run(
          {"0 init\n0 compute 5\n0 irecv -333 1 2 1\n0 send 1 1 2 1\n0 wait -333 0 1\n0 finalize\n",
           "1 init\n1 irecv 0 1 2 1\n1 send 0 1 2 1\n1 waitall 1\n1 finalize\n"}),
      20000);
  fs::path run = dir_ / "run";
  fs::create_directories(run);
  write_ti_import(run, t);
  core::RunInfo info = core::read_run_info(run);
  EXPECT_EQ(info, t.info);
  EXPECT_EQ(info.command[0], "smpirun-ti");
  core::check_rank_files(run, 2);
  core::RankTrace r0 = read_run_rank(run, info, 0);
  EXPECT_EQ(r0.events, t.ranks[0].events);
  EXPECT_EQ(r0.comms, (std::vector<core::Communicator>{{0, {0, 1}}, {1, {0}}}));
  EXPECT_EQ(r0.events[0].burst_cpu, 250'000);
}

}  // namespace
}  // namespace p3s::ti
