#include "sim/rank_communicators.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace p3s::sim {
namespace {

constexpr std::uint64_t kWorldKey = 0;
constexpr std::uint64_t kSelfKey = 1;

// FNV-1a over the member list, kept clear of the world's and self's keys.
std::uint64_t members_key(const std::vector<std::int32_t>& members) {
  std::uint64_t hash = 14695981039346656037ULL;
  for (std::int32_t m : members) {
    for (int shift = 0; shift < 32; shift += 8) {
      hash ^= (static_cast<std::uint32_t>(m) >> shift) & 0xffU;
      hash *= 1099511628211ULL;
    }
  }
  return hash < 2 ? hash + 2 : hash;
}

}  // namespace

RankCommunicators::RankCommunicators(int rank, int nprocs) : rank_(rank), nprocs_(nprocs) {
  world_ = {MPI_COMM_WORLD, kWorldKey, {}};  // find(0) answers it without the map
  // MPI_COMM_SELF only when a collective needs it: SMPI sizes a self communicator's group by
  // the largest actor id, which costs O(N) per rank.
  entries_[1] = {MPI_COMM_NULL, kSelfKey, {}};
}

std::vector<const core::Communicator*> RankCommunicators::adopt(
    const std::vector<core::Communicator>& comms) {
  std::vector<const core::Communicator*> order;
  for (const core::Communicator& c : comms) {
    if (c.id == 0 || c.id == 1) continue;
    order.push_back(&c);
  }
  std::sort(order.begin(), order.end(),
            [](const core::Communicator* a, const core::Communicator* b) {
              return a->members < b->members;
            });
  for (const core::Communicator* c : order) {
    if (std::find(c->members.begin(), c->members.end(), rank_) == c->members.end()) {
      throw std::invalid_argument("rank " + std::to_string(rank_) +
                                  " is not a member of its communicator " + std::to_string(c->id));
    }
    entries_[c->id] = {MPI_COMM_NULL, members_key(c->members), c->members};
  }
  return order;
}

void RankCommunicators::create(const std::vector<core::Communicator>& comms) {
  const std::vector<const core::Communicator*> order = adopt(comms);
  MPI_Group world_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  for (const core::Communicator* c : order) {
    MPI_Group group;
    MPI_Group_incl(world_group, static_cast<int>(c->members.size()), c->members.data(), &group);
    MPI_Comm_create(MPI_COMM_WORLD, group, &entries_[c->id].comm);
    MPI_Group_free(&group);
  }
  MPI_Group_free(&world_group);
}

const RankCommunicators::Entry& RankCommunicators::find(std::int32_t id) const {
  if (id == 0) return world_;  // by far the most used
  auto it = entries_.find(id);
  if (it == entries_.end()) {
    throw std::invalid_argument("rank " + std::to_string(rank_) + " uses communicator " +
                                std::to_string(id) + ", which its trace does not define");
  }
  return it->second;
}

MPI_Comm RankCommunicators::get(std::int32_t id) const {
  return id == 1 ? MPI_COMM_SELF : find(id).comm;
}

int RankCommunicators::size(std::int32_t id) const {
  const Entry& e = find(id);
  if (id == 0) return nprocs_;
  if (id == 1) return 1;
  return static_cast<int>(e.members.size());
}

std::int32_t RankCommunicators::world_rank(std::int32_t id, int rank) const {
  const Entry& e = find(id);
  if (id == 0) return rank;
  if (id == 1) return rank_;
  return e.members.at(static_cast<std::size_t>(rank));
}

int RankCommunicators::rank_in(std::int32_t id, std::int32_t world_rank) const {
  const Entry& e = find(id);
  if (id == 0) return world_rank;
  if (id == 1) return 0;
  auto it = std::find(e.members.begin(), e.members.end(), world_rank);
  if (it == e.members.end()) {
    throw std::invalid_argument("world rank " + std::to_string(world_rank) +
                                " is not in communicator " + std::to_string(id));
  }
  return static_cast<int>(it - e.members.begin());
}

}  // namespace p3s::sim
