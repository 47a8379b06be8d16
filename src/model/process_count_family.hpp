#pragma once
// The process counts an application accepts (squares, cubes, powers of two, any). Weights are
// linearised by displacement (001 sec. 3.3.1): n is replaced by its index in this family, which
// makes the gaps between the runs' counts uniform.
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace p3s::model {

enum class ProcessCountKind : std::uint8_t { Any, Squares, Cubes, PowersOfTwo };

struct ProcessCountFamily {
  ProcessCountKind kind = ProcessCountKind::Any;

  // The displacement of n: its root for squares and cubes, log2 for powers of two, n itself
  // for any count. Defined for every n >= 1 (not only members), so a fit in the index can be
  // evaluated anywhere.
  double index_of(double n) const;
  // The member whose index is `index` (index >= 1; >= 0 for powers of two).
  std::int64_t value_at(std::int64_t index) const;
  bool contains(std::int64_t n) const;

  std::string_view name() const;          // "squares"
  std::string_view index_symbol() const;  // "sqrt(n)", how the index reads in an equation

  bool operator==(const ProcessCountFamily&) const = default;
};

// Throws std::invalid_argument for an unknown name.
ProcessCountFamily process_count_family_from_name(std::string_view name);

// Every family, narrowest first, that holds all of `counts` (Any always does).
std::vector<ProcessCountFamily> families_containing(std::span<const std::int64_t> counts);

void to_json(nlohmann::json& out, const ProcessCountFamily& family);
void from_json(const nlohmann::json& in, ProcessCountFamily& family);

}  // namespace p3s::model
