#pragma once
// The tracer's per-process state, and the recording of one MPI call as an event.
#include <mpi.h>
#include <pthread.h>

#include <atomic>

#include "core/event.hpp"
#include "trace/communicators.hpp"
#include "trace/requests.hpp"

namespace p3s::trace {

// Whether a wrapper records its call. Only the thread that initialised MPI records: the tracer
// supports programs that make MPI calls from one thread (MPI_THREAD_FUNNELED or less); calls
// from other threads pass through unrecorded. A wrapped call made from inside another one
// (an MPI library calling its own MPI_ entry points) is part of the outer event.
struct RecordingGate {
  std::atomic<bool> active{false};
  bool in_call = false;
  pthread_t init_thread{};
};
extern RecordingGate g_gate;

inline bool should_record() {
  return g_gate.active.load(std::memory_order_relaxed) && !g_gate.in_call &&
         pthread_equal(pthread_self(), g_gate.init_thread) != 0;
}

// Called once PMPI_Init or PMPI_Init_thread succeeded, with the thread level the program
// asked for (MPI_THREAD_SINGLE for MPI_Init). If P3S_TRACE_DIR is set, opens this rank's
// trace and starts recording; otherwise the tracer stays out of the way for good.
void start_tracing(int required_thread_level);
// Stops recording and closes the trace with its end line (complete at MPI_Finalize, abort at
// MPI_Abort).
void end_tracing(core::TraceEnd end);

CommunicatorTable& communicators();
RequestTable& requests();
// MPI_Dims_create's arguments and result, as a dims_create line (no event).
void record_dims_create(int nnodes, int ndims, const int* given, const int* dims);

// One MPI call being recorded: constructed just before the call into MPI (the compute burst
// ends there), filled in by the record_* functions, and written by commit().
class RecordedCall {
 public:
  explicit RecordedCall(core::Op op);
  ~RecordedCall() { g_gate.in_call = false; }
  RecordedCall(const RecordedCall&) = delete;
  RecordedCall& operator=(const RecordedCall&) = delete;

  core::Event& event() { return event_; }
  // The communicator's description; one the trace cannot name leaves the call unrecorded.
  const CommunicatorInfo& communicator(MPI_Comm comm);
  // Leaves the call out of the trace; its time counts into the next compute burst.
  void discard() { discarded_ = true; }
  // Ends the event and writes it, unless the call failed (`mpi_result` is not MPI_SUCCESS:
  // nothing was communicated) or was discarded. Returns `mpi_result`.
  int commit(int mpi_result);

 private:
  core::Event& event_;
  bool discarded_ = false;
};

}  // namespace p3s::trace
