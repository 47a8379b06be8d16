// Sub-communicator rules: which ranks a communicator holds at n, inferred from every rank's
// members at a few n, against communicators built here by hand.
#include <gtest/gtest.h>

#include <functional>

#include "model/communicator_rule.hpp"
#include "model/process_grid.hpp"

namespace p3s::model {
namespace {

// Every rank's members when rank r belongs with the ranks `same(r, q, n)` holds for.
CommunicatorSample sample(
    std::int64_t n, const std::function<bool(std::int64_t, std::int64_t, std::int64_t)>& same) {
  CommunicatorSample s{n, {}};
  for (std::int64_t r = 0; r < n; ++r) {
    std::vector<std::int64_t> members;
    for (std::int64_t q = 0; q < n; ++q) {
      if (same(r, q, n)) members.push_back(q);
    }
    s.members.push_back(members);
  }
  return s;
}

std::int64_t cols(std::int64_t n) {
  return balanced_dims(n, 2)[1];
}

TEST(CommunicatorRule, RowsAndColumnsOfAnMpiDimsCreateGrid) {
  // MPI_Comm_split(color = r / cols) and (color = r % cols), key = r, as app_subcomm does.
  std::vector<CommunicatorSample> rows, columns;
  for (std::int64_t n : {4, 6, 9, 12}) {
    rows.push_back(sample(n, [](auto r, auto q, auto m) { return r / cols(m) == q / cols(m); }));
    columns.push_back(sample(n, [](auto r, auto q, auto m) { return r % cols(m) == q % cols(m); }));
  }
  const auto row = infer_communicator_rule(rows);
  const auto column = infer_communicator_rule(columns);
  ASSERT_TRUE(row && column);
  // 48 ranks make an 8 x 6 grid: rank 13 sits in row 2, column 1.
  EXPECT_EQ(row->members_of(13, 48), (std::vector<std::int64_t>{12, 13, 14, 15, 16, 17}));
  EXPECT_EQ(column->members_of(13, 48), (std::vector<std::int64_t>{1, 7, 13, 19, 25, 31, 37, 43}));
}

TEST(CommunicatorRule, BlocksOfRanksPerNode) {
  std::vector<CommunicatorSample> nodes;
  for (std::int64_t n : {8, 12, 16}) {
    nodes.push_back(sample(n, [](auto r, auto q, auto) { return r / 4 == q / 4; }));
  }
  const auto rule = infer_communicator_rule(nodes);
  ASSERT_TRUE(rule);
  EXPECT_EQ(rule->kind, CommunicatorKind::Blocks);
  EXPECT_EQ(rule->members_of(1021, 1024), (std::vector<std::int64_t>{1020, 1021, 1022, 1023}));
}

TEST(CommunicatorRule, NoRuleForArbitraryGroups) {
  // Ranks grouped by a hash of the rank: no grid, block or stride reproduces it.
  std::vector<CommunicatorSample> groups;
  for (std::int64_t n : {8, 12, 16}) {
    groups.push_back(sample(n, [](auto r, auto q, auto) {
      return (r * 7 + 3) % 5 == (q * 7 + 3) % 5 && (r * r) % 3 == (q * q) % 3;
    }));
  }
  EXPECT_FALSE(infer_communicator_rule(groups).has_value());
}

}  // namespace
}  // namespace p3s::model
