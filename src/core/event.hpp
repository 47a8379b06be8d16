#pragma once
// One rank's record of its MPI calls: the data model every stage reads.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/op.hpp"

namespace p3s::core {

inline constexpr std::int32_t kNone = -1;
inline constexpr std::int32_t kAnySource = -2;
inline constexpr std::int32_t kAnyTag = -2;
inline constexpr int kCounterSlots = 3;

// A request a completion or start call acted on, with the message it carries.
struct RequestRecord {
  std::int64_t req = kNone;
  bool send = false;
  std::int32_t peer = kNone;  // world rank; for a completed receive, the actual source
  std::int32_t tag = kNone;
  std::int64_t bytes = 0;  // for a completed receive, the bytes actually received
  bool operator==(const RequestRecord&) const = default;
};

// One MPI call on one rank. Times are nanoseconds since MPI_Init returned on that rank.
struct Event {
  Op op = Op::Barrier;
  std::int64_t t_start = 0;
  std::int64_t t_end = 0;
  // Thread CPU time of the compute burst that ended when this call began.
  std::int64_t burst_cpu = 0;
  // Counters of that burst (PAPI_TOT_INS, PAPI_TOT_CYC, a cache-miss counter); -1 when absent.
  std::array<std::int64_t, kCounterSlots> counters{-1, -1, -1};
  // Send side: destination (world rank), tag, bytes sent (collectives: bytes this rank
  // contributes).
  std::int32_t dst = kNone;
  std::int32_t tag = kNone;
  std::int64_t bytes = 0;
  // Receive side: source (world rank), tag, bytes received (collectives: bytes this rank gets).
  std::int32_t src = kNone;
  std::int32_t rtag = kNone;
  std::int64_t rbytes = 0;
  std::int32_t comm = 0;      // communicator id in this rank's trace (0 = MPI_COMM_WORLD)
  std::int32_t root = kNone;  // world rank of a rooted collective's root
  // Request id for calls that create or start one; for communicator creation, the new
  // communicator's id (-1 when the call returned MPI_COMM_NULL on this rank).
  std::int64_t req = kNone;
  std::vector<RequestRecord> requests;  // completion/start calls: the requests acted on

  bool operator==(const Event&) const = default;
};

// A communicator, as the world ranks of its members in communicator rank order.
struct Communicator {
  std::int32_t id = 0;
  std::vector<std::int32_t> members;
  bool operator==(const Communicator&) const = default;
};

// A call of MPI_Dims_create: the process count, the extents given (0: MPI's to choose) and
// those it returned. No event (it communicates nothing), but it says how the application lays
// out its grid, which the model then need not guess.
struct DimsCreate {
  std::int32_t nnodes = 0;
  std::vector<std::int32_t> given;
  std::vector<std::int32_t> dims;
  bool operator==(const DimsCreate&) const = default;
};

enum class TraceEnd : std::uint8_t { Complete, Aborted, Signalled, Truncated };

// Everything one rank's trace file says.
struct RankTrace {
  std::int32_t rank = 0;
  std::int32_t nprocs = 0;
  std::string host;
  std::vector<std::string> counter_names;  // empty when the run had no hardware counters
  std::string wall_clock;
  std::string cpu_clock;
  std::int64_t cpu_min_ns =
      0;  // intervals shorter than this were taken as all CPU (see FORMATS.md)
  std::int64_t start_unix_ns = 0;
  std::vector<Communicator> comms;
  std::vector<DimsCreate> dims_created;
  std::vector<Event> events;
  TraceEnd end = TraceEnd::Complete;
  int end_signal = 0;

  bool has_counters() const { return !counter_names.empty(); }
  // Wall time of the compute burst before events[i].
  std::int64_t burst_wall(std::size_t i) const {
    return events[i].t_start - (i == 0 ? 0 : events[i - 1].t_end);
  }
};

}  // namespace p3s::core
