#pragma once
// Fits SimGrid SMPI's point-to-point model (smpi_model.hpp) and a host speed to measurements
// of one system. How each parameter is identified is in calibrate/README.md ("How the fit
// works"); in short, from the ping-pongs and overhead tests at each size:
//   eager threshold   the size where MPI_Send's sender starts waiting for the transfer
//   smpi/os           MPI_Send's time below it, MPI_Ssend minus MPI_Send ping-pongs above it
//   smpi/or           MPI_Send minus MPI_Ssend ping-pongs below it
//   smpi/ois          MPI_Isend's time
//   transfer time     MPI_Ssend ping-pong minus smpi/os below the threshold, MPI_Send above
// then the transfer times are cut into size segments by search, each a line whose intercept
// is latency x lat-factor and whose slope is 1 / (bandwidth x bw-factor).
#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "calibrate/measurements.hpp"
#include "calibrate/shared_core_fit.hpp"
#include "calibrate/smpi_model.hpp"

namespace p3s::calibrate {

// Measurements nothing sensible can be fitted to (one message size, no ping-pong, ...).
class CalibrationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A warning with a name a script can look for ("no-cross-node", "single-size", ...).
struct NamedWarning {
  std::string name;
  std::string text;
};

struct LinkCoverage {
  bool measured = false;  // enough ping-pong sizes to fit
  std::int64_t min_bytes = 0, max_bytes = 0;
  std::size_t sizes = 0;
  double noise = 0;  // median relative half-range of the ping-pong repetitions
};

// One size segment of the fitted transfer time: from payloads (bytes + 16) above `above` on.
struct TransferSegment {
  std::int64_t above = 0;
  double lat_factor = 1, bw_factor = 1;
};

// How well the model follows the ping-pong
// times of one link kind in it.
struct SegmentQuality {
  LinkKind link = LinkKind::SameNode;
  std::size_t segment = 0;                       // index into Calibration::transfer_segments
  std::int64_t first_bytes = 0, last_bytes = 0;  // measured sizes in the segment
  std::size_t points = 0;
  double r_squared = 0;
  double mean_error = 0, max_error = 0;  // |modelled - measured| / measured
  std::int64_t max_error_bytes = 0;
};

// A measured median beside what the fitted model gives for it.
struct Comparison {
  Test test = Test::PingPong;
  LinkKind link = LinkKind::SameNode;
  int pairs = 1;
  std::int64_t bytes = 0;
  double measured = 0, modelled = 0;
  // (modelled - measured) relative to the ping-pong time of that size (to the measured time
  // itself for ping-pongs): an overhead of 0 against 1e-9 s is not an infinite error.
  double error = 0;
};

struct ComputeFit {
  bool measured = false;
  double flops_per_second = 0;  // one rank alone, per second of its CPU time
  int concurrent = 0;           // ranks in the all-ranks probe (0: none)
  double concurrent_flops_per_second = 0;
  double concurrent_cpu_share = 0;  // CPU / wall time of a rank there: 1 = a core of its own
};

struct Calibration {
  SmpiPointToPoint model;
  LinkKind primary = LinkKind::CrossNode;          // the kind the factors and overheads come from
  std::array<LinkCoverage, 2> coverage;            // by LinkKind
  bool overheads_measured = false;                 // smpi/os, or, ois and the eager threshold
  std::vector<TransferSegment> transfer_segments;  // the factors are these, written compactly
  std::vector<SegmentQuality> segments;
  std::vector<Comparison> comparisons;
  std::optional<Comparison> worst;  // the largest |error| of a single-pair comparison
  ComputeFit compute;
  SharedCoreFit shared_core;  // rounds on nodes whose ranks outnumber their cores
  std::vector<NamedWarning> warnings;
  std::vector<std::string> extrapolated;  // what the platform says beyond the measurements
  bool simulated = false;                 // the measurements came from smpirun
  Test fitted = Test::PingPong;           // the times the transfer was fitted to

  const LinkCoverage& covered(LinkKind link) const {
    return coverage[static_cast<std::size_t>(link)];
  }
};

Calibration calibrate(const Measurements& measurements);

}  // namespace p3s::calibrate
