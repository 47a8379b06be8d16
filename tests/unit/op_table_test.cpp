// The operation table against what is true independently of it: the trace format's list of
// operations (core/FORMATS.md) and the MPI standard's roots and non-blocking calls.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/op.hpp"

namespace p3s::core {
namespace {

std::vector<Op> all_ops() {
  std::vector<Op> ops;
  for (int i = 0; i < kOpCount; ++i) ops.push_back(static_cast<Op>(i));
  return ops;
}

// The names FORMATS.md lists in its OP row (between backquotes); its lone `i` is the prefix
// of the non-blocking collectives, not a name.
std::vector<std::string> documented_names() {
  std::ifstream in(std::string(P3S_SOURCE_DIR) + "/src/core/FORMATS.md");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| OP |", 0) == 0) break;
  }
  std::vector<std::string> names;
  bool quoted = false;
  std::string part;
  for (char c : line) {
    if (c == '`') {
      if (quoted) {
        std::istringstream words(part);
        for (std::string w; words >> w;) {
          if (w != "i") names.push_back(w);
        }
      }
      part.clear();
      quoted = !quoted;
    } else if (quoted) {
      part += c;
    }
  }
  return names;
}

TEST(OpTable, EveryDocumentedNameIsAnOpAndEveryOpIsDocumented) {
  const std::vector<std::string> documented = documented_names();
  ASSERT_GT(documented.size(), 40u) << "no OP row found in FORMATS.md";
  std::set<std::string> expected(documented.begin(), documented.end());
  // FORMATS.md names the non-blocking collectives as the i-prefixed collectives.
  for (const std::string& name : documented) {
    auto op = op_from_name(name);
    ASSERT_TRUE(op) << name;
    EXPECT_EQ(op_name(*op), name);
    if (op_kind(*op) == OpKind::Collective) expected.insert("i" + name);
  }
  std::set<std::string> table;
  for (Op op : all_ops()) table.insert(std::string(op_name(op)));
  EXPECT_EQ(table, expected);
  EXPECT_EQ(table.size(), static_cast<std::size_t>(kOpCount)) << "a name used twice";
}

TEST(OpTable, KindsFollowTheFormatsGroups) {
  EXPECT_EQ(op_kind(Op::Send), OpKind::PointToPoint);
  EXPECT_EQ(op_kind(Op::Iprobe), OpKind::PointToPoint);
  EXPECT_EQ(op_kind(Op::Waitsome), OpKind::Completion);
  EXPECT_EQ(op_kind(Op::Startall), OpKind::Persistent);
  EXPECT_EQ(op_kind(Op::ReduceScatterBlock), OpKind::Collective);
  EXPECT_EQ(op_kind(Op::Iexscan), OpKind::Collective);
  EXPECT_EQ(op_kind(Op::DistGraphCreate), OpKind::CommCreate);
  EXPECT_EQ(op_kind(Op::Finalize), OpKind::Finalize);
}

// MPI-4.0: the collectives with a root argument, and the calls that return a request.
TEST(OpTable, RootsAndNonBlockingCallsAreTheStandards) {
  const std::set<std::string> rooted = {"bcast",   "reduce",   "gather",   "gatherv",
                                        "scatter", "scatterv", "ibcast",   "ireduce",
                                        "igather", "igatherv", "iscatter", "iscatterv"};
  for (Op op : all_ops()) {
    const std::string name(op_name(op));
    EXPECT_EQ(is_rooted(op), rooted.count(name) == 1) << name;
    const bool returns_request = name == "isend" || name == "issend" || name == "irecv" ||
                                 name == "start" || name == "startall" ||
                                 (op_kind(op) == OpKind::Collective && name[0] == 'i');
    EXPECT_EQ(is_nonblocking(op), returns_request) << name;
  }
}

TEST(OpTable, NonBlockingCollectivesHaveTheirBlockingFormAndItsTiAction) {
  for (Op op : all_ops()) {
    const std::string name(op_name(op));
    if (op_kind(op) != OpKind::Collective || !is_nonblocking(op)) {
      EXPECT_EQ(blocking_form(op), op) << name;
      continue;
    }
    EXPECT_EQ("i" + std::string(op_name(blocking_form(op))), name);
    EXPECT_EQ(ti_action_name(op), ti_action_name(blocking_form(op))) << name;
  }
  // SimGrid 3.32's names (smpi_replay.cpp), and none for alltoallw.
  EXPECT_EQ(ti_action_name(Op::Allreduce), "allreduce");
  EXPECT_EQ(ti_action_name(Op::ReduceScatterBlock), "reducescatter");
  EXPECT_EQ(ti_action_name(Op::Alltoallw), "");
  EXPECT_EQ(ti_action_name(Op::Send), "");
}

TEST(OpTable, PerMemberBytesAreTheStandardsCountsPerProcess) {
  // The MPI standard's counts that are per process of the communicator: both of an alltoall's,
  // the receive count of a gather or an allgather (each process's block), the send count of a
  // scatter, and a reduce_scatter's blocks (the send buffer holds one per process).
  const std::set<std::string> send = {
      "scatter",  "scatterv",  "reduce_scatter", "reduce_scatter_block",
      "alltoall", "alltoallv", "alltoallw"};
  const std::set<std::string> receive = {"gather",   "gatherv",   "allgather", "allgatherv",
                                         "alltoall", "alltoallv", "alltoallw"};
  for (Op op : all_ops()) {
    const std::string name(op_name(blocking_form(op)));
    EXPECT_EQ(bytes_per_member(op, false), send.count(name) == 1) << op_name(op);
    EXPECT_EQ(bytes_per_member(op, true), receive.count(name) == 1) << op_name(op);
  }
}

}  // namespace
}  // namespace p3s::core
