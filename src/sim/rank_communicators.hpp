#pragma once
// The communicators of one simulated rank, as SMPI communicators. Trace ids are local to a
// rank; a communicator is the same on every member because its member list is.
#include <smpi/mpi.h>

#include <cstdint>
#include <map>
#include <vector>

#include "core/event.hpp"

namespace p3s::sim {

class RankCommunicators {
 public:
  // Knows the world (id 0) and self (id 1) only.
  RankCommunicators(int rank, int nprocs);

  // Creates through SMPI every communicator of `comms` other than the world and self. Ranks
  // create theirs in the order of their member lists, so that two ranks sharing communicators
  // create them in the same order and SMPI's creation (a broadcast inside each) cannot deadlock.
  void create(const std::vector<core::Communicator>& comms);
  // Knows every communicator of `comms` without creating it in SMPI (for an engine without
  // SMPI), and returns them in creation order. Throws if this rank is not a member of one.
  std::vector<const core::Communicator*> adopt(const std::vector<core::Communicator>& comms);

  int own_rank() const { return rank_; }
  MPI_Comm get(std::int32_t id) const;
  int size(std::int32_t id) const;
  // The world rank of rank `rank` of communicator `id`.
  std::int32_t world_rank(std::int32_t id, int rank) const;
  // The rank in communicator `id` of a world rank (a collective's root).
  int rank_in(std::int32_t id, std::int32_t world_rank) const;
  // The same number on every member: names the communicator's point-to-point mailboxes.
  std::uint64_t key(std::int32_t id) const { return find(id).key; }

 private:
  struct Entry {
    MPI_Comm comm = MPI_COMM_NULL;
    std::uint64_t key = 0;
    std::vector<std::int32_t> members;  // empty for the world and self
  };
  const Entry& find(std::int32_t id) const;

  int rank_;
  int nprocs_;
  Entry world_;
  std::map<std::int32_t, Entry> entries_;
};

}  // namespace p3s::sim
