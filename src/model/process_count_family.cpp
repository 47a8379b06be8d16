#include "model/process_count_family.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "model/integer_math.hpp"

namespace p3s::model {
namespace {

struct KindInfo {
  ProcessCountKind kind;
  std::string_view name;
  std::string_view index_symbol;
};

// Narrowest first: the order families_containing() reports them in.
constexpr std::array<KindInfo, 4> kKinds = {{
    {ProcessCountKind::PowersOfTwo, "powers_of_two", "log2(n)"},
    {ProcessCountKind::Cubes, "cubes", "cbrt(n)"},
    {ProcessCountKind::Squares, "squares", "sqrt(n)"},
    {ProcessCountKind::Any, "any", "n"},
}};

const KindInfo& info(ProcessCountKind kind) {
  for (const KindInfo& k : kKinds) {
    if (k.kind == kind) return k;
  }
  throw std::logic_error("unknown process count kind");
}

}  // namespace

double ProcessCountFamily::index_of(double n) const {
  switch (kind) {
    case ProcessCountKind::Squares:
      return std::sqrt(n);
    case ProcessCountKind::Cubes:
      return std::cbrt(n);
    case ProcessCountKind::PowersOfTwo:
      return std::log2(n);
    case ProcessCountKind::Any:
      break;
  }
  return n;
}

std::int64_t ProcessCountFamily::value_at(std::int64_t index) const {
  switch (kind) {
    case ProcessCountKind::Squares:
      return index * index;
    case ProcessCountKind::Cubes:
      return index * index * index;
    case ProcessCountKind::PowersOfTwo:
      return std::int64_t{1} << index;
    case ProcessCountKind::Any:
      break;
  }
  return index;
}

bool ProcessCountFamily::contains(std::int64_t n) const {
  if (n < 1) return false;
  switch (kind) {
    case ProcessCountKind::Squares:
      return exact_root(n, 2).has_value();
    case ProcessCountKind::Cubes:
      return exact_root(n, 3).has_value();
    case ProcessCountKind::PowersOfTwo:
      return std::has_single_bit(static_cast<std::uint64_t>(n));
    case ProcessCountKind::Any:
      break;
  }
  return true;
}

std::string_view ProcessCountFamily::name() const {
  return info(kind).name;
}
std::string_view ProcessCountFamily::index_symbol() const {
  return info(kind).index_symbol;
}

ProcessCountFamily process_count_family_from_name(std::string_view name) {
  for (const KindInfo& k : kKinds) {
    if (k.name == name) return {k.kind};
  }
  throw std::invalid_argument("unknown process count family '" + std::string(name) + "'");
}

std::vector<ProcessCountFamily> families_containing(std::span<const std::int64_t> counts) {
  std::vector<ProcessCountFamily> found;
  for (const KindInfo& k : kKinds) {
    ProcessCountFamily family{k.kind};
    bool all = true;
    for (std::int64_t n : counts) all = all && family.contains(n);
    if (all) found.push_back(family);
  }
  return found;
}

void to_json(nlohmann::json& out, const ProcessCountFamily& family) {
  out = family.name();
}

void from_json(const nlohmann::json& in, ProcessCountFamily& family) {
  family = process_count_family_from_name(in.get<std::string>());
}

}  // namespace p3s::model
