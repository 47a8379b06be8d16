#include "sim/simgrid_session.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <smpi/smpi.h>
#include <xbt/config.hpp>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/rank_placement.hpp"
#include "sim/rank_runner.hpp"

namespace p3s::sim {
namespace {

// What p3s sets before the user's --cfg, which may override any of it.
const std::vector<std::string> kEngineDefaults = {
    // As smpirun: SMPI's network model (its bandwidth and latency factors) and precision.
    "--cfg=network/model:SMPI",
    "--cfg=surf/precision:1e-9",
    // MPI calls must not charge the simulator's own CPU time to the simulated ranks.
    "--cfg=smpi/simulate-computation:no",
    // SMPI's collectives then never create detached sends, which SimGrid removes from a global
    // list by linear search (point-to-point eager sends are handled by p3s, see
    // point_to_point.hpp).
    "--cfg=smpi/send-is-detached-thresh:0",
    // One guard page per actor stack costs two memory mappings, and Linux allows 65530.
    "--cfg=contexts/guard-size:0",
    // Ranks run shallow code; small stacks keep 65536 ranks within memory.
    "--cfg=contexts/stack-size:256",
    "--log=root.thres:warning",
};

std::vector<simgrid::s4u::Host*> placement_hosts(const simgrid::s4u::Engine& engine,
                                                 const SimOptions& options) {
  if (options.hostfile.empty()) {
    std::vector<simgrid::s4u::Host*> hosts = engine.get_all_hosts();
    std::sort(hosts.begin(), hosts.end(), [](const simgrid::s4u::Host* a, const simgrid::s4u::Host* b) {
      return natural_less(a->get_name(), b->get_name());
    });
    return hosts;
  }
  std::ifstream in(options.hostfile);
  if (!in) throw std::runtime_error("cannot read the host file " + options.hostfile.string());
  std::vector<simgrid::s4u::Host*> hosts;
  for (std::string name; std::getline(in, name);) {
    if (name.empty()) continue;
    simgrid::s4u::Host* host = engine.host_by_name_or_null(name);
    if (!host) {
      throw std::runtime_error("host file " + options.hostfile.string() + ": no host '" + name +
                               "' in the platform");
    }
    hosts.push_back(host);
  }
  return hosts;
}

// Whether a rank's events name a communicator other than the world (0) and self (1).
bool uses_sub_communicators(const core::ScaledTrace& trace, const SessionPlan& plan) {
  std::vector<core::Event> events;
  for (int rank = 0; rank < trace.nprocs(); ++rank) {
    for (const SessionPlan::Segment& s : plan.segments) {
      events.clear();
      trace.phase_events(s.phase, rank, events);
      for (const core::Event& e : events) {
        if (e.comm > 1) return true;
      }
    }
  }
  return false;
}

}  // namespace

SessionOutput run_session(const core::ScaledTrace& trace, const SimOptions& options,
                          const SessionPlan& plan) {
  std::vector<std::string> args = {"p3s-simulate"};
  args.insert(args.end(), kEngineDefaults.begin(), kEngineDefaults.end());
  args.insert(args.end(), options.simgrid_args.begin(), options.simgrid_args.end());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(args.size());

  smpi_init_options();  // declares the smpi/ settings before the engine parses them
  simgrid::s4u::Engine engine(&argc, argv.data());
  engine.load_platform(options.platform.string());
  SMPI_init();

  const int nprocs = trace.nprocs();
  const std::vector<simgrid::s4u::Host*> hosts = placement_hosts(engine, options);
  const std::vector<int> host_of =
      place_ranks(nprocs, static_cast<int>(hosts.size()), options.ranks_per_host, options.mapping);
  SMPI_app_instance_register(kSmpiInstance, nullptr, nprocs);

  SessionOutput output;
  output.measure_start.assign(static_cast<std::size_t>(nprocs), -1);
  output.end.assign(static_cast<std::size_t>(nprocs), -1);
  EagerSendBoard eager_sends;
  SessionContext context;
  context.eager_sends = &eager_sends;
  context.trace = &trace;
  context.plan = &plan;
  context.cpu_speedup = options.cpu_speedup;
  context.eager_threshold = options.eager_threshold;
  context.collective_eager_threshold =
      simgrid::config::get_value<int>("smpi/send-is-detached-thresh");
  if (options.native_collectives) context.native = DefaultAlgorithms::from_config();
  context.create_communicators = uses_sub_communicators(trace, plan);
  context.output = &output;
  for (int rank = 0; rank < nprocs; ++rank) {
    simgrid::s4u::Actor::init(std::to_string(rank), hosts[static_cast<std::size_t>(host_of[static_cast<std::size_t>(rank)])])
        ->start([rank, &context] { run_rank(rank, context); });
  }

  const auto started = std::chrono::steady_clock::now();
  engine.run();
  output.engine_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  if (!context.error.empty()) throw std::runtime_error(context.error);
  const auto unfinished = std::count(output.end.begin(), output.end.end(), -1.0);
  if (unfinished > 0) {
    throw std::runtime_error(std::to_string(unfinished) +
                             " ranks never finished: the trace's messages or collectives do not "
                             "match (see SimGrid's deadlock report above)");
  }
  return output;
}

}  // namespace p3s::sim
