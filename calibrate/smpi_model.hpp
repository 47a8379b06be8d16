#pragma once
// SimGrid 3.32 SMPI's time for one point-to-point message, as its sources define it and as the
// calibration benchmark run under smpirun confirms (calibrate/README.md, "SMPI's model"):
//
//   transfer(S) = latency x lat-factor(S + 16) + (S + 16) / (bandwidth x bw-factor(S + 16))
//
// over the route's summed latency and smallest bandwidth, S + 16 being the payload with SMPI's
// envelope; a send of S < eager threshold is eager (the sender pays smpi/os, or smpi/ois for
// MPI_Isend, and goes on; the receiver pays smpi/or after the transfer), a larger one is a
// rendezvous (MPI_Send waits for the transfer and pays nothing; MPI_Isend pays smpi/ois;
// MPI_Ssend always pays smpi/os and is never eager).
#include <cstdint>
#include <string>
#include <vector>

#include "calibrate/measurements.hpp"
#include "sim/overhead_table.hpp"

namespace p3s::calibrate {

// SMPI adds this envelope to every message's payload.
inline constexpr std::int64_t kEnvelopeBytes = 16;

// smpi/bw-factor and smpi/lat-factor: entries SIZE:VALUE; a payload above SIZE takes VALUE up
// to the next entry's SIZE; a payload at or below the first SIZE takes 1.
class SizeFactor {
 public:
  struct Entry {
    std::int64_t above = 0;
    double value = 1;
  };
  SizeFactor() = default;
  explicit SizeFactor(std::vector<Entry> entries);  // sorted by `above`, strictly increasing
  double at(std::int64_t payload) const;
  // SMPI's syntax. SimGrid 3.32 crashes on a single value without a size, so even a constant
  // is written "0:VALUE".
  std::string smpi() const;
  const std::vector<Entry>& entries() const { return entries_; }

 private:
  std::vector<Entry> entries_;
};

// smpi/os, smpi/or, smpi/ois: pieces SIZE:BASE:PER_BYTE; the first applies up to the second's
// SIZE (sizes at or below its own SIZE too), each later one to sizes above its SIZE.
class Overhead {
 public:
  struct Piece {
    std::int64_t above = 0;
    double base = 0;      // seconds
    double per_byte = 0;  // seconds per byte
  };
  Overhead();  // none
  explicit Overhead(std::vector<Piece> pieces);
  double seconds(std::int64_t bytes) const { return table_.seconds(bytes); }
  std::string smpi() const;
  const std::vector<Piece>& pieces() const { return pieces_; }

 private:
  std::vector<Piece> pieces_;
  sim::OverheadTable table_;  // SMPI's evaluation, shared with the simulator
};

// A route between two ranks: its summed latency (s) and its smallest bandwidth (bytes/s).
struct Route {
  double latency = 0;
  double bandwidth = 0;
};

struct SmpiPointToPoint {
  Route same_node;   // the host's loopback link
  Route cross_node;  // two hosts' links through the switch
  SizeFactor bandwidth_factor, latency_factor;
  Overhead send, receive, isend;         // smpi/os, smpi/or, smpi/ois
  std::int64_t eager_threshold = 65536;  // smpi/send-is-detached-thresh

  const Route& route(LinkKind link) const {
    return link == LinkKind::SameNode ? same_node : cross_node;
  }
  bool eager(std::int64_t bytes) const { return bytes < eager_threshold; }
  double transfer(LinkKind link, std::int64_t bytes) const;
  // What the benchmark's `test` measures for one message of `bytes` alone on `link`.
  double time(Test test, LinkKind link, std::int64_t bytes) const;
};

}  // namespace p3s::calibrate
