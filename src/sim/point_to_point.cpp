#include "sim/point_to_point.hpp"

#include <fmt/core.h>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Mailbox.hpp>
#include <stdexcept>
#include <string>

namespace p3s::sim {
namespace {

// SMPI adds this envelope (tag, source, communicator) to every message it simulates.
constexpr std::int64_t kEnvelopeBytes = 16;
// Eager sends are reaped once this many are in flight: each check costs a simcall.
constexpr std::size_t kReapBatch = 8;

void busy(double seconds) {
  if (seconds > 0) simgrid::s4u::this_actor::sleep_for(seconds);
}

}  // namespace

std::size_t PointToPoint::MailboxKeyHash::operator()(const MailboxKey& k) const {
  std::uint64_t h = k.comm_key * 0x9e3779b97f4a7c15ULL;
  h ^= (static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.src)) << 32) |
       static_cast<std::uint32_t>(k.dst);
  h *= 0xff51afd7ed558ccdULL;
  h ^= static_cast<std::uint32_t>(k.tag);
  return static_cast<std::size_t>(h ^ (h >> 29));
}

PointToPoint::PointToPoint(int rank, std::int64_t eager_threshold, SmpiOverheads overheads)
    : rank_(rank), eager_threshold_(eager_threshold), overheads_(std::move(overheads)) {}

simgrid::s4u::Mailbox* PointToPoint::mailbox(std::uint64_t comm_key, std::int32_t src,
                                             std::int32_t dst, std::int32_t tag) {
  // One mailbox per (communicator, source, destination, tag): its first-in first-out matching
  // is then MPI's matching, messages of one such stream never overtaking each other.
  MailboxKey key{comm_key, src, dst, tag};
  auto [it, inserted] = mailboxes_.try_emplace(key, nullptr);
  if (inserted) {
    it->second = simgrid::s4u::Mailbox::by_name(fmt::format("p2p {:x} {}>{} {}", comm_key, src, dst, tag));
  }
  return it->second;
}

void PointToPoint::send(std::uint64_t comm_key, std::int32_t dst, std::int32_t tag,
                        std::int64_t bytes, SendMode mode, bool blocking, std::int64_t req) {
  const bool eager = mode == SendMode::Buffered ||
                     (mode == SendMode::Standard && bytes < eager_threshold_);
  // SMPI charges the send overhead whenever the sender goes on before the transfer ends.
  if (eager || !blocking || mode == SendMode::Synchronous) {
    busy(blocking ? overheads_.send.seconds(bytes) : overheads_.isend.seconds(bytes));
  }
  // SimGrid needs some data to carry: the address of the receivers' landing slot does.
  simgrid::s4u::CommPtr comm = mailbox(comm_key, rank_, dst, tag)->put_init(&landing_, 0);
  comm->set_payload_size(static_cast<std::uint64_t>(bytes + kEnvelopeBytes));
  comm->start();
  if (eager) {
    if (!blocking) file(req, {nullptr, false, bytes});
    eager_in_flight_.push_back(std::move(comm));
    if (eager_in_flight_.size() >= kReapBatch) reap_eager_sends();
    return;
  }
  if (blocking) {
    comm->wait();
    return;
  }
  file(req, {std::move(comm), false, bytes});
}

void PointToPoint::receive(std::uint64_t comm_key, std::int32_t src, std::int32_t tag,
                           std::int64_t bytes, bool blocking, std::int64_t req) {
  simgrid::s4u::CommPtr comm = mailbox(comm_key, src, rank_, tag)->get_init();
  comm->set_dst_data(&landing_, sizeof landing_);
  comm->start();
  if (blocking) {
    wait_receive(comm, bytes);
    return;
  }
  file(req, {std::move(comm), true, bytes});
}

void PointToPoint::file(std::int64_t req, Pending pending) {
  auto [it, inserted] = pending_.try_emplace(req, std::move(pending));
  if (!inserted) {
    throw std::invalid_argument("rank " + std::to_string(rank_) + " starts request " +
                                std::to_string(req) + " again before completing it");
  }
}

void PointToPoint::wait_receive(const simgrid::s4u::CommPtr& comm, std::int64_t bytes) {
  comm->wait();
  if (bytes < eager_threshold_) busy(overheads_.eager_recv.seconds(bytes));
}

void PointToPoint::complete(std::int64_t req) {
  auto it = pending_.find(req);
  if (it == pending_.end()) return;
  Pending p = std::move(it->second);
  pending_.erase(it);
  if (!p.comm) return;
  if (p.receive) {
    wait_receive(p.comm, p.bytes);
  } else {
    p.comm->wait();
  }
}

void PointToPoint::reap_eager_sends() {
  // test() tells whether a send is over; only a wait() releases it from the sender's list of
  // activities in SimGrid, and it returns at once for a finished one.
  while (!eager_in_flight_.empty() && eager_in_flight_.front()->test()) {
    eager_in_flight_.front()->wait();
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
  for (simgrid::s4u::CommPtr& comm : eager_in_flight_) comm->wait();
  eager_in_flight_.clear();
}

}  // namespace p3s::sim
