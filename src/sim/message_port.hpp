#pragma once
// What a rank's point-to-point messages go through: SimGrid's mailboxes (PointToPoint) or the
// fluid engine's program (fluid_program.hpp). The collectives p3s rebuilds and the dispatch of
// a program step's messages are written once against it, so both engines send the same
// messages in the same order.
#include <cstddef>
#include <cstdint>

namespace p3s::sim {

// The stream a message travels in: MPI matches a communicator's messages from one source to
// one destination with one tag first in, first out, and never lets them overtake each other.
struct MessageStream {
  std::uint64_t comm_key;
  std::int32_t src, dst, tag;
  bool operator==(const MessageStream&) const = default;
};
struct MessageStreamHash {
  std::size_t operator()(const MessageStream& k) const {
    std::uint64_t h = k.comm_key * 0x9e3779b97f4a7c15ULL;
    h ^= (static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.src)) << 32) |
         static_cast<std::uint32_t>(k.dst);
    h *= 0xff51afd7ed558ccdULL;
    h ^= static_cast<std::uint32_t>(k.tag);
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
};

enum class SendMode : std::uint8_t {
  Standard,     // eager below the threshold, rendezvous above
  Buffered,     // always eager (MPI_Bsend)
  Synchronous,  // never eager (MPI_Ssend)
};

class MessagePort {
 public:
  virtual ~MessagePort() = default;
  // A blocking send returns when MPI would let the sender go on; a non-blocking one files its
  // request `req` for `complete`. Peers are world ranks; `comm_key` names the communicator.
  virtual void send(std::uint64_t comm_key, std::int32_t dst, std::int32_t tag, std::int64_t bytes,
                    SendMode mode, bool blocking, std::int64_t req) = 0;
  virtual void receive(std::uint64_t comm_key, std::int32_t src, std::int32_t tag,
                       std::int64_t bytes, bool blocking, std::int64_t req) = 0;
  // Whether request `req` was started here and not yet completed.
  virtual bool has_request(std::int64_t req) const = 0;
  // Waits for request `req` (a started send or receive) to complete; nothing if unknown.
  virtual void complete(std::int64_t req) = 0;

 protected:
  MessagePort() = default;
  MessagePort(const MessagePort&) = default;
  MessagePort& operator=(const MessagePort&) = default;
};

}  // namespace p3s::sim
