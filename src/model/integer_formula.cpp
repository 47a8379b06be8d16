#include "model/integer_formula.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/checked_math.hpp"
#include "core/json_read.hpp"
#include "model/integer_math.hpp"

namespace p3s::model {
namespace {

constexpr std::array<std::string_view, 13> kSymbols = {"n",
                                                       "sqrt(n)",
                                                       "cbrt(n)",
                                                       "cbrt(n)^2",
                                                       "log2(n)",
                                                       "n/2",
                                                       "log2(n)/2",
                                                       "s",
                                                       "2^s",
                                                       "floor(log2(n)/2)",
                                                       "ceil(log2(n)/2)",
                                                       "min(log2(n),2)",
                                                       "min(log2(n),3)"};

std::optional<std::int64_t> half(std::optional<std::int64_t> v) {
  if (!v || *v % 2 != 0) return std::nullopt;
  return *v / 2;
}

}  // namespace

std::string_view basis_symbol(FormulaBasis basis) {
  return kSymbols[static_cast<std::size_t>(basis)];
}

FormulaBasis basis_from_symbol(std::string_view symbol) {
  for (std::size_t i = 0; i < kSymbols.size(); ++i) {
    if (kSymbols[i] == symbol) return static_cast<FormulaBasis>(i);
  }
  throw std::invalid_argument("unknown formula basis '" + std::string(symbol) + "'");
}

std::optional<std::int64_t> basis_value(FormulaBasis basis, std::int64_t n, std::int64_t slot) {
  switch (basis) {
    case FormulaBasis::N:
      return n;
    case FormulaBasis::Sqrt:
      return exact_root(n, 2);
    case FormulaBasis::Cbrt:
      return exact_root(n, 3);
    case FormulaBasis::CbrtSquared: {
      const std::optional<std::int64_t> c = exact_root(n, 3);
      if (!c) return std::nullopt;
      return *c * *c;
    }
    case FormulaBasis::Log2:
      return exact_log2(n);
    case FormulaBasis::HalfN:
      return half(n);
    case FormulaBasis::HalfLog2:
      return half(exact_log2(n));
    case FormulaBasis::Slot:
      return slot;
    case FormulaBasis::Pow2Slot:
      if (slot < 0 || slot > 62) return std::nullopt;
      return std::int64_t{1} << slot;
    case FormulaBasis::FloorHalfLog2:
    case FormulaBasis::CeilHalfLog2: {
      const std::optional<std::int64_t> bits = exact_log2(n);
      if (!bits) return std::nullopt;
      return basis == FormulaBasis::FloorHalfLog2 ? *bits / 2 : (*bits + 1) / 2;
    }
    case FormulaBasis::SplitDims2:
    case FormulaBasis::SplitDims3: {
      const std::optional<std::int64_t> bits = exact_log2(n);
      if (!bits) return std::nullopt;
      return std::min<std::int64_t>(*bits, basis == FormulaBasis::SplitDims2 ? 2 : 3);
    }
  }
  return std::nullopt;
}

bool uses_slot(FormulaBasis basis) {
  return basis == FormulaBasis::Slot || basis == FormulaBasis::Pow2Slot;
}

std::optional<std::int64_t> IntegerFormula::try_at(std::int64_t n, std::int64_t slot) const {
  std::optional<std::int64_t> value = constant;
  for (const FormulaTerm& t : terms) {
    const std::optional<std::int64_t> b = basis_value(t.basis, n, slot);
    if (!b) return std::nullopt;
    // A value that does not fit in 64 bits is not a rank, a distance or a count either.
    const std::optional<std::int64_t> product = core::checked_mul(t.coefficient, *b);
    if (!product) return std::nullopt;
    value = core::checked_add(*value, *product);
    if (!value) return std::nullopt;
  }
  return value;
}

std::int64_t IntegerFormula::at(std::int64_t n, std::int64_t slot) const {
  for (const FormulaTerm& t : terms) {
    if (!basis_value(t.basis, n, slot)) {
      throw std::domain_error(
          fmt::format("{} is not an integer at n = {} (in {})", basis_symbol(t.basis), n, text()));
    }
  }
  const std::optional<std::int64_t> value = try_at(n, slot);
  if (!value) {
    throw std::domain_error(fmt::format("{} overflows 64 bits at n = {}", text(), n));
  }
  return *value;
}

std::string IntegerFormula::text() const {
  std::string out;
  for (const FormulaTerm& t : terms) {
    const std::uint64_t magnitude = core::magnitude(t.coefficient);
    const std::string body = magnitude == 1
                                 ? std::string(basis_symbol(t.basis))
                                 : fmt::format("{}*{}", magnitude, basis_symbol(t.basis));
    if (out.empty()) {
      out = t.coefficient < 0 ? "-" + body : body;
    } else {
      out += (t.coefficient < 0 ? " - " : " + ") + body;
    }
  }
  if (out.empty()) return fmt::format("{}", constant);
  if (constant != 0) {
    out += fmt::format(" {} {}", constant < 0 ? '-' : '+', core::magnitude(constant));
  }
  return out;
}

IntegerFormula negated(IntegerFormula f) {
  f.constant = -f.constant;
  for (FormulaTerm& t : f.terms) t.coefficient = -t.coefficient;
  return f;
}

void to_json(nlohmann::json& out, const IntegerFormula& formula) {
  nlohmann::json terms = nlohmann::json::array();
  for (const FormulaTerm& t : formula.terms) {
    terms.push_back({{"coefficient", t.coefficient}, {"basis", basis_symbol(t.basis)}});
  }
  out = {{"text", formula.text()}, {"constant", formula.constant}, {"terms", std::move(terms)}};
}

void from_json(const nlohmann::json& in, IntegerFormula& formula) {
  formula = IntegerFormula{};
  formula.constant = core::json_integer(in.at("constant"));
  for (const nlohmann::json& t : in.at("terms")) {
    formula.terms.push_back({core::json_integer(t.at("coefficient")),
                             basis_from_symbol(t.at("basis").get<std::string>())});
  }
}

}  // namespace p3s::model
