#include "sim/fluid_program.hpp"

#include <fmt/core.h>

#include <stdexcept>

#include "core/op.hpp"
#include "sim/shared_core.hpp"
#include "sim/step_messages.hpp"

namespace p3s::sim {

void FluidProgramBuilder::file(std::int64_t req) {
  if (open_.count(req) != 0 || eager_sends_.count(req) != 0) {
    throw std::invalid_argument(
        fmt::format("rank {} starts request {} again before completing it", rank_, req));
  }
}

void FluidProgramBuilder::sleep(double seconds) {
  if (seconds > 0) out_.push_back({.action = FluidAction::Sleep, .seconds = seconds});
}

void FluidProgramBuilder::send(std::uint64_t comm_key, std::int32_t dst, std::int32_t tag,
                               std::int64_t bytes, SendMode mode, bool blocking, std::int64_t req) {
  const bool eager = sends_eagerly(mode, bytes, eager_threshold_);
  sleep(send_overhead(overheads_, mode, blocking, eager, bytes));
  const std::int64_t id = blocking ? kFluidBlockingRequest : req;
  if (!blocking) file(req);
  out_.push_back({.action = FluidAction::Send,
                  .eager = eager,
                  .peer = dst,
                  .tag = tag,
                  .bytes = bytes,
                  .comm_key = comm_key,
                  .req = id});
  if (eager) {
    if (!blocking) eager_sends_.insert(req);
    return;
  }
  if (blocking) {
    out_.push_back({.action = FluidAction::Wait, .req = id});
  } else {
    open_.insert(req);
  }
}

void FluidProgramBuilder::receive(std::uint64_t comm_key, std::int32_t src, std::int32_t tag,
                                  std::int64_t bytes, bool blocking, std::int64_t req) {
  const std::int64_t id = blocking ? kFluidBlockingRequest : req;
  if (!blocking) file(req);
  out_.push_back({.action = FluidAction::Receive,
                  .peer = src,
                  .tag = tag,
                  .bytes = bytes,
                  .comm_key = comm_key,
                  .req = id,
                  .seconds = overheads_.eager_recv.seconds(bytes)});
  if (blocking) {
    out_.push_back({.action = FluidAction::Wait, .req = id});
  } else {
    open_.insert(req);
  }
}

void FluidProgramBuilder::complete(std::int64_t req) {
  if (eager_sends_.erase(req) != 0) return;
  if (open_.erase(req) == 0) return;
  out_.push_back({.action = FluidAction::Wait, .req = req});
}

std::vector<FluidStep> lower_rank_program(const core::RankProgram& program,
                                          const FluidRankSetup& setup) {
  std::vector<FluidStep> out;
  out.reserve(program.steps.size() * 2);
  FluidProgramBuilder port(setup.rank, setup.eager_threshold, *setup.overheads, out);
  RankCommunicators comms(setup.rank, setup.nprocs);
  comms.adopt(*setup.communicators);
  NativeCollectives native(*setup.native, port, comms);
  for (const core::ProgramStep& s : program.steps) {
    if (s.compute_seconds > 0) {
      out.push_back({.action = FluidAction::Compute, .seconds = s.compute_seconds});
    }
    switch (core::op_kind(s.op)) {
      case core::OpKind::PointToPoint:
      case core::OpKind::Persistent:
        post_step_messages(s, program, port, comms.key(s.comm));
        break;
      case core::OpKind::Completion:
        // A non-blocking collective's request is unknown here: its call was refused.
        for (std::uint32_t i = 0; i < s.record_count; ++i) {
          port.complete(program.records[s.first_record + i].req);
        }
        break;
      case core::OpKind::Collective:
        if (!native.handles(s.op)) {
          throw std::invalid_argument(fmt::format(
              "rank {}: {} runs in SMPI's own algorithm, which the fluid engine does not "
              "rebuild (it runs SMPI's default barrier, bcast, reduce and allreduce, and rdb's "
              "allreduce; use --engine simgrid)",
              setup.rank, core::op_name(s.op)));
        }
        native.run(s);
        break;
      case core::OpKind::CommCreate:
      case core::OpKind::Finalize:
        break;
    }
    if (setup.round_delay > 0) {
      const bool collective = core::op_kind(s.op) == core::OpKind::Collective;
      const std::int64_t rounds = step_rounds(s, collective ? comms.size(s.comm) : 1);
      port.sleep(static_cast<double>(rounds) * setup.round_delay);
    }
  }
  return out;
}

}  // namespace p3s::sim
