#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "model/integer_formula_fit.hpp"
#include "model/peer_rule.hpp"
#include "model/process_grid.hpp"

namespace p3s::model {
namespace {

std::vector<FormulaSample> values(const std::vector<std::int64_t>& ns,
                                  std::int64_t (*f)(std::int64_t)) {
  std::vector<FormulaSample> out;
  for (std::int64_t n : ns) out.push_back({n, 0, f(n)});
  return out;
}

TEST(IntegerFormula, FitsTheSimplestExactFormula) {
  const std::vector<FormulaBasis> bases = size_bases();
  const auto constant =
      fit_integer_formula(values({4, 9, 16}, [](auto) { return std::int64_t{7}; }), bases);
  ASSERT_TRUE(constant);
  EXPECT_EQ(constant->text(), "7");
  // BT's "n - sqrt(n) + 1" and "2*sqrt(n) - 1" (001 Table 1).
  const auto bt =
      fit_integer_formula(values({16, 36, 64, 81},
                                 [](auto n) {
                                   return n - (n == 16 ? 4 : n == 36 ? 6 : n == 64 ? 8 : 9) + 1;
                                 }),
                          bases);
  ASSERT_TRUE(bt);
  EXPECT_EQ(bt->text(), "n - sqrt(n) + 1");
  EXPECT_EQ(bt->at(4096), 4096 - 64 + 1);
  const auto twice =
      fit_integer_formula(values({16, 36, 64},
                                 [](auto n) {
                                   return std::int64_t{2} * (n == 16 ? 4 : n == 36 ? 6 : 8) - 1;
                                 }),
                          bases);
  ASSERT_TRUE(twice);
  EXPECT_EQ(twice->text(), "2*sqrt(n) - 1");
}

TEST(IntegerFormula, NeedsOneConfirmingRunBeyondItsCoefficients) {
  // Two runs determine c0 + c1*b for any b: without a third nothing confirms the choice.
  EXPECT_FALSE(fit_integer_formula(values({4, 8}, [](auto n) { return n + 3; }), size_bases()));
  EXPECT_TRUE(fit_integer_formula(values({4, 8, 16}, [](auto n) { return n + 3; }), size_bases()));
}

TEST(IntegerFormula, IsUndefinedWhereABasisIsNotAnInteger) {
  const IntegerFormula f{1, {{-1, FormulaBasis::Sqrt}}};
  EXPECT_EQ(f.at(256), -15);
  EXPECT_FALSE(f.try_at(120));
  EXPECT_THROW(f.at(120), std::domain_error);
}

TEST(IntegerFormula, UsesTheSlotIndex) {
  std::vector<FormulaSample> samples;
  for (std::int64_t n : {8, 16, 32}) {
    for (std::int64_t s = 0; s < 3; ++s) samples.push_back({n, s, (std::int64_t{1} << s) + 1});
  }
  EXPECT_FALSE(fit_integer_formula(samples, size_bases()));
  const auto f = fit_integer_formula(samples, size_and_slot_bases());
  ASSERT_TRUE(f);
  EXPECT_EQ(f->text(), "2^s + 1");
}

TEST(ProcessGrid, BalancedDimsMatchOpenMpi) {
  // Values printed by MPI_Dims_create of Open MPI 4.1.4.
  struct Case {
    std::int64_t n;
    std::vector<std::int64_t> dims2;
    std::vector<std::int64_t> dims3;
  };
  const std::vector<Case> cases = {{1, {1, 1}, {1, 1, 1}},         {6, {3, 2}, {3, 2, 1}},
                                   {12, {4, 3}, {3, 2, 2}},        {30, {6, 5}, {5, 3, 2}},
                                   {36, {6, 6}, {4, 3, 3}},        {72, {12, 6}, {6, 4, 3}},
                                   {96, {12, 8}, {6, 4, 4}},       {120, {12, 10}, {6, 5, 4}},
                                   {2310, {66, 35}, {15, 14, 11}}, {4096, {64, 64}, {16, 16, 16}}};
  for (const Case& c : cases) {
    EXPECT_EQ(balanced_dims(c.n, 2), c.dims2) << c.n;
    EXPECT_EQ(balanced_dims(c.n, 3), c.dims3) << c.n;
  }
}

TEST(ProcessGrid, RowAndColumnMajorCoordinates) {
  const ProcessGrid rows({3, 4}, GridOrder::RowMajor);
  EXPECT_EQ(rows.coords_of(7), (GridCoords{1, 3, 0}));
  EXPECT_EQ(rows.rank_of({1, 3, 0}), 7);
  const ProcessGrid columns({3, 4}, GridOrder::ColumnMajor);
  EXPECT_EQ(columns.coords_of(7), (GridCoords{1, 2, 0}));
  EXPECT_EQ(columns.rank_of({1, 2, 0}), 7);
  const ProcessGrid cube({2, 3, 4}, GridOrder::RowMajor);
  for (std::int64_t r = 0; r < 24; ++r) EXPECT_EQ(cube.rank_of(cube.coords_of(r)), r);
  EXPECT_EQ(cube.coords_of(23), (GridCoords{1, 2, 3}));
  EXPECT_FALSE(grid_extent(GridShape::Square, 12));
  EXPECT_EQ(*grid_extent(GridShape::Cube, 27), (std::vector<std::int64_t>{3, 3, 3}));
}

TEST(PeerRule, RefusesAnNItCannotDescribe) {
  const PeerRule square{GridPeerRule{GridShape::Square,
                                     GridOrder::RowMajor,
                                     {IntegerFormula{0, {}}, IntegerFormula{1, {}}},
                                     {false, false}}};
  EXPECT_THROW(square.at(120), std::domain_error);
  const PeerRule reversal{PermutationPeerRule{Permutation::BitReversal}};
  EXPECT_THROW(reversal.at(12), std::domain_error);
  const PeerMap reversed = reversal.at(8);
  EXPECT_EQ(reversed(1), 4);
  EXPECT_EQ(reversed(6), 3);
}

}  // namespace
}  // namespace p3s::model
