#pragma once
// The Synthetic Signature's own messages, on communicators of their own so that they never
// match the replayed application's: a measurable process asks its black hole for what the
// absent peer would have done (001 sec. 4, Fig. 14 A), and noise pairs are told when to put
// messages in flight.
#include <mpi.h>

#include <cstdint>
#include <vector>

namespace p3s::replay {

struct Control {
  enum Kind : std::int32_t { End = 0, Serve = 1, Noise = 2 };
  std::int32_t kind = End;
  // Serve: the black hole receives `recv_bytes` with `recv_tag` from the measurable process and
  // sends it `send_bytes` with `send_tag`, each when >= 0 (both at once, as MPI_Sendrecv).
  // Noise: the sender puts `send_bytes`-byte messages in flight, `recv_bytes` of them.
  std::int32_t recv_tag = -1;
  std::int32_t send_tag = -1;
  std::int64_t recv_bytes = -1;
  std::int64_t send_bytes = -1;
};

inline constexpr int kControlTag = 1;
inline constexpr int kNoiseTag = 2;
inline constexpr int kNoiseEndTag = 3;
inline constexpr int kSyncTag = 4;  // on the measurable processes' communicator

// Returns on every member of `comm` at about the same time (see measurable_process.cpp).
void leave_together(MPI_Comm comm);

// Sends a control message (small: MPI sends it eagerly, the caller does not wait for the peer).
void send_control(const Control& c, int process, MPI_Comm comm);
Control receive_control(int process, MPI_Comm comm);
// A step's requests of a black hole: one repetition's, in call order, to serve `repetitions`
// times; no requests end the black hole's step.
struct StepRequests {
  std::vector<Control> requests;
  std::int64_t repetitions = 0;
};
void send_step_requests(const StepRequests& s, int process, MPI_Comm comm);
StepRequests receive_step_requests(int process, MPI_Comm comm);

}  // namespace p3s::replay
