// The ST4NP's text format (generate/st4np_writer, generate/st4np_file): what the writer puts
// down the reader gives back event for event, communicator for communicator, and a file cut
// short or edited is refused naming the file and the line.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "generate/st4np_file.hpp"
#include "generate/st4np_writer.hpp"
#include "sim/synthetic_trace.hpp"

namespace p3s::generate {
namespace {

namespace fs = std::filesystem;

// Four ranks in two rows: a broadcast rooted at a row's second rank on the row's communicator,
// then a persistent exchange with the rank below, whose Startall and Waitall carry requests.
class RowsTrace final : public core::ScaledTrace {
 public:
  int nprocs() const override { return 4; }
  const std::vector<core::ScaledPhase>& phases() const override { return phases_; }
  void phase_events(int phase, int rank, std::vector<core::Event>& out) const override {
    const std::int32_t below = (rank + 2) % 4;
    core::Event e;
    if (phase == 0) {
      e.op = core::Op::Bcast;
      e.comm = 1;
      e.root = rank / 2 * 2 + 1;
      e.bytes = e.rbytes = 4096;
      e.burst_cpu = 1500 + rank;
      out.push_back(e);
      return;
    }
    e.op = core::Op::Startall;
    e.requests = {{.req = 7, .send = true, .peer = below, .tag = 3, .bytes = 800},
                  {.req = 8, .send = false, .peer = below, .tag = 3, .bytes = 800}};
    e.burst_cpu = 250'000;
    out.push_back(e);
    e.op = core::Op::Waitall;
    e.burst_cpu = 0;
    out.push_back(e);
  }
  std::vector<core::Communicator> communicators(int rank) const override {
    const std::int32_t first = rank / 2 * 2;
    return {{0, {0, 1, 2, 3}}, {1, {first, first + 1}}};
  }

 private:
  std::vector<core::ScaledPhase> phases_ = {{"phase 0", 1}, {"phase 3", 2.5e6}};
};

class St4npFormat : public ::testing::Test {
 protected:
  fs::path file_ =
      fs::temp_directory_path() / ("p3s-st4np-test-" + std::to_string(::getpid()) + ".txt");
  void TearDown() override { fs::remove(file_); }

  void write(const core::ScaledTrace& trace) const {
    std::ofstream out(file_);
    write_st4np(trace, out, 0, trace.nprocs() - 1);
  }
};

void expect_same(const core::ScaledTrace& written, const core::ScaledTrace& read) {
  ASSERT_EQ(read.nprocs(), written.nprocs());
  ASSERT_EQ(read.phases().size(), written.phases().size());
  for (std::size_t p = 0; p < written.phases().size(); ++p) {
    EXPECT_EQ(read.phases()[p].name, written.phases()[p].name);
    EXPECT_EQ(read.phases()[p].weight, written.phases()[p].weight);
  }
  for (int r = 0; r < written.nprocs(); ++r) {
    EXPECT_EQ(read.communicators(r), written.communicators(r)) << "rank " << r;
    for (std::size_t p = 0; p < written.phases().size(); ++p) {
      std::vector<core::Event> want, got;
      written.phase_events(static_cast<int>(p), r, want);
      read.phase_events(static_cast<int>(p), r, got);
      EXPECT_EQ(got, want) << "rank " << r << ", phase " << p;
    }
  }
}

TEST_F(St4npFormat, WhatIsWrittenIsReadBack) {
  const sim::StencilTrace stencil(sim::StencilShape{.side = 3, .halo_weight = 37.5});
  write(stencil);
  EXPECT_TRUE(St4npFile::is_st4np(file_));
  expect_same(stencil, St4npFile(file_));

  const RowsTrace rows;
  write(rows);
  expect_same(rows, St4npFile(file_));
}

TEST_F(St4npFormat, AFileCutShortOrEditedIsRefusedNamingItsLine) {
  write(RowsTrace());
  std::ifstream in(file_);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  in.close();
  // `where`: the line the error names, or "" for any.
  const auto refused_at = [&](const std::vector<std::string>& text, const std::string& where) {
    {
      std::ofstream out(file_);
      for (const std::string& line : text) out << line << '\n';
    }
    try {
      St4npFile{file_};
      ADD_FAILURE() << "accepted: " << where;
    } catch (const std::runtime_error& e) {
      const std::string named = file_.string() + (where.empty() ? "" : ":" + where + ":");
      EXPECT_NE(std::string(e.what()).find(named), std::string::npos) << e.what();
    }
  };
  // Without its last line ("end"), and without the last rank's last event
  refused_at({lines.begin(), lines.end() - 1}, std::to_string(lines.size()));
  // (the Waitall and its two request lines)
  std::vector<std::string> short_rank(lines.begin(), lines.end() - 4);
  short_rank.emplace_back("end");
  refused_at(short_rank, "");
  // A header that names fewer ranks than the file holds.
  std::vector<std::string> fewer = lines;
  fewer[2] = "ranks 0 2";
  refused_at(fewer, "3");
  EXPECT_FALSE(St4npFile::is_st4np(fs::path("/nonexistent/st4np.txt")));
}

}  // namespace
}  // namespace p3s::generate
