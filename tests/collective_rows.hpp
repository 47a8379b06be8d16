#pragma once
// Every collective row of the operation table (core/op_table.hpp), blocking and non-blocking,
// and one call of it as a trace holds it: what the simulator's and the replay's every-row tests
// hand their backends, so that a row either misses fails by name.
#include <cstdint>
#include <vector>

#include "core/event.hpp"
#include "core/op.hpp"
#include "core/op_table.hpp"

namespace p3s::testing {

struct CollectiveRow {
  core::Op op;
  bool rooted;
};

inline std::vector<CollectiveRow> every_collective_row() {
  std::vector<CollectiveRow> rows;
#define P3S_ROW(Enum, IEnum, lower, CName, UPPER, rooted, bytes, ti, params, args) \
  rows.push_back({core::Op::Enum, rooted});                                        \
  rows.push_back({core::Op::IEnum, rooted});
  P3S_COLLECTIVE_OPS(P3S_ROW)
#undef P3S_ROW
  return rows;
}

// One call of `row` by `rank` of `nprocs` on the world, rooted at rank 1, after `compute_ns` of
// compute: blocks of 64 bytes, as the tracer counts them (trace/collectives.hpp), the side that
// holds one block per member its total (at the root only where the call has one); a
// non-blocking call is completed by a wait of its own.
inline void append_collective_call(const CollectiveRow& row, int rank, int nprocs,
                                   std::int64_t compute_ns, std::vector<core::Event>& out) {
  const bool all_blocks = !row.rooted || rank == 1;
  const std::int64_t all = all_blocks ? std::int64_t{64} * nprocs : 0;
  core::Event call;
  call.op = row.op;
  call.burst_cpu = compute_ns;
  call.bytes = core::bytes_per_member(row.op, false) ? all : 64;
  call.rbytes = core::bytes_per_member(row.op, true) ? all : 64;
  if (row.rooted) call.root = 1;
  if (core::blocking_form(row.op) == core::Op::Barrier) call.bytes = call.rbytes = 0;
  if (!core::is_nonblocking(row.op)) {
    out.push_back(call);
    return;
  }
  call.req = 7;
  out.push_back(call);
  core::Event wait;
  wait.op = core::Op::Wait;
  wait.requests = {core::RequestRecord{.req = 7}};
  out.push_back(wait);
}

}  // namespace p3s::testing
