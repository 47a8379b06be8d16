#pragma once
// Finds the general equation of a parameter from its local values: the simplest integer
// combination of basis functions that reproduces every observed value exactly.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "model/integer_formula.hpp"

namespace p3s::model {

struct FormulaSample {
  std::int64_t n = 0;
  std::int64_t slot = 0;
  std::int64_t value = 0;
};

// Functions of n alone, in the order they are preferred when several fit.
std::vector<FormulaBasis> size_bases();
// size_bases() plus the slot index, for phases whose communications grow with n.
std::vector<FormulaBasis> size_and_slot_bases();

// Tries a constant, then c0 + c1*b, then c0 + c1*b1 + c2*b2 (up to max_terms bases), and
// returns the first whose integer coefficients reproduce every sample exactly. A formula is
// only accepted when at least one sample more than it has coefficients confirms it, so a
// formula is never merely interpolated. Nothing when no formula fits.
std::optional<IntegerFormula> fit_integer_formula(std::span<const FormulaSample> samples,
                                                  std::span<const FormulaBasis> bases,
                                                  int max_terms = 2);

}  // namespace p3s::model
