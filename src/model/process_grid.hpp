#pragma once
// Process grids as applications build them, so that a neighbour rule fitted on 4, 9, 16 and
// 25 ranks finds the same neighbours on 256, and one fitted on MPI_Dims_create grids finds the
// grid MPI_Dims_create would give at N.
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/event.hpp"

namespace p3s::model {

enum class GridShape : std::uint8_t {
  Square,      // sqrt(n) x sqrt(n)
  Balanced2D,  // MPI_Dims_create(n, 2)
  Cube,        // cbrt(n) x cbrt(n) x cbrt(n)
  Balanced3D,  // MPI_Dims_create(n, 3)
  // What applications that lay out their own grid compute: the factorisation with the least
  // surface (2D: the most square, rows = the largest divisor up to sqrt(n)), extents largest
  // first. It is MPI_Dims_create's almost always, not at 72 in 2D (9 x 8, not 12 x 6) nor at 432
  // in 3D (9 x 8 x 6, not 12 x 6 x 6).
  Compact2D,
  Compact3D,
};

// RowMajor: the last dimension varies fastest (2D: rank = i*py + j, as with MPI_Cart_create).
enum class GridOrder : std::uint8_t { RowMajor, ColumnMajor };

std::string_view grid_shape_name(GridShape shape);
GridShape grid_shape_from_name(std::string_view name);  // throws std::invalid_argument
std::string_view grid_order_name(GridOrder order);
GridOrder grid_order_from_name(std::string_view name);  // throws std::invalid_argument
int grid_dimensions(GridShape shape);

// The factorisation Open MPI's MPI_Dims_create (4.1) returns for all-zero dims: the prime
// factors of n, largest first, each multiplied into the currently smallest dimension, then the
// dimensions sorted largest first. It is balanced but not always the most balanced: 72 ranks
// in 2D give 12 x 6, not 9 x 8, and an app that calls MPI_Dims_create gets exactly that.
std::vector<std::int64_t> balanced_dims(std::int64_t n, int dimensions);

// The grid families runs rule out: where every run called MPI_Dims_create(n, d) with every
// extent MPI's to choose, a d-dimensional grid is MPI_Dims_create's, not the least-surface one
// applications that lay out their own grid compute. `calls[i]` are run i's, at n = `ns[i]`.
std::vector<GridShape> shapes_ruled_out(const std::vector<std::vector<core::DimsCreate>>& calls,
                                        const std::vector<std::int64_t>& ns);

// The grid's extent at n, or nothing when n does not make that shape (12 is not a square).
std::optional<std::vector<std::int64_t>> grid_extent(GridShape shape, std::int64_t n);

using GridCoords = std::array<std::int64_t, 3>;

class ProcessGrid {
 public:
  ProcessGrid(std::vector<std::int64_t> extent, GridOrder order);

  GridCoords coords_of(std::int64_t rank) const;
  std::int64_t rank_of(const GridCoords& coords) const;
  const std::vector<std::int64_t>& extent() const { return extent_; }

 private:
  std::vector<std::int64_t> extent_;
  GridOrder order_;
};

}  // namespace p3s::model
