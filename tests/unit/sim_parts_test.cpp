// The simulator's parts that need no SimGrid run: rank placement, SMPI's overhead tables,
// compiling a rank's events.
#include <gtest/gtest.h>

#include <stdexcept>

#include "core/rank_program.hpp"
#include "sim/overhead_table.hpp"
#include "sim/rank_placement.hpp"

namespace p3s::sim {
namespace {

TEST(RankPlacement, OrdersHostNamesAsNumbers) {
  EXPECT_TRUE(natural_less("node-2", "node-10"));
  EXPECT_FALSE(natural_less("node-10", "node-2"));
  EXPECT_TRUE(natural_less("a-009", "a-10"));
  EXPECT_TRUE(natural_less("node-1", "node-1a"));
  EXPECT_FALSE(natural_less("node-1", "node-1"));
}

TEST(RankPlacement, BlockAndCyclic) {
  EXPECT_EQ(place_ranks(6, 4, 2, Mapping::Block), (std::vector<int>{0, 0, 1, 1, 2, 2}));
  EXPECT_EQ(place_ranks(6, 4, 2, Mapping::Cyclic), (std::vector<int>{0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(place_ranks(5, 5, 1, Mapping::Cyclic), (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_THROW(place_ranks(9, 4, 2, Mapping::Block), std::invalid_argument);
}

TEST(OverheadTable, ComputesAsSmpi) {
  // Up to 1000 bytes: 1 us + 1 ns/byte; above: 5 us + 2 ns/byte.
  OverheadTable t("0:1us:1ns;1000:5e-6:2e-9");
  EXPECT_DOUBLE_EQ(t.seconds(0), 1e-6);
  EXPECT_DOUBLE_EQ(t.seconds(500), 1e-6 + 500e-9);
  EXPECT_DOUBLE_EQ(t.seconds(1000), 1e-6 + 1000e-9);
  EXPECT_DOUBLE_EQ(t.seconds(2000), 5e-6 + 4000e-9);
  EXPECT_EQ(OverheadTable("0:0:0:0:0").seconds(1000), 0);
  EXPECT_EQ(OverheadTable().seconds(1000), 0);
  EXPECT_THROW(OverheadTable("0:1"), std::invalid_argument);
  EXPECT_THROW(OverheadTable("x:1:2"), std::invalid_argument);
  EXPECT_THROW(OverheadTable("0:1furlong:2"), std::invalid_argument);
}

TEST(RankProgram, ResolvesWildcardReceivesFromTheirCompletion) {
  core::Event irecv;
  irecv.op = core::Op::Irecv;
  irecv.src = core::kAnySource;
  irecv.rtag = core::kAnyTag;
  irecv.rbytes = 64;
  irecv.req = 4;
  irecv.burst_cpu = 2'000'000;
  core::Event wait;
  wait.op = core::Op::Wait;
  wait.requests = {{4, false, 3, 9, 64}};
  const core::RankProgram p = core::compile_rank_program({irecv, wait}, 2.0);
  ASSERT_EQ(p.steps.size(), 2u);
  EXPECT_EQ(p.steps[0].src, 3);
  EXPECT_EQ(p.steps[0].rtag, 9);
  EXPECT_DOUBLE_EQ(p.steps[0].compute_seconds, 1e-3);
  EXPECT_EQ(p.steps[1].record_count, 1u);
  EXPECT_EQ(p.records.at(p.steps[1].first_record).req, 4);

  core::Event recv;
  recv.op = core::Op::Recv;
  recv.src = core::kAnySource;
  EXPECT_THROW(core::compile_rank_program({recv}, 1.0), std::invalid_argument);
}

}  // namespace
}  // namespace p3s::sim
