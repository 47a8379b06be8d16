#pragma once
// SMPI's "default" collective algorithms (the ones smpirun uses unless told otherwise) rebuilt on
// the simulator's point-to-point layer: the same messages, of the same sizes, posted in the same
// order, hence the same simulated times — without SMPI's request layer, whose waitall makes a
// root receiving from n ranks cost O(n^2). Collectives whose SMPI algorithm is another
// (smpi/coll-selector, smpi/<collective>) or that are non-blocking go to SMPI itself.
#include <cstdint>

#include "sim/point_to_point.hpp"
#include "sim/rank_communicators.hpp"
#include "sim/rank_program.hpp"

namespace p3s::sim {

// Which collectives SMPI's configuration leaves to its default algorithm.
struct DefaultAlgorithms {
  bool barrier = false;  // barrier__ompi_basic_linear
  bool bcast = false;    // bcast__binomial_tree
  bool reduce = false;   // linear reduce (colls::ireduce)
  bool allreduce = false;  // reduce to rank 0, then bcast from it

  // Reads smpi/coll-selector and smpi/<collective> from SimGrid's configuration.
  static DefaultAlgorithms from_config();
};

class NativeCollectives {
 public:
  NativeCollectives(const DefaultAlgorithms& algorithms, PointToPoint& p2p,
                    const RankCommunicators& comms)
      : algorithms_(algorithms), p2p_(p2p), comms_(comms) {}

  bool handles(core::Op op) const;
  void run(const Step& step);

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

  void send(const Group& g, int to, std::int32_t tag, std::int64_t bytes, bool blocking,
            std::int64_t req);
  void receive(const Group& g, int from, std::int32_t tag, std::int64_t bytes, bool blocking,
               std::int64_t req);

  DefaultAlgorithms algorithms_;
  PointToPoint& p2p_;
  const RankCommunicators& comms_;
};

}  // namespace p3s::sim
