#include "replay_mpi/black_hole.hpp"

#include "replay_mpi/control.hpp"

namespace p3s::replay {
namespace {

// Requests in flight before the black hole completes them all (memory stays bounded however
// long a step is).
constexpr std::size_t kMaxInFlight = 1024;

}  // namespace

void BlackHole::complete_all() {
  MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  requests_.clear();
  in_.clear();
}

void BlackHole::serve(int process) {
  for (;;) {
    const StepRequests step = receive_step_requests(process, control_);
    if (step.requests.empty()) break;
    // Every repetition's messages at once, in call order: the absent ranks are ahead of the
    // measurable process, their messages there before it asks (a large one still moves when
    // it does), and what it sends finds a receive posted.
    for (std::int64_t rep = 0; rep < step.repetitions; ++rep) {
      if (requests_.size() + 2 * step.requests.size() > kMaxInFlight) complete_all();
      for (const Control& c : step.requests) serve_request(process, c);
    }
  }
  complete_all();
}

void BlackHole::serve_request(int process, const Control& c) {
  if (c.recv_bytes >= 0) {
    in_.emplace_back(static_cast<std::size_t>(c.recv_bytes));
    requests_.emplace_back();
    MPI_Irecv(in_.back().data(), static_cast<int>(c.recv_bytes), MPI_BYTE, process, c.recv_tag,
              data_, &requests_.back());
  }
  if (c.send_bytes >= 0) {
    if (static_cast<std::int64_t>(out_.size()) < c.send_bytes)
      out_.resize(static_cast<std::size_t>(c.send_bytes));
    requests_.emplace_back();
    MPI_Isend(out_.data(), static_cast<int>(c.send_bytes), MPI_BYTE, process, c.send_tag, data_,
              &requests_.back());
  }
}

}  // namespace p3s::replay
