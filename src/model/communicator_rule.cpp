#include "model/communicator_rule.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "model/integer_formula_fit.hpp"

namespace p3s::model {
namespace {

std::string_view kind_name(CommunicatorKind kind) {
  switch (kind) {
    case CommunicatorKind::GridSlice:
      return "grid_slice";
    case CommunicatorKind::Blocks:
      return "blocks";
    case CommunicatorKind::Strides:
      return "strides";
  }
  return "?";
}

CommunicatorKind kind_from_name(std::string_view name) {
  for (CommunicatorKind k :
       {CommunicatorKind::GridSlice, CommunicatorKind::Blocks, CommunicatorKind::Strides}) {
    if (kind_name(k) == name) return k;
  }
  throw std::invalid_argument(fmt::format("unknown communicator kind '{}'", name));
}

std::int64_t positive_size(const IntegerFormula& size, std::int64_t n) {
  const std::int64_t k = size.at(n);
  if (k < 1) {
    throw std::domain_error(
        fmt::format("a communicator of {} = {} ranks at n = {}", size.text(), k, n));
  }
  return k;
}

std::vector<std::int64_t> slice_members(const CommunicatorRule& rule, std::int64_t rank,
                                        std::int64_t n) {
  const std::optional<std::vector<std::int64_t>> extent = grid_extent(rule.shape, n);
  if (!extent) {
    throw std::domain_error(fmt::format("no {} grid at n = {}", grid_shape_name(rule.shape), n));
  }
  const ProcessGrid grid(*extent, rule.order);
  const GridCoords mine = grid.coords_of(rank);
  std::vector<std::int64_t> members;
  // Every combination of the kept dimensions' coordinates, the others fixed at the rank's.
  GridCoords at = mine;
  const std::size_t dims = extent->size();
  for (std::size_t d = 0; d < dims; ++d) {
    if (rule.keep[d]) at[d] = 0;
  }
  while (true) {
    members.push_back(grid.rank_of(at));
    std::size_t d = 0;
    for (; d < dims; ++d) {
      if (!rule.keep[d]) continue;
      if (++at[d] < (*extent)[d]) break;
      at[d] = 0;
    }
    if (d == dims) break;
  }
  std::sort(members.begin(), members.end());
  return members;
}

// Fitted sizes of the Blocks or Strides candidate, or nothing.
std::optional<IntegerFormula> size_formula(std::span<const CommunicatorSample> runs,
                                           CommunicatorKind kind) {
  std::vector<FormulaSample> sizes;
  for (const CommunicatorSample& run : runs) {
    for (const std::vector<std::int64_t>& m : run.members) {
      if (m.empty()) continue;
      std::int64_t k = static_cast<std::int64_t>(m.size());
      if (kind == CommunicatorKind::Strides) k = m.size() > 1 ? m[1] - m[0] : run.n;
      sizes.push_back({run.n, 0, k});
      break;
    }
  }
  if (sizes.empty()) return std::nullopt;
  const bool one_value = std::all_of(sizes.begin(), sizes.end(), [&](const FormulaSample& s) {
    return s.value == sizes.front().value;
  });
  if (one_value) return IntegerFormula{sizes.front().value, {}};
  return fit_integer_formula(sizes, size_bases());
}

bool reproduces(const CommunicatorRule& rule, std::span<const CommunicatorSample> runs) {
  for (const CommunicatorSample& run : runs) {
    for (std::size_t r = 0; r < run.members.size(); ++r) {
      if (run.members[r].empty()) continue;
      try {
        if (rule.members_of(static_cast<std::int64_t>(r), run.n) != run.members[r]) return false;
      } catch (const std::domain_error&) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace

std::vector<std::int64_t> CommunicatorRule::members_of(std::int64_t rank, std::int64_t n) const {
  switch (kind) {
    case CommunicatorKind::GridSlice:
      return slice_members(*this, rank, n);
    case CommunicatorKind::Blocks: {
      const std::int64_t k = positive_size(size, n);
      std::vector<std::int64_t> members;
      for (std::int64_t m = rank / k * k; m < std::min(n, (rank / k + 1) * k); ++m) {
        members.push_back(m);
      }
      return members;
    }
    case CommunicatorKind::Strides: {
      const std::int64_t k = positive_size(size, n);
      std::vector<std::int64_t> members;
      for (std::int64_t m = rank % k; m < n; m += k) members.push_back(m);
      return members;
    }
  }
  return {};
}

std::string CommunicatorRule::text() const {
  switch (kind) {
    case CommunicatorKind::GridSlice: {
      std::string dims;
      for (std::size_t d = 0; d < keep.size(); ++d) {
        if (keep[d]) dims += "ijk"[d];
      }
      return fmt::format("the ranks of the {} grid ({}) that differ only in {}",
                         grid_shape_name(shape), grid_order_name(order), dims);
    }
    case CommunicatorKind::Blocks:
      return fmt::format("blocks of {} consecutive ranks", size.text());
    case CommunicatorKind::Strides:
      return fmt::format("the ranks with the same r mod {}", size.text());
  }
  return "?";
}

std::optional<CommunicatorRule> infer_communicator_rule(std::span<const CommunicatorSample> runs) {
  std::vector<CommunicatorRule> candidates;
  std::vector<CommunicatorRule> with_n;  // sizes that depend on n come after the grids
  for (CommunicatorKind kind : {CommunicatorKind::Blocks, CommunicatorKind::Strides}) {
    if (const std::optional<IntegerFormula> size = size_formula(runs, kind)) {
      CommunicatorRule rule;
      rule.kind = kind;
      rule.size = *size;
      (size->terms.empty() ? candidates : with_n).push_back(rule);
    }
  }
  for (GridShape shape : {GridShape::Square, GridShape::Balanced2D, GridShape::Compact2D,
                          GridShape::Cube, GridShape::Balanced3D, GridShape::Compact3D}) {
    const int dims = grid_dimensions(shape);
    for (GridOrder order : {GridOrder::RowMajor, GridOrder::ColumnMajor}) {
      for (unsigned mask = 1; mask + 1 < (1U << dims); ++mask) {
        CommunicatorRule rule;
        rule.kind = CommunicatorKind::GridSlice;
        rule.shape = shape;
        rule.order = order;
        for (int d = 0; d < dims; ++d) rule.keep.push_back(((mask >> (dims - 1 - d)) & 1U) != 0);
        candidates.push_back(rule);
      }
    }
  }
  candidates.insert(candidates.end(), with_n.begin(), with_n.end());
  for (const CommunicatorRule& rule : candidates) {
    if (reproduces(rule, runs)) return rule;
  }
  return std::nullopt;
}

void to_json(nlohmann::json& out, const CommunicatorRule& rule) {
  out = {{"text", rule.text()}, {"kind", kind_name(rule.kind)}};
  if (rule.kind == CommunicatorKind::GridSlice) {
    out["shape"] = grid_shape_name(rule.shape);
    out["order"] = grid_order_name(rule.order);
    out["keep"] = rule.keep;
  } else {
    out["size"] = rule.size;
  }
}

void from_json(const nlohmann::json& in, CommunicatorRule& rule) {
  rule = CommunicatorRule{};
  rule.kind = kind_from_name(in.at("kind").get<std::string>());
  if (rule.kind == CommunicatorKind::GridSlice) {
    rule.shape = grid_shape_from_name(in.at("shape").get<std::string>());
    rule.order = grid_order_from_name(in.at("order").get<std::string>());
    rule.keep = in.at("keep").get<std::vector<bool>>();
    if (rule.keep.size() != static_cast<std::size_t>(grid_dimensions(rule.shape))) {
      throw std::invalid_argument("a grid slice keeps or fixes every dimension of its grid");
    }
  } else {
    rule.size = in.at("size").get<IntegerFormula>();
  }
}

}  // namespace p3s::model
