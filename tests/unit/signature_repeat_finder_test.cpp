#include <gtest/gtest.h>

#include <random>

#include "signature/repeat_finder.hpp"

namespace p3s::signature {
namespace {

using Symbols = std::vector<std::uint32_t>;

Symbols times(const Symbols& body, std::size_t k) {
  Symbols out;
  for (std::size_t i = 0; i < k; ++i) out.insert(out.end(), body.begin(), body.end());
  return out;
}

Symbols cat(std::initializer_list<Symbols> parts) {
  Symbols out;
  for (const Symbols& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// The repeats must cover the input in order, with no gap and no overlap.
void expect_tiling(const std::vector<Repeat>& repeats, std::size_t size) {
  std::size_t next = 0;
  for (const Repeat& r : repeats) {
    EXPECT_EQ(r.first, next);
    next += r.length * r.repeats;
  }
  EXPECT_EQ(next, size);
}

TEST(RepeatFinder, FindsOneLoop) {
  const Symbols s = times({0, 1, 2}, 5);
  EXPECT_EQ(find_repeats(s), (std::vector<Repeat>{{0, 3, 5}}));
}

TEST(RepeatFinder, KeepsPrologueAndEpilogueOutsideTheLoop) {
  const Symbols s = cat({{7, 8}, times({1, 2, 3}, 4), {9}});
  EXPECT_EQ(find_repeats(s), (std::vector<Repeat>{{0, 1, 1}, {1, 1, 1}, {2, 3, 4}, {14, 1, 1}}));
}

TEST(RepeatFinder, BodyHoldingAShortRepeatIsFoundWhole) {
  // A A B, A A B, ...: not "A twice" followed by a misaligned B A A loop.
  const Symbols s = times({0, 0, 1}, 6);
  EXPECT_EQ(find_repeats(s), (std::vector<Repeat>{{0, 3, 6}}));
}

TEST(RepeatFinder, OuterLoopAroundAnInnerLoopIsOnePhase) {
  const Symbols body = cat({{5}, times({1, 2}, 3), {6}});
  const Symbols s = cat({{9}, times(body, 4), {9}});
  EXPECT_EQ(find_repeats(s), (std::vector<Repeat>{{0, 1, 1}, {1, 8, 4}, {33, 1, 1}}));
}

TEST(RepeatFinder, LongInnerLoopStillNestsInsideTheOuterLoop) {
  // The outer period in flat symbols (2 + 2 * 600) is beyond max_period, but after the inner
  // loop becomes one symbol the outer body has 3.
  const Symbols body = cat({{5}, times({1, 2}, 600), {6}});
  const Symbols s = times(body, 3);
  EXPECT_EQ(find_repeats(s, {.max_period = 64}), (std::vector<Repeat>{{0, body.size(), 3}}));
}

TEST(RepeatFinder, TwoLoopsOneAfterTheOther) {
  const Symbols s = cat({times({1, 2}, 3), times({3, 4, 5}, 2)});
  EXPECT_EQ(find_repeats(s), (std::vector<Repeat>{{0, 2, 3}, {6, 3, 2}}));
}

TEST(RepeatFinder, PrologueLikeTheLoopsStartDoesNotStealAnIteration) {
  // An exchange (1 2 3) before a loop of exchange + reduce (1 2 3 4): the loop keeps all of
  // its 5 iterations.
  const Symbols s = cat({{1, 2, 3}, times({1, 2, 3, 4}, 5)});
  EXPECT_EQ(find_repeats(s), (std::vector<Repeat>{{0, 1, 1}, {1, 1, 1}, {2, 1, 1}, {3, 4, 5}}));
}

TEST(RepeatFinder, SameLoopGivesTheSameBodyWhateverComesBefore) {
  const Symbols loop = times({4, 5, 6, 7}, 10);
  for (const Symbols& prologue : {Symbols{}, Symbols{1}, Symbols{1, 2, 3}, Symbols{9, 9}}) {
    const Symbols s = cat({prologue, loop});
    const auto repeats = find_repeats(s);
    ASSERT_FALSE(repeats.empty());
    EXPECT_EQ(repeats.back(), (Repeat{s.size() - loop.size(), 4, 10})) << prologue.size();
  }
}

TEST(RepeatFinder, IrregularInputRepeatsNothing) {
  Symbols s(2000);
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<std::uint32_t>(i);
  std::shuffle(s.begin(), s.end(), std::mt19937(7));
  const auto repeats = find_repeats(s);
  EXPECT_EQ(repeats.size(), s.size());
  for (const Repeat& r : repeats) EXPECT_EQ(r.repeats, 1u);
}

TEST(RepeatFinder, RandomInputIsTiledExactly) {
  std::mt19937 rng(11);
  Symbols s(5000);
  for (auto& x : s) x = static_cast<std::uint32_t>(rng() % 4);
  expect_tiling(find_repeats(s), s.size());
}

TEST(RepeatFinder, EmptyInput) {
  EXPECT_TRUE(find_repeats(Symbols{}).empty());
}

}  // namespace
}  // namespace p3s::signature
