#include "sim/point_to_point.hpp"

#include <fmt/core.h>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Mailbox.hpp>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <xbt/config.hpp>

namespace p3s::sim {
namespace {

// A message carries no data, only a word SimGrid copies to the receiver: an eager send's slot
// on the board (odd), or a rendezvous send (2). SimGrid's payload is a void*, never
// dereferenced here: the word travels as one.
constexpr std::uintptr_t kRendezvous = 2;
void* as_payload(std::uintptr_t word) {
  return reinterpret_cast<void*>(word);  // NOLINT(performance-no-int-to-ptr): a word, no address
}
void* eager_word(EagerSendBoard::Slot slot) {
  return as_payload((static_cast<std::uintptr_t>(slot) << 1) | 1);
}

void busy(double seconds) {
  if (seconds > 0) simgrid::s4u::this_actor::sleep_for(seconds);
}

OverheadTable host_overhead(const simgrid::s4u::Host& host, const char* key) {
  const char* own = host.get_property(key);
  std::string spec = own ? std::string(own) : simgrid::config::get_value<std::string>(key);
  // Hosts mostly share one spec, SimGrid's configuration: each is parsed once per thread, not
  // once per rank (three parses cost 30 k instructions, 7 % of a simulation at 4,096 ranks).
  thread_local std::unordered_map<std::string, OverheadTable> parsed;
  const auto it = parsed.find(spec);
  if (it != parsed.end()) return it->second;
  OverheadTable table(spec);
  parsed.emplace(std::move(spec), table);
  return table;
}

}  // namespace

SmpiOverheads smpi_overheads_of(const simgrid::s4u::Host& host) {
  return {host_overhead(host, "smpi/os"), host_overhead(host, "smpi/ois"),
          host_overhead(host, "smpi/or")};
}

PointToPoint::PointToPoint(int rank, std::int64_t eager_threshold, SmpiOverheads overheads,
                           EagerSendBoard& board)
    : rank_(rank),
      eager_threshold_(eager_threshold),
      overheads_(std::move(overheads)),
      board_(board) {}

simgrid::s4u::Mailbox* PointToPoint::mailbox(std::uint64_t comm_key, std::int32_t src,
                                             std::int32_t dst, std::int32_t tag) {
  // One mailbox per (communicator, source, destination, tag): its first-in first-out matching
  // is then MPI's, messages of one such stream never overtaking each other.
  auto [it, inserted] = mailboxes_.try_emplace(MessageStream{comm_key, src, dst, tag}, nullptr);
  if (inserted) {
    it->second =
        simgrid::s4u::Mailbox::by_name(fmt::format("p2p {:x} {}>{} {}", comm_key, src, dst, tag));
  }
  return it->second;
}

PointToPoint::Pending& PointToPoint::file(std::int64_t req) {
  auto [it, inserted] = pending_.try_emplace(req);
  if (!inserted) {
    throw std::invalid_argument("rank " + std::to_string(rank_) + " starts request " +
                                std::to_string(req) + " again before completing it");
  }
  return it->second;
}

void PointToPoint::send(std::uint64_t comm_key, std::int32_t dst, std::int32_t tag,
                        std::int64_t bytes, SendMode mode, bool blocking, std::int64_t req) {
  const bool eager = sends_eagerly(mode, bytes, eager_threshold_);
  busy(send_overhead(overheads_, mode, blocking, eager, bytes));
  const EagerSendBoard::Slot slot = eager ? board_.post() : 0;
  void* word = eager ? eager_word(slot) : as_payload(kRendezvous);
  simgrid::s4u::CommPtr comm = mailbox(comm_key, rank_, dst, tag)->put_init(word, 0);
  comm->set_payload_size(static_cast<std::uint64_t>(bytes + kSmpiEnvelopeBytes));
  comm->start();
  if (eager) {
    if (!blocking) file(req);  // complete for MPI already
    eager_in_flight_.push_back({std::move(comm), slot});
    release_taken_sends();
    return;
  }
  if (blocking) {
    comm->wait();
    return;
  }
  file(req).comm = std::move(comm);
}

void PointToPoint::receive(std::uint64_t comm_key, std::int32_t src, std::int32_t tag,
                           std::int64_t bytes, bool blocking, std::int64_t req) {
  simgrid::s4u::CommPtr comm = mailbox(comm_key, src, rank_, tag)->get_init();
  if (blocking) {
    void* landing = nullptr;
    comm->set_dst_data(&landing, sizeof landing);
    comm->start();
    wait_receive(comm, landing, bytes);
    return;
  }
  Pending& p = file(req);
  p.receive = true;
  p.bytes = bytes;
  comm->set_dst_data(&p.landing, sizeof p.landing);
  comm->start();
  p.comm = std::move(comm);
}

void PointToPoint::wait_receive(const simgrid::s4u::CommPtr& comm, void* const& landing,
                                std::int64_t bytes) {
  comm->wait();
  const auto word = reinterpret_cast<std::uintptr_t>(landing);
  if ((word & 1) == 0) return;
  // As SMPI: receiving a message sent eagerly costs smpi/or.
  board_.mark_taken(static_cast<EagerSendBoard::Slot>(word >> 1));
  busy(overheads_.eager_recv.seconds(bytes));
}

void PointToPoint::complete(std::int64_t req) {
  auto it = pending_.find(req);
  if (it == pending_.end()) return;
  if (it->second.comm) {
    if (it->second.receive) {
      wait_receive(it->second.comm, it->second.landing, it->second.bytes);
    } else {
      it->second.comm->wait();
    }
  }
  pending_.erase(it);
  release_taken_sends();
}

void PointToPoint::release_taken_sends() {
  // A wait on a send its receiver took returns at once.
  while (!eager_in_flight_.empty() && board_.taken(eager_in_flight_.front().slot)) {
    eager_in_flight_.front().comm->wait();
    board_.release(eager_in_flight_.front().slot);
    eager_in_flight_.pop_front();
  }
}

void PointToPoint::finish() {
  for (auto& [req, p] : pending_) {
    if (p.comm) {
      throw std::invalid_argument("rank " + std::to_string(rank_) + " ends with request " +
                                  std::to_string(req) + " never completed");
    }
  }
  pending_.clear();
  // Their slots stay out of use: a receiver may mark them after this wait returns.
  for (EagerSend& e : eager_in_flight_) e.comm->wait();
  eager_in_flight_.clear();
}

}  // namespace p3s::sim
