#pragma once
// Reader of the calibration benchmark's output, "p3s-calibration 1" (src/core/FORMATS.md).
#include <istream>
#include <string>

#include "calibrate/measurements.hpp"

namespace p3s::calibrate {

inline constexpr const char* kBenchmarkFormat = "p3s-calibration 1";

// What one file says about the system it measured, to refuse mixing systems.
struct SystemDescription {
  std::string build;        // "mpi" or "smpi"
  std::string mpi_library;  // MPI_Get_library_version's first line
};

// Appends the file's samples to `out` (its header already parsed from `first_line`); throws
// core::FormatError with `file` and the line number.
SystemDescription read_benchmark_file(const std::string& file, const std::string& first_line,
                                      std::istream& rest, Measurements& out);

}  // namespace p3s::calibrate
