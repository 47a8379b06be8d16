#include "core/smpi_datatype.hpp"

#include <array>
#include <charconv>

namespace p3s::core {
namespace {

// Indexed by SMPI's id. The ids are the order in which SimGrid 3.32 declares its predefined
// types (src/smpi/mpi/smpi_datatype.cpp); the sizes are what MPI_Type_size returns for each
// under smpirun on x86_64, checked by sending three of every type and reading the TI trace
// (all but UB, LB and PTR, which hold no data and come from the declarations alone).
constexpr std::array<std::int64_t, 60> kSizes = {
    8,   //  0 MPI_DOUBLE
    4,   //  1 MPI_INT
    1,   //  2 MPI_CHAR
    2,   //  3 MPI_SHORT
    8,   //  4 MPI_LONG
    4,   //  5 MPI_FLOAT
    1,   //  6 MPI_BYTE
    8,   //  7 MPI_LONG_LONG
    1,   //  8 MPI_SIGNED_CHAR
    1,   //  9 MPI_UNSIGNED_CHAR
    2,   // 10 MPI_UNSIGNED_SHORT
    4,   // 11 MPI_UNSIGNED
    8,   // 12 MPI_UNSIGNED_LONG
    8,   // 13 MPI_UNSIGNED_LONG_LONG
    16,  // 14 MPI_LONG_DOUBLE
    4,   // 15 MPI_WCHAR
    1,   // 16 MPI_C_BOOL
    1,   // 17 MPI_INT8_T
    2,   // 18 MPI_INT16_T
    4,   // 19 MPI_INT32_T
    8,   // 20 MPI_INT64_T
    1,   // 21 MPI_UINT8_T
    2,   // 22 MPI_UINT16_T
    4,   // 23 MPI_UINT32_T
    8,   // 24 MPI_UINT64_T
    8,   // 25 MPI_C_FLOAT_COMPLEX
    16,  // 26 MPI_C_DOUBLE_COMPLEX
    32,  // 27 MPI_C_LONG_DOUBLE_COMPLEX
    8,   // 28 MPI_AINT
    8,   // 29 MPI_OFFSET
    8,   // 30 MPI_FLOAT_INT
    16,  // 31 MPI_LONG_INT
    16,  // 32 MPI_DOUBLE_INT
    8,   // 33 MPI_SHORT_INT
    8,   // 34 MPI_2INT
    8,   // 35 MPI_2FLOAT
    16,  // 36 MPI_2DOUBLE
    16,  // 37 MPI_2LONG
    4,   // 38 MPI_REAL
    4,   // 39 MPI_REAL4
    8,   // 40 MPI_REAL8
    16,  // 41 MPI_REAL16
    8,   // 42 MPI_COMPLEX8
    16,  // 43 MPI_COMPLEX16
    16,  // 44 MPI_COMPLEX32
    4,   // 45 MPI_INTEGER1
    2,   // 46 MPI_INTEGER2
    4,   // 47 MPI_INTEGER4
    8,   // 48 MPI_INTEGER8
    16,  // 49 MPI_INTEGER16
    32,  // 50 MPI_LONG_DOUBLE_INT
    -1,  // 51 MPI_CXX_BOOL (SMPI 3.32: MPI_DATATYPE_NULL, never written)
    -1,  // 52 MPI_CXX_FLOAT_COMPLEX (SMPI 3.32: MPI_DATATYPE_NULL, never written)
    -1,  // 53 MPI_CXX_DOUBLE_COMPLEX (SMPI 3.32: MPI_DATATYPE_NULL, never written)
    -1,  // 54 MPI_CXX_LONG_DOUBLE_COMPLEX (SMPI 3.32: MPI_DATATYPE_NULL, never written)
    0,   // 55 MPI_UB
    0,   // 56 MPI_LB
    1,   // 57 MPI_PACKED
    8,   // 58 MPI_PTR
    8,   // 59 MPI_COUNT
};

}  // namespace

std::optional<std::int64_t> smpi_datatype_size(std::string_view id) {
  std::size_t index = 0;
  auto [ptr, ec] = std::from_chars(id.data(), id.data() + id.size(), index);
  if (id.empty() || ec != std::errc() || ptr != id.data() + id.size() || index >= kSizes.size() ||
      kSizes[index] < 0) {
    return std::nullopt;
  }
  return kSizes[index];
}

}  // namespace p3s::core
