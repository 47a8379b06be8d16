#include "model/process_grid.hpp"

#include <algorithm>
#include <functional>
#include <stdexcept>

#include "model/integer_math.hpp"

namespace p3s::model {
namespace {

constexpr std::array<std::string_view, 6> kShapeNames = {
    "square", "balanced_2d", "cube", "balanced_3d", "compact_2d", "compact_3d"};
constexpr std::array<std::string_view, 2> kOrderNames = {"row_major", "column_major"};

std::vector<std::int64_t> prime_factors(std::int64_t n) {
  std::vector<std::int64_t> factors;
  for (std::int64_t p = 2; p * p <= n; ++p) {
    while (n % p == 0) {
      factors.push_back(p);
      n /= p;
    }
  }
  if (n > 1) factors.push_back(n);
  return factors;
}

// Of n's factorisations into a <= b (<= c), the one with the least surface (ties: the smallest
// a, then b), largest first.
std::vector<std::int64_t> compact_dims(std::int64_t n, int dimensions) {
  std::vector<std::int64_t> best;
  std::int64_t least = 0;
  for (std::int64_t a = 1; a * a <= n || (dimensions == 3 && a * a * a <= n); ++a) {
    if (n % a != 0) continue;
    if (dimensions == 2) {
      if (a * a > n) break;
      best = {n / a, a};
      continue;
    }
    for (std::int64_t b = a; b * b <= n / a; ++b) {
      if ((n / a) % b != 0) continue;
      const std::int64_t c = n / a / b;
      const std::int64_t surface = a * b + b * c + a * c;
      if (best.empty() || surface < least) {
        least = surface;
        best = {c, b, a};
      }
    }
  }
  return best;
}

}  // namespace

std::string_view grid_shape_name(GridShape shape) {
  return kShapeNames[static_cast<std::size_t>(shape)];
}

GridShape grid_shape_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kShapeNames.size(); ++i) {
    if (kShapeNames[i] == name) return static_cast<GridShape>(i);
  }
  throw std::invalid_argument("unknown grid shape '" + std::string(name) + "'");
}

std::string_view grid_order_name(GridOrder order) {
  return kOrderNames[static_cast<std::size_t>(order)];
}

GridOrder grid_order_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kOrderNames.size(); ++i) {
    if (kOrderNames[i] == name) return static_cast<GridOrder>(i);
  }
  throw std::invalid_argument("unknown grid order '" + std::string(name) + "'");
}

int grid_dimensions(GridShape shape) {
  return shape == GridShape::Square || shape == GridShape::Balanced2D ||
                 shape == GridShape::Compact2D
             ? 2
             : 3;
}

std::vector<std::int64_t> balanced_dims(std::int64_t n, int dimensions) {
  std::vector<std::int64_t> dims(static_cast<std::size_t>(dimensions), 1);
  std::vector<std::int64_t> factors = prime_factors(n);
  std::sort(factors.begin(), factors.end(), std::greater<>());
  for (std::int64_t f : factors) *std::min_element(dims.begin(), dims.end()) *= f;
  std::sort(dims.begin(), dims.end(), std::greater<>());
  return dims;
}

std::vector<GridShape> shapes_ruled_out(const std::vector<std::vector<core::DimsCreate>>& calls,
                                        const std::vector<std::int64_t>& ns) {
  std::vector<GridShape> out;
  for (const auto& [d, compact] :
       {std::pair{2, GridShape::Compact2D}, std::pair{3, GridShape::Compact3D}}) {
    bool every_run = !calls.empty();
    for (std::size_t i = 0; i < calls.size() && every_run; ++i) {
      every_run = std::any_of(calls[i].begin(), calls[i].end(), [&](const core::DimsCreate& c) {
        return c.nnodes == ns[i] && static_cast<int>(c.dims.size()) == d &&
               std::all_of(c.given.begin(), c.given.end(), [](std::int32_t g) { return g == 0; });
      });
    }
    if (every_run) out.push_back(compact);
  }
  return out;
}

std::optional<std::vector<std::int64_t>> grid_extent(GridShape shape, std::int64_t n) {
  if (n < 1) return std::nullopt;
  switch (shape) {
    case GridShape::Square: {
      const std::optional<std::int64_t> q = exact_root(n, 2);
      if (!q) return std::nullopt;
      return std::vector<std::int64_t>{*q, *q};
    }
    case GridShape::Cube: {
      const std::optional<std::int64_t> q = exact_root(n, 3);
      if (!q) return std::nullopt;
      return std::vector<std::int64_t>{*q, *q, *q};
    }
    case GridShape::Balanced2D:
      return balanced_dims(n, 2);
    case GridShape::Balanced3D:
      return balanced_dims(n, 3);
    case GridShape::Compact2D:
      return compact_dims(n, 2);
    case GridShape::Compact3D:
      return compact_dims(n, 3);
  }
  return std::nullopt;
}

ProcessGrid::ProcessGrid(std::vector<std::int64_t> extent, GridOrder order)
    : extent_(std::move(extent)), order_(order) {}

GridCoords ProcessGrid::coords_of(std::int64_t rank) const {
  GridCoords coords{};
  const std::size_t d = extent_.size();
  for (std::size_t k = 0; k < d; ++k) {
    // Row-major peels the last dimension off first; column-major the first.
    const std::size_t dim = order_ == GridOrder::RowMajor ? d - 1 - k : k;
    coords[dim] = rank % extent_[dim];
    rank /= extent_[dim];
  }
  return coords;
}

std::int64_t ProcessGrid::rank_of(const GridCoords& coords) const {
  std::int64_t rank = 0;
  const std::size_t d = extent_.size();
  for (std::size_t k = 0; k < d; ++k) {
    const std::size_t dim = order_ == GridOrder::RowMajor ? k : d - 1 - k;
    rank = rank * extent_[dim] + coords[dim];
  }
  return rank;
}

}  // namespace p3s::model
