// Every rule and fit must read back exactly what was written, and say it in words too.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <vector>

#include "model/peer_inference.hpp"
#include "model/scaling_model_search.hpp"
#include "model/slot_sequence.hpp"

namespace p3s::model {
namespace {

template <class T>
T round_trip(const T& value) {
  // Through text, as the model file will be.
  return nlohmann::json::parse(nlohmann::json(value).dump()).get<T>();
}

TEST(ModelJson, ScalingFitsRoundTripExactly) {
  std::vector<ScalingPoint> noisy;
  std::vector<ScalingPoint> weights;
  const double wobble[] = {0.013, -0.007, 0.011, -0.019, 0.004};
  const double counts[] = {4, 9, 16, 25, 36};
  for (int i = 0; i < 5; ++i) {
    noisy.push_back({counts[i], 1e6 / std::sqrt(counts[i]) * (1 + wobble[i]) + 10});
    weights.push_back({counts[i], 1001 * std::sqrt(counts[i]) - 1001});
  }
  ScalingFitOptions displacement;
  displacement.displacement_families = {{ProcessCountKind::Squares}};
  const std::vector<ScalingFit> fits = {
      fit_scaling_model(noisy), fit_scaling_model(weights, displacement),
      fit_scaling_model(std::vector<ScalingPoint>{{4, 4096}, {8, 4096}}),
      fit_scaling_model(std::vector<ScalingPoint>{{4, 1e8 * std::pow(4, -0.482)},
                                                  {8, 1e8 * std::pow(8, -0.482)},
                                                  {16, 1e8 * std::pow(16, -0.482)},
                                                  {32, 1e8 * std::pow(32, -0.482)}})};
  for (const ScalingFit& fit : fits) {
    EXPECT_EQ(round_trip(fit), fit) << nlohmann::json(fit).dump();
    EXPECT_EQ(nlohmann::json(fit)["equation"], fit.equation());
  }
  const nlohmann::json weight = fits[1];
  EXPECT_EQ(weight["form"], "displacement");
  EXPECT_EQ(weight["family"], "squares");
  EXPECT_EQ(weight["equation"], "1001 * sqrt(n) - 1001");
}

TEST(ModelJson, PeerRulesRoundTripExactly) {
  const IntegerFormula bt{1, {{1, FormulaBasis::N}, {-1, FormulaBasis::Sqrt}}};
  const std::vector<PeerRule> rules = {
      {NoPeerRule{}},
      {FixedPeerRule{IntegerFormula{-1, {{1, FormulaBasis::N}}}, true}},
      {ShiftPeerRule{bt, false}},
      {ShiftPeerRule{IntegerFormula{-1, {}}, true}},
      {XorPeerRule{IntegerFormula{0, {{1, FormulaBasis::Slot}}}}},
      {PermutationPeerRule{Permutation::RotateRight}},
      {GridPeerRule{GridShape::Balanced3D,
                    GridOrder::ColumnMajor,
                    {IntegerFormula{1, {}}, IntegerFormula{0, {}}, IntegerFormula{-1, {}}},
                    {true, false, true}}},
  };
  for (const PeerRule& rule : rules) {
    EXPECT_EQ(round_trip(rule), rule) << nlohmann::json(rule).dump();
  }
  const nlohmann::json shift = rules[2];
  EXPECT_EQ(shift["kind"], "shift");
  EXPECT_EQ(shift["text"], "peer = r + (n - sqrt(n) + 1), none outside 0..n-1");
  EXPECT_EQ(shift["distance"]["text"], "n - sqrt(n) + 1");
  EXPECT_THROW(nlohmann::json::parse(R"({"kind": "spiral"})").get<PeerRule>(),
               std::invalid_argument);
}

TEST(ModelJson, SlotSequencesAndReportsRoundTrip) {
  const SlotSequenceModel butterfly{
      {PeerRule{XorPeerRule{IntegerFormula{0, {{1, FormulaBasis::Slot}}}}}}};
  EXPECT_EQ(round_trip(butterfly), butterfly);
  const SlotLayout layout{4,
                          {SlotBlock{1, 1, IntegerFormula{0, {{1, FormulaBasis::Log2}}}, {}},
                           SlotBlock{2, 2, IntegerFormula{-1, {{1, FormulaBasis::Sqrt}}},
                                     IntegerFormula{-4, {{1, FormulaBasis::Sqrt}}}}}};
  EXPECT_EQ(round_trip(layout), layout);

  PeerRuleInference report;
  report.closest = "peer = (r + 1) mod n";
  report.reason = "the closest rule differs from the runs at 3 of 12 rank peers";
  report.mismatches = {{4, 0, 2, 0, 3}, {8, 0, 5, kNoPeer, 6}};
  report.mismatch_count = 3;
  report.checked_count = 12;
  EXPECT_EQ(round_trip(report), report);
  report.rule = PeerRule{NoPeerRule{}};
  EXPECT_EQ(round_trip(report), report);
}

}  // namespace
}  // namespace p3s::model
