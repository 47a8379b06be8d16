#pragma once
// An exact integer function of the process count n (and, for phases whose number of
// communications grows with n, of the slot index s): the parameters of the general equations
// (002 sec. 4.2), such as a peer distance n - sqrt(n) + 1 or an exchanged bit log2(n) - 1.
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace p3s::model {

// The functions a formula combines. Each is an exact integer or undefined at a given n: sqrt(n)
// exists only for squares, so a formula in sqrt(n) cannot be used at n = 120.
enum class FormulaBasis : std::uint8_t {
  N,              // n
  Sqrt,           // sqrt(n)
  Cbrt,           // cbrt(n)
  CbrtSquared,    // cbrt(n)^2, the face of a cube
  Log2,           // log2(n)
  HalfN,          // n/2
  HalfLog2,       // log2(n)/2
  Slot,           // s
  Pow2Slot,       // 2^s
  FloorHalfLog2,  // floor(log2(n)/2): bits of a grid's rows when a power of two is split in two
  CeilHalfLog2,   // ceil(log2(n)/2): bits of its columns
  SplitDims2,     // min(log2(n), 2): dimensions wider than 1 of a power-of-two 2D grid
  SplitDims3,     // min(log2(n), 3): of a 3D one (a halo exchanges along each of them)
};

std::string_view basis_symbol(FormulaBasis basis);        // "sqrt(n)"
FormulaBasis basis_from_symbol(std::string_view symbol);  // throws std::invalid_argument
std::optional<std::int64_t> basis_value(FormulaBasis basis, std::int64_t n, std::int64_t slot);
bool uses_slot(FormulaBasis basis);

struct FormulaTerm {
  std::int64_t coefficient = 0;
  FormulaBasis basis = FormulaBasis::N;
  bool operator==(const FormulaTerm&) const = default;
};

struct IntegerFormula {
  std::int64_t constant = 0;
  std::vector<FormulaTerm> terms;

  // Nothing where a basis is not an integer at n.
  std::optional<std::int64_t> try_at(std::int64_t n, std::int64_t slot = 0) const;
  // Throws std::domain_error, naming the basis, where a basis is not an integer at n.
  std::int64_t at(std::int64_t n, std::int64_t slot = 0) const;
  std::string text() const;  // "n - sqrt(n) + 1", "-1", "2^s"

  bool operator==(const IntegerFormula&) const = default;
};

// -f: every coefficient and the constant negated.
IntegerFormula negated(IntegerFormula f);

void to_json(nlohmann::json& out, const IntegerFormula& formula);
void from_json(const nlohmann::json& in, IntegerFormula& formula);

}  // namespace p3s::model
