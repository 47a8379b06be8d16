#pragma once
// One rank's point-to-point messages, sent on SimGrid mailboxes with SMPI's semantics but
// without its request layer: payloads carry SMPI's 16-byte envelope, a transfer starts once
// both sides are posted, sends below the eager threshold let the sender go on at once, and
// smpi/os, smpi/ois and smpi/or keep the rank busy as SMPI would.
//
// SMPI makes its eager sends "detached" activities, which SimGrid 3.32 keeps in one global
// list and removes from it by a linear search, so a large simulation spends most of its time
// there. Here an eager send stays an ordinary activity: the sender does not wait for it, and
// releases it once its receiver has marked it taken (see eager_send_board.hpp).
#include <simgrid/forward.h>

#include <cstdint>
#include <deque>
#include <simgrid/s4u/Comm.hpp>
#include <unordered_map>

#include "sim/eager_send_board.hpp"
#include "sim/message_port.hpp"
#include "sim/overhead_table.hpp"

namespace p3s::sim {

// SMPI's per-rank software overheads, from its host's properties or the configuration.
struct SmpiOverheads {
  OverheadTable send;        // smpi/os: a blocking send, or any eager send
  OverheadTable isend;       // smpi/ois: a non-blocking send
  OverheadTable eager_recv;  // smpi/or: receiving an eager message
};

// A host's own smpi/os, smpi/ois and smpi/or properties, else SimGrid's configuration.
SmpiOverheads smpi_overheads_of(const simgrid::s4u::Host& host);

// SMPI adds this envelope (tag, source, communicator) to every message it simulates.
inline constexpr std::int64_t kSmpiEnvelopeBytes = 16;

// Whether SMPI sends `bytes` eagerly (the sender goes on at once) below `eager_threshold`.
inline bool sends_eagerly(SendMode mode, std::int64_t bytes, std::int64_t eager_threshold) {
  return mode == SendMode::Buffered || (mode == SendMode::Standard && bytes < eager_threshold);
}

// What a send keeps its rank busy for: SMPI charges smpi/os (ois for a non-blocking send)
// whenever the sender goes on before the transfer ends.
inline double send_overhead(const SmpiOverheads& o, SendMode mode, bool blocking, bool eager,
                            std::int64_t bytes) {
  if (!eager && blocking && mode != SendMode::Synchronous) return 0;
  return blocking ? o.send.seconds(bytes) : o.isend.seconds(bytes);
}

class PointToPoint final : public MessagePort {
 public:
  // Sends below `eager_threshold` bytes are eager (SMPI's smpi/send-is-detached-thresh).
  PointToPoint(int rank, std::int64_t eager_threshold, SmpiOverheads overheads,
               EagerSendBoard& board);

  void send(std::uint64_t comm_key, std::int32_t dst, std::int32_t tag, std::int64_t bytes,
            SendMode mode, bool blocking, std::int64_t req) override;
  void receive(std::uint64_t comm_key, std::int32_t src, std::int32_t tag, std::int64_t bytes,
               bool blocking, std::int64_t req) override;
  bool has_request(std::int64_t req) const override { return pending_.count(req) != 0; }
  void complete(std::int64_t req) override;
  // Waits for the eager sends still in flight; they end when their receivers take them.
  void finish();

 private:
  struct Pending {
    simgrid::s4u::CommPtr comm;  // null: an eager send, complete for MPI already
    bool receive = false;
    std::int64_t bytes = 0;
    void* landing = nullptr;  // what the sender's message carries (see receive())
  };
  struct EagerSend {
    simgrid::s4u::CommPtr comm;
    EagerSendBoard::Slot slot;
  };

  simgrid::s4u::Mailbox* mailbox(std::uint64_t comm_key, std::int32_t src, std::int32_t dst,
                                 std::int32_t tag);
  Pending& file(std::int64_t req);
  void wait_receive(const simgrid::s4u::CommPtr& comm, void* const& landing, std::int64_t bytes);
  void release_taken_sends();

  int rank_;
  std::int64_t eager_threshold_;
  SmpiOverheads overheads_;
  EagerSendBoard& board_;
  std::unordered_map<MessageStream, simgrid::s4u::Mailbox*, MessageStreamHash> mailboxes_;
  std::unordered_map<std::int64_t, Pending> pending_;
  std::deque<EagerSend> eager_in_flight_;
};

}  // namespace p3s::sim
