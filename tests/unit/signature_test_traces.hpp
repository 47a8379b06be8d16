#pragma once
// Synthetic rank traces for the phase analysis tests: events laid out one after another with
// chosen compute before each and a chosen duration for each call.
#include <cstdint>
#include <vector>

#include "core/event.hpp"

namespace p3s::signature::testing {

class TraceBuilder {
 public:
  TraceBuilder(std::int32_t rank, std::int32_t nprocs) {
    trace_.rank = rank;
    trace_.nprocs = nprocs;
    core::Communicator world;
    for (std::int32_t r = 0; r < nprocs; ++r) world.members.push_back(r);
    trace_.comms.push_back(world);
  }

  // Counters as a PAPI run records them; later events then carry `instructions`.
  TraceBuilder& with_instruction_counter() {
    trace_.counter_names = {"PAPI_TOT_INS", "PAPI_TOT_CYC"};
    return *this;
  }

  // Appends `e` after `compute_ns` of compute (all of it CPU) and lasting `call_ns`.
  TraceBuilder& add(core::Event e, std::int64_t compute_ns = 1000, std::int64_t call_ns = 1000,
                    std::int64_t instructions = -1) {
    e.t_start = now_ + compute_ns;
    e.t_end = e.t_start + call_ns;
    e.burst_cpu = compute_ns;
    if (trace_.has_counters()) e.counters = {instructions, 2 * instructions, -1};
    now_ = e.t_end;
    trace_.events.push_back(std::move(e));
    return *this;
  }

  const core::RankTrace& trace() const { return trace_; }

 private:
  core::RankTrace trace_;
  std::int64_t now_ = 0;
};

inline core::Event send(std::int32_t dst, std::int64_t bytes, core::Op op = core::Op::Send) {
  core::Event e;
  e.op = op;
  e.dst = dst;
  e.tag = 0;
  e.bytes = bytes;
  return e;
}

inline core::Event recv(std::int32_t src, std::int64_t bytes, core::Op op = core::Op::Recv) {
  core::Event e;
  e.op = op;
  e.src = src;
  e.rtag = 0;
  e.rbytes = bytes;
  return e;
}

inline core::Event collective(core::Op op, std::int64_t bytes, std::int32_t root = core::kNone) {
  core::Event e;
  e.op = op;
  e.bytes = bytes;
  e.rbytes = bytes;
  e.root = root;
  return e;
}

inline core::Event waitall(std::size_t requests) {
  core::Event e;
  e.op = core::Op::Waitall;
  e.requests.resize(requests);
  return e;
}

inline core::Event finalize() {
  core::Event e;
  e.op = core::Op::Finalize;
  return e;
}

}  // namespace p3s::signature::testing
