#pragma once
// Some of SMPI's collective algorithms rebuilt on the simulator's point-to-point layer: the
// same messages, of the same sizes, posted in the same order, hence the same simulated times —
// without SMPI's request layer, whose waitall makes a root receiving from n ranks cost O(n^2).
// They are SMPI's "default" ones (what smpirun uses unless told otherwise) and its recursive
// doubling allreduce ("rdb", which scales to large N). Collectives for which SMPI is set to
// another algorithm (smpi/coll-selector, smpi/<collective>) or that are non-blocking go to
// SMPI itself.
#include <cstdint>
#include <string_view>

#include "core/rank_program.hpp"
#include "sim/message_port.hpp"
#include "sim/rank_communicators.hpp"

namespace p3s::sim {

enum class AllreduceAlgorithm : std::uint8_t {
  Smpi,               // SMPI runs it
  Default,            // linear reduce to rank 0, then binomial bcast from it
  RecursiveDoubling,  // allreduce__rdb
};

// Whether p3s rebuilds SMPI's `algorithm` for `collective` (SMPI's names: "bcast", "default"):
// the default barrier, bcast, reduce and allreduce, and recursive doubling's allreduce.
bool rebuilt_by_p3s(std::string_view collective, std::string_view algorithm);

// Which collectives p3s runs itself, as SMPI's configuration chooses their algorithms.
struct NativeAlgorithms {
  bool barrier = false;  // barrier__ompi_basic_linear
  bool bcast = false;    // bcast__binomial_tree
  bool reduce = false;   // linear reduce (colls::ireduce)
  AllreduceAlgorithm allreduce = AllreduceAlgorithm::Smpi;

  // Reads smpi/coll-selector and smpi/<collective> from SimGrid's configuration.
  static NativeAlgorithms from_config();
};

class NativeCollectives {
 public:
  NativeCollectives(const NativeAlgorithms& algorithms, MessagePort& p2p,
                    const RankCommunicators& comms)
      : algorithms_(algorithms), p2p_(p2p), comms_(comms) {}

  bool handles(core::Op op) const;
  void run(const core::ProgramStep& step);

 private:
  struct Group {
    std::int32_t id;
    std::uint64_t key;
    int rank;  // this rank's rank in it
    int size;
  };
  Group group(std::int32_t id) const;
  void barrier(const Group& g);
  void bcast(const Group& g, std::int64_t bytes, int root);
  void reduce(const Group& g, std::int64_t bytes, int root);
  void allreduce_recursive_doubling(const Group& g, std::int64_t bytes);
  void sendrecv(const Group& g, int peer, std::int32_t tag, std::int64_t bytes);

  void send(const Group& g, int to, std::int32_t tag, std::int64_t bytes, bool blocking,
            std::int64_t req);
  void receive(const Group& g, int from, std::int32_t tag, std::int64_t bytes, bool blocking,
               std::int64_t req);

  NativeAlgorithms algorithms_;
  MessagePort& p2p_;
  const RankCommunicators& comms_;
};

}  // namespace p3s::sim
