#include "trace/tracer.hpp"

#include <unistd.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/trace_format.hpp"
#include "trace/boundary_clock.hpp"
#include "trace/hardware_counters.hpp"
#include "trace/settings.hpp"
#include "trace/signal_handlers.hpp"
#include "trace/trace_writer.hpp"
#include "trace/warning.hpp"

namespace p3s::trace {

RecordingGate g_gate;

namespace {

struct Tracer {
  TraceWriter writer;
  BoundaryClock clock;
  HardwareCounters counters;
  HardwareCounters::Values counters_at_start{};
  HardwareCounters::Values counters_at_last_end{};
  CommunicatorTable communicators;
  RequestTable requests;
  // The event being recorded, reused so that recording a call does not allocate.
  core::Event event;
  ClockReading last_end;    // where the previous recorded call ended
  std::int64_t origin = 0;  // monotonic time when MPI_Init returned
};

// Created when tracing starts and never destroyed: programs may call MPI from exit handlers
// and static destructors, after this library's own static objects would be gone.
Tracer* g_tracer = nullptr;
bool g_started = false;

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

// Clears the event for the next call, keeping its request list's storage.
void reset(core::Event& event, core::Op op) {
  std::vector<core::RequestRecord> requests = std::move(event.requests);
  requests.clear();
  event = core::Event{};
  event.op = op;
  event.requests = std::move(requests);
}

// A process that exits without MPI_Finalize still leaves what it recorded (read as truncated).
__attribute__((destructor)) void flush_at_exit() {
  if (g_tracer != nullptr && g_gate.active.load()) g_tracer->writer.flush();
}

}  // namespace

void start_tracing(int required_thread_level) {
  if (g_started) return;
  g_started = true;
  int rank = 0;
  int nprocs = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  const bool speaks = rank == 0;  // messages for the whole run come from rank 0 only
  std::optional<Settings> settings = settings_from_environment(speaks);
  if (!settings) return;

  auto* tracer = new Tracer;
  std::string path = settings->directory + "/" + core::rank_trace_file_name(rank);
  if (!tracer->writer.open(path, settings->buffer_bytes)) {
    delete tracer;
    return;
  }
  g_tracer = tracer;
  if (!tracer->counters.start() && speaks) {
    print_warning(
        "PAPI reports no hardware counters on this machine; compute will be measured as "
        "per-thread CPU time");
  }
  if (required_thread_level == MPI_THREAD_MULTIPLE && speaks) {
    print_warning(
        "the program asked for MPI_THREAD_MULTIPLE; only MPI calls from the thread that "
        "called MPI_Init_thread are recorded, calls from other threads are not");
  }

  tracer->last_end = tracer->clock.start(settings->cpu_min_ns);
  tracer->origin = tracer->last_end.wall;
  tracer->writer.write_header(core::TraceHeader{.rank = rank,
                                                .nprocs = nprocs,
                                                .host = host_name(),
                                                .counter_names = tracer->counters.names(),
                                                .wall_clock = "CLOCK_MONOTONIC",
                                                .cpu_clock = "CLOCK_THREAD_CPUTIME_ID",
                                                .cpu_min_ns = settings->cpu_min_ns,
                                                .start_unix_ns = realtime_ns()});
  tracer->communicators.start(tracer->writer);
  // On disk at once: a rank that MPI's fatal error handler ends with _exit (no exit handlers,
  // no signal) still leaves a trace that reads as truncated rather than an empty file.
  tracer->writer.flush();
  install_signal_handlers();
  tracer->counters.read(tracer->counters_at_last_end);
  g_gate.init_thread = pthread_self();
  g_gate.active.store(tracer->writer.is_open());
}

void end_tracing(core::TraceEnd end) {
  if (g_tracer == nullptr) return;
  g_gate.active.store(false);
  g_tracer->writer.finish(end);
}

CommunicatorTable& communicators() {
  return g_tracer->communicators;
}
RequestTable& requests() {
  return g_tracer->requests;
}

void record_dims_create(int nnodes, int ndims, const int* given, const int* dims) {
  core::DimsCreate d;
  d.nnodes = nnodes;
  d.given.assign(given, given + ndims);
  d.dims.assign(dims, dims + ndims);
  g_tracer->writer.write_dims_create(d);
}

RecordedCall::RecordedCall(core::Op op) : event_(g_tracer->event) {
  g_gate.in_call = true;
  Tracer& tracer = *g_tracer;
  ClockReading now = tracer.clock.read();
  reset(event_, op);
  event_.t_start = now.wall - tracer.origin;
  // Extrapolated CPU readings may overshoot a real one slightly; a burst's CPU time lies
  // between zero and its wall time.
  event_.burst_cpu =
      std::clamp(now.cpu - tracer.last_end.cpu, std::int64_t{0}, now.wall - tracer.last_end.wall);
  const int counter_count = tracer.counters.count();
  if (counter_count > 0) {
    tracer.counters.read(tracer.counters_at_start);
    for (int i = 0; i < counter_count; ++i) {
      auto slot = static_cast<std::size_t>(i);
      event_.counters[slot] =
          std::max(0LL, tracer.counters_at_start[slot] - tracer.counters_at_last_end[slot]);
    }
  }
}

const CommunicatorInfo& RecordedCall::communicator(MPI_Comm comm) {
  const CommunicatorInfo& info = g_tracer->communicators.lookup(comm);
  if (!info.recordable) discard();
  return info;
}

int RecordedCall::commit(int mpi_result) {
  if (mpi_result != MPI_SUCCESS || discarded_) return mpi_result;
  Tracer& tracer = *g_tracer;
  tracer.writer.flush_if_nearly_full();
  if (tracer.counters.count() > 0) tracer.counters.read(tracer.counters_at_last_end);
  tracer.last_end = tracer.clock.read();
  event_.t_end = tracer.last_end.wall - tracer.origin;
  tracer.writer.write_event(event_, tracer.counters.count());
  if (!tracer.writer.is_open()) g_gate.active.store(false);
  return mpi_result;
}

}  // namespace p3s::trace
