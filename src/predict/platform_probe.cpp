#include "predict/platform_probe.hpp"

#include <functional>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "core/scaled_trace.hpp"
#include "sim/simulate.hpp"

namespace p3s::predict {
namespace {

// One phase of one repetition's events, the same shape on every rank.
class ProbeTrace : public core::ScaledTrace {
 public:
  ProbeTrace(int nprocs, std::function<std::vector<core::Event>(int)> events)
      : nprocs_(nprocs), events_(std::move(events)), phases_{{"probe", 1}} {}
  int nprocs() const override { return nprocs_; }
  const std::vector<core::ScaledPhase>& phases() const override { return phases_; }
  void phase_events(int /*phase*/, int rank, std::vector<core::Event>& out) const override {
    const std::vector<core::Event> e = events_(rank);
    out.insert(out.end(), e.begin(), e.end());
  }
  std::vector<core::Communicator> communicators(int /*rank*/) const override {
    core::Communicator world;
    world.members.resize(static_cast<std::size_t>(nprocs_));
    std::iota(world.members.begin(), world.members.end(), 0);
    return {world};
  }

 private:
  int nprocs_;
  std::function<std::vector<core::Event>(int)> events_;
  std::vector<core::ScaledPhase> phases_;
};

double probe_seconds(const core::ScaledTrace& trace, sim::SimOptions options) {
  options.mode = sim::SimMode::PerPhase;
  options.progress = nullptr;
  return sim::simulate(trace, options).phases.at(0).phase_et;
}

}  // namespace

double platform_message_seconds(const sim::SimOptions& options, std::int64_t bytes,
                                bool same_node) {
  const ProbeTrace trace(2, [bytes](int rank) {
    const std::int32_t peer = 1 - rank;
    core::Event receive;
    receive.op = core::Op::Irecv;
    receive.src = peer;
    receive.rtag = 0;
    receive.rbytes = bytes;
    receive.req = 1;
    core::Event send;
    send.op = core::Op::Isend;
    send.dst = peer;
    send.tag = 0;
    send.bytes = bytes;
    send.req = 2;
    core::Event wait;
    wait.op = core::Op::Waitall;
    wait.requests = {{1, false, peer, 0, bytes}, {2, true, peer, 0, bytes}};
    return std::vector<core::Event>{receive, send, wait};
  });
  sim::SimOptions at = options;
  at.ranks_per_host = same_node ? 2 : 1;
  at.mapping = sim::Mapping::Block;
  return probe_seconds(trace, at);
}

double platform_collective_seconds(const sim::SimOptions& options, core::Op op, std::int64_t bytes,
                                   std::int64_t rbytes, int members) {
  const ProbeTrace trace(members, [=](int /*rank*/) {
    core::Event call;
    call.op = op;
    call.bytes = bytes;
    call.rbytes = rbytes;
    call.root = core::is_rooted(op) ? 0 : core::kNone;
    return std::vector<core::Event>{call};
  });
  return probe_seconds(trace, options);
}

}  // namespace p3s::predict
