#include "sim/rank_runner.hpp"

#include <smpi/mpi.h>
#include <smpi/smpi.h>

#include <exception>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <string>
#include <vector>
#include <xbt/config.hpp>

#include "core/rank_program.hpp"
#include "sim/collective_calls.hpp"
#include "sim/point_to_point.hpp"
#include "sim/rank_communicators.hpp"
#include "sim/shared_core.hpp"
#include "sim/step_messages.hpp"

namespace p3s::sim {
namespace {

class RankRunner {
 public:
  RankRunner(int rank, SessionContext& context)
      : rank_(rank),
        context_(context),
        host_(*simgrid::s4u::this_actor::get_host()),
        comms_(rank, context.trace->nprocs()),
        p2p_(rank, context.eager_threshold, smpi_overheads_of(host_), *context.eager_sends),
        native_(context.native, p2p_, comms_),
        collectives_(comms_),
        round_delay_(context.round_delays[static_cast<std::size_t>(rank)]) {}

  void run() {
    const core::SessionPlan& plan = *context_.plan;
    if (context_.create_communicators) {
      comms_.create(context_.trace->communicators(rank_));
      MPI_Barrier(MPI_COMM_WORLD);
    }
    // From now on SMPI replays: it neither copies message data nor applies reductions. (Making
    // communicators needs both: SMPI broadcasts their ids.) No trace file is read.
    smpi_replay_init(kSmpiInstance, rank_, 0);
    double& measure_start = context_.output->measure_start[static_cast<std::size_t>(rank_)];
    measure_start = simgrid::s4u::Engine::get_clock();
    context_.output->first_start[static_cast<std::size_t>(rank_)] = measure_start;
    std::vector<core::Event> events;
    std::int64_t executed = 0;
    for (std::size_t segment = 0; segment < plan.segments.size(); ++segment) {
      const core::SessionPlan::Segment& s = plan.segments[segment];
      events.clear();
      context_.trace->phase_events(s.phase, rank_, events);
      const core::RankProgram program = core::compile_rank_program(events, context_.cpu_speedup);
      for (std::int64_t rep = 0; rep < s.repetitions; ++rep) {
        if (segment == 0 && rep == plan.warmup_repetitions) {
          measure_start = simgrid::s4u::Engine::get_clock();
        }
        for (const core::ProgramStep& step : program.steps) execute(step, program);
        executed += static_cast<std::int64_t>(program.steps.size());
      }
    }
    context_.output->end[static_cast<std::size_t>(rank_)] = simgrid::s4u::Engine::get_clock();
    context_.output->events += executed;
    p2p_.finish();
  }

 private:
  void execute(const core::ProgramStep& s, const core::RankProgram& program) {
    if (s.compute_seconds > 0)
      simgrid::s4u::this_actor::execute(s.compute_seconds * host_.get_speed());
    call(s, program);
    if (round_delay_ > 0) share_cores(s);
  }

  void call(const core::ProgramStep& s, const core::RankProgram& program) {
    switch (core::op_kind(s.op)) {
      case core::OpKind::PointToPoint:
      case core::OpKind::Persistent:
        return post_step_messages(s, program, p2p_, comms_.key(s.comm));
      case core::OpKind::Completion:
        for (std::uint32_t i = 0; i < s.record_count; ++i)
          complete(program.records[s.first_record + i].req);
        return;
      case core::OpKind::Collective:
        return native_.handles(s.op) ? native_.run(s) : collectives_.run(s);
      case core::OpKind::CommCreate:  // communicators were all made before the first phase
      case core::OpKind::Finalize:    // only its compute burst is simulated
        return;
    }
  }

  // After a blocking call on an oversubscribed host: its rounds' turns of the OS scheduler.
  void share_cores(const core::ProgramStep& s) {
    const bool collective = core::op_kind(s.op) == core::OpKind::Collective;
    const std::int64_t rounds = step_rounds(s, collective ? comms_.size(s.comm) : 1);
    if (rounds > 0) simgrid::s4u::this_actor::sleep_for(static_cast<double>(rounds) * round_delay_);
  }

  void complete(std::int64_t req) {
    if (p2p_.has_request(req)) return p2p_.complete(req);
    collectives_.complete(req);
  }

  int rank_;
  SessionContext& context_;
  simgrid::s4u::Host& host_;
  RankCommunicators comms_;
  PointToPoint p2p_;
  NativeCollectives native_;
  CollectiveCalls collectives_;
  double round_delay_;  // seconds per communication round of a blocking call (shared_core.hpp)
};

}  // namespace

void run_rank(int rank, SessionContext& context) {
  MPI_Init(nullptr, nullptr);
  try {
    RankRunner(rank, context).run();
  } catch (const std::exception& e) {
    if (context.error.empty()) context.error = "rank " + std::to_string(rank) + ": " + e.what();
    simgrid::s4u::Actor::kill_all();
  }
}

}  // namespace p3s::sim
