#include "trace/communicators.hpp"

#include <numeric>

#include "core/event.hpp"
#include "trace/trace_writer.hpp"

namespace p3s::trace {
namespace {

// The answer for MPI_COMM_NULL and for communicators reaching outside MPI_COMM_WORLD.
const CommunicatorInfo& unrecordable_communicator() {
  static const CommunicatorInfo info{
      .id = core::kNone, .recordable = false, .peers = std::make_shared<const WorldRanks>()};
  return info;
}

bool all_in_world(const WorldRanks& ranks) {
  for (std::int32_t rank : ranks) {
    if (rank == MPI_UNDEFINED) return false;
  }
  return true;
}

}  // namespace

std::int32_t CommunicatorInfo::world_rank(int rank) const {
  if (rank >= 0 && rank < peer_count()) return (*peers)[static_cast<std::size_t>(rank)];
  if (rank == MPI_ANY_SOURCE) return core::kAnySource;
  return core::kNone;
}

CommunicatorTable::CommunicatorTable() : last_info_(&unrecordable_communicator()) {}

void CommunicatorTable::start(TraceWriter& writer) {
  writer_ = &writer;
  PMPI_Comm_group(MPI_COMM_WORLD, &world_group_);
  add(MPI_COMM_WORLD);
  add(MPI_COMM_SELF);
}

const CommunicatorInfo& CommunicatorTable::add(MPI_Comm comm) {
  CommunicatorInfo info;
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  info.inter = inter != 0;
  PMPI_Comm_rank(comm, &info.my_rank);
  PMPI_Comm_size(comm, &info.local_size);
  PMPI_Comm_rank(MPI_COMM_WORLD, &info.my_world_rank);

  MPI_Group group = MPI_GROUP_NULL;
  PMPI_Comm_group(comm, &group);
  WorldRanks members = world_ranks_of(group);
  PMPI_Group_free(&group);
  if (info.inter) {
    PMPI_Comm_remote_group(comm, &group);
    info.peers = std::make_shared<const WorldRanks>(world_ranks_of(group));
    PMPI_Group_free(&group);
  } else {
    info.peers = std::make_shared<const WorldRanks>(members);
  }

  info.recordable = all_in_world(members) && all_in_world(*info.peers);
  if (info.recordable) {
    info.id = next_id_++;
    // An intercommunicator's line lists its local group, the processes it joins on this side.
    writer_->write_communicator(core::Communicator{.id = info.id, .members = std::move(members)});
  }
  auto [position, inserted] = by_handle_.insert_or_assign(comm, std::move(info));
  last_handle_ = comm;
  last_info_ = &position->second;
  return position->second;
}

void CommunicatorTable::forget(MPI_Comm comm) {
  by_handle_.erase(comm);
  last_handle_ = MPI_COMM_NULL;
  last_info_ = &unrecordable_communicator();
}

const CommunicatorInfo& CommunicatorTable::lookup_slow(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) return unrecordable_communicator();
  auto found = by_handle_.find(comm);
  if (found == by_handle_.end()) return add(comm);
  last_handle_ = comm;
  last_info_ = &found->second;
  return found->second;
}

WorldRanks CommunicatorTable::world_ranks_of(MPI_Group group) const {
  int size = 0;
  PMPI_Group_size(group, &size);
  std::vector<int> ranks(static_cast<std::size_t>(size));
  std::iota(ranks.begin(), ranks.end(), 0);
  static_assert(sizeof(int) == sizeof(std::int32_t), "world ranks are translated in place");
  WorldRanks world(ranks.size());
  PMPI_Group_translate_ranks(group, size, ranks.data(), world_group_, world.data());
  return world;
}

}  // namespace p3s::trace
