#include "sim/simgrid_session.hpp"

#include <malloc.h>
#include <pthread.h>
#include <smpi/smpi.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <fstream>
#include <functional>
#include <limits>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <stdexcept>
#include <string>
#include <vector>
#include <xbt/config.hpp>

#include "sim/fluid_session.hpp"
#include "sim/link_sharing.hpp"
#include "sim/rank_placement.hpp"
#include "sim/rank_runner.hpp"
#include "sim/shared_core.hpp"

namespace p3s::sim {
namespace {

constexpr int kStackKiB = 256;

// SimGrid's network solver recurses along chains of links shared by transfers, which a stencil
// of 65536 ranks makes deeper than a default 8 MiB stack allows. The engine runs on a thread
// with this much stack; pages never touched cost nothing.
constexpr std::size_t kEngineStackBytes = std::size_t{4} << 30;

// Runs `work` on a new thread with `stack_bytes` of stack, waits for it, rethrows what it threw.
void run_with_stack(std::size_t stack_bytes, const std::function<void()>& work) {
  struct Job {
    const std::function<void()>* work;
    std::exception_ptr error;
  } job{&work, nullptr};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, stack_bytes);
  pthread_t thread;
  const int failed = pthread_create(
      &thread, &attr,
      [](void* arg) -> void* {
        auto* j = static_cast<Job*>(arg);
        try {
          (*j->work)();
        } catch (...) {
          j->error = std::current_exception();
        }
        return nullptr;
      },
      &job);
  pthread_attr_destroy(&attr);
  if (failed != 0) throw std::runtime_error("cannot start the simulation's thread");
  pthread_join(thread, nullptr);
  if (job.error) std::rethrow_exception(job.error);
}

// What p3s sets before the user's --cfg, which may override any of it.
const std::vector<std::string> kEngineDefaults = {
    // As smpirun: SMPI's network model (its bandwidth and latency factors) and precision.
    "--cfg=network/model:SMPI",
    "--cfg=surf/precision:1e-9",
    // MPI calls must not charge the simulator's own CPU time to the simulated ranks.
    "--cfg=smpi/simulate-computation:no",
    // One guard page per actor stack costs two memory mappings, and Linux allows 65530.
    "--cfg=contexts/guard-size:0",
    // Ranks run shallow code; small stacks keep 65536 ranks within memory.
    "--cfg=contexts/stack-size:" + std::to_string(kStackKiB),
    "--log=root.thres:warning",
};

std::vector<simgrid::s4u::Host*> placement_hosts(const simgrid::s4u::Engine& engine,
                                                 const SimOptions& options) {
  if (options.hostfile.empty()) {
    std::vector<simgrid::s4u::Host*> hosts = engine.get_all_hosts();
    std::sort(hosts.begin(), hosts.end(),
              [](const simgrid::s4u::Host* a, const simgrid::s4u::Host* b) {
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
bool uses_sub_communicators(const core::ScaledTrace& trace, const core::SessionPlan& plan) {
  std::vector<core::Event> events;
  for (int rank = 0; rank < trace.nprocs(); ++rank) {
    for (const core::SessionPlan::Segment& s : plan.segments) {
      events.clear();
      trace.phase_events(s.phase, rank, events);
      for (const core::Event& e : events) {
        if (e.comm > 1) return true;
      }
    }
  }
  return false;
}

SessionOutput simulate_in_this_thread(const core::ScaledTrace& trace, const SimOptions& options,
                                      const core::SessionPlan& plan) {
  std::vector<std::string> args = {"p3s-simulate"};
  args.insert(args.end(), kEngineDefaults.begin(), kEngineDefaults.end());
  args.insert(args.end(), options.simgrid_args.begin(), options.simgrid_args.end());
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(args.size());

  // SimGrid allocates actor stacks with calloc: from the heap, that zeroes (so makes resident)
  // all of every stack; mapped on their own they cost only the pages a rank touches.
  mallopt(M_MMAP_THRESHOLD, kStackKiB * 1024 / 2);
  mallopt(M_MMAP_MAX, std::numeric_limits<int>::max());
  smpi_init_options();  // declares the smpi/ settings before the engine parses them
  simgrid::s4u::Engine engine(&argc, argv.data());
  engine.load_platform(options.platform.string());
  apply_link_sharing(engine);
  SMPI_init();

  const int nprocs = trace.nprocs();
  const std::vector<simgrid::s4u::Host*> hosts = placement_hosts(engine, options);
  const std::vector<int> host_of =
      place_ranks(nprocs, static_cast<int>(hosts.size()), options.ranks_per_host, options.mapping);
  // The eager threshold: the user's, else the platform's (SimGrid applied its <config> when
  // loading it), else SMPI's default. Then SMPI's own detached sends go off unless a SimGrid
  // argument asks for them: the collectives SMPI runs itself (see native_collectives.hpp) then
  // never create them, which SimGrid removes from a global list by linear search; p3s's own
  // messages are eager below the threshold without that cost (see point_to_point.hpp).
  const std::int64_t eager_threshold = options.eager_threshold.value_or(
      simgrid::config::get_value<int>("smpi/send-is-detached-thresh"));
  const bool smpi_detached_asked = std::any_of(
      options.simgrid_args.begin(), options.simgrid_args.end(),
      [](const auto& a) { return a.rfind("--cfg=smpi/send-is-detached-thresh:", 0) == 0; });
  if (!smpi_detached_asked) simgrid::config::set_value("smpi/send-is-detached-thresh", 0);
  NativeAlgorithms native;
  if (options.native_collectives) native = NativeAlgorithms::from_config();
  std::vector<double> round_delays = shared_core_round_delays(hosts, host_of);
  if (options.engine == SimEngine::Fluid) {
    if (!options.native_collectives) {
      throw std::invalid_argument(
          "the fluid engine runs p3s's own collectives only: drop --smpi-collectives or use "
          "--engine simgrid");
    }
    return run_fluid_session({&trace, &plan, hosts, host_of, eager_threshold, native,
                              std::move(round_delays), options.cpu_speedup, options.progress});
  }

  // SimGrid's engine: one SMPI process per rank.
  SMPI_app_instance_register(kSmpiInstance, nullptr, nprocs);
  SessionOutput output;
  output.first_start.assign(static_cast<std::size_t>(nprocs), -1);
  output.measure_start.assign(static_cast<std::size_t>(nprocs), -1);
  output.end.assign(static_cast<std::size_t>(nprocs), -1);
  EagerSendBoard eager_sends;
  SessionContext context;
  context.eager_sends = &eager_sends;
  context.trace = &trace;
  context.plan = &plan;
  context.cpu_speedup = options.cpu_speedup;
  context.eager_threshold = eager_threshold;
  context.native = native;
  context.round_delays = std::move(round_delays);
  context.create_communicators = uses_sub_communicators(trace, plan);
  context.output = &output;
  for (int rank = 0; rank < nprocs; ++rank) {
    simgrid::s4u::ActorPtr actor = simgrid::s4u::Actor::init(
        std::to_string(rank),
        hosts[static_cast<std::size_t>(host_of[static_cast<std::size_t>(rank)])]);
    // Who the actor is for SMPI's MPI_Init.
    actor->set_property("instance_id", kSmpiInstance);
    actor->set_property("rank", std::to_string(rank));
    actor->start([rank, &context] { run_rank(rank, context); });
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

}  // namespace

SessionOutput run_session(const core::ScaledTrace& trace, const SimOptions& options,
                          const core::SessionPlan& plan) {
  SessionOutput output;
  run_with_stack(kEngineStackBytes,
                 [&] { output = simulate_in_this_thread(trace, options, plan); });
  return output;
}

}  // namespace p3s::sim
