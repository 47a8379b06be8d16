#include "core/rank_list.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace p3s::core {
namespace {

TEST(RankList, ParsesRangesAndSingles) {
  EXPECT_EQ(parse_rank_list("3,7-9,12"), (std::vector<std::int32_t>{3, 7, 8, 9, 12}));
  EXPECT_EQ(parse_rank_list("0"), (std::vector<std::int32_t>{0}));
}

TEST(RankList, WritesTheShortestForm) {
  std::string out;
  append_rank_list(out, {0, 1, 2, 3, 8, 10, 11});
  EXPECT_EQ(out, "0-3,8,10-11");
}

TEST(RankList, RejectsMalformedText) {
  for (const char* bad : {"", "a", "3-1", "1,", "-2", "1--2"}) {
    EXPECT_THROW(parse_rank_list(bad), std::invalid_argument) << bad;
  }
}

}  // namespace
}  // namespace p3s::core
