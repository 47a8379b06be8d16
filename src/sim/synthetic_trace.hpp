#pragma once
// Synthetic ST4NPs of known shape, standing in for `p3s generate` in the simulator's tests and
// benchmarks: their events are written here by hand, so what a simulation of them must give
// can be worked out on paper.
#include <cstdint>
#include <vector>

#include "core/scaled_trace.hpp"

namespace p3s::sim {

// A periodic 2D 5-point stencil on a side x side torus of ranks, in two phases:
//   "halo":     compute, Irecv from and Isend to the 4 neighbours, Waitall;
//   "residual": compute, Allreduce of `reduce_bytes`.
struct StencilShape {
  int side = 4;
  std::int64_t halo_bytes = 8192;
  std::int64_t halo_compute_ns = 1'000'000;
  std::int64_t residual_compute_ns = 100'000;
  std::int64_t reduce_bytes = 8;
  double halo_weight = 100;
  double residual_weight = 100;
};

class StencilTrace : public core::ScaledTrace {
 public:
  explicit StencilTrace(const StencilShape& shape);
  int nprocs() const override { return shape_.side * shape_.side; }
  const std::vector<core::ScaledPhase>& phases() const override { return phases_; }
  void phase_events(int phase, int rank, std::vector<core::Event>& out) const override;
  std::vector<core::Communicator> communicators(int rank) const override;

  // The 4 neighbours of `rank`: east, west, south, north.
  std::vector<std::int32_t> neighbours(int rank) const;

 private:
  StencilShape shape_;
  std::vector<core::ScaledPhase> phases_;
};

// A ring of `nprocs` ranks in one phase: compute, Irecv from the left and right neighbours,
// Isend `bytes` to both, Waitall. With 2 ranks the two neighbours are one rank, so each rank
// sends one message to the other and receives one.
struct RingShape {
  int nprocs = 2;
  std::int64_t bytes = 1'000'000;
  std::int64_t compute_ns = 0;
  double weight = 10;
};

class RingTrace : public core::ScaledTrace {
 public:
  explicit RingTrace(const RingShape& shape);
  int nprocs() const override { return shape_.nprocs; }
  const std::vector<core::ScaledPhase>& phases() const override { return phases_; }
  void phase_events(int phase, int rank, std::vector<core::Event>& out) const override;
  std::vector<core::Communicator> communicators(int rank) const override;

 private:
  RingShape shape_;
  std::vector<core::ScaledPhase> phases_;
};

}  // namespace p3s::sim
