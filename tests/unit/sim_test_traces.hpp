#pragma once
// Synthetic ST4NPs and platforms the simulator's unit tests share: a platform whose messages
// take exactly latency + size / bandwidth, traces scripted rank by rank, and the scripts of
// the cases both engines are checked on.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "core/scaled_trace.hpp"
#include "sim/platform_spec.hpp"
#include "sim/shared_core.hpp"
#include "sim/sim_options.hpp"

namespace p3s::sim {

constexpr double kBandwidth = 1.25e9;  // 10 Gb/s in bytes/s
constexpr double kLatency = 1e-6;      // per link; two links between two hosts

// Writes `spec` to `file` whole or not at all: test processes run side by side write the same
// platform, and one may read it while another writes it.
inline void write_shared_platform(const PlatformSpec& spec, const std::filesystem::path& file) {
  std::filesystem::path own = file;
  own += "." + std::to_string(::getpid());
  write_platform(spec, own);
  std::filesystem::rename(own, file);
}

// A cluster (flat unless asked) whose messages take exactly latency + size / bandwidth per link:
// no SMPI factors, no reverse "cross traffic" sharing the links of a two-way exchange.
inline std::filesystem::path exact_platform(int hosts, Topology topology = Topology::Flat,
                                            LinkSharing sharing = LinkSharing::MaxMin) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / "p3s_sim_engine_test";
  std::filesystem::create_directories(dir);
  std::filesystem::path file =
      dir / ("exact-" + std::to_string(hosts) + "-" + std::string(topology_name(topology)) + "-" +
             std::string(link_sharing_name(sharing)) + ".xml");
  PlatformSpec spec;
  spec.hosts = hosts;
  spec.topology = topology;
  spec.link_sharing = sharing;
  spec.bw_factor = "0:1";
  spec.lat_factor = "0:1";
  spec.config["network/crosstraffic"] = "0";
  write_shared_platform(spec, file);
  return file;
}

inline SimOptions options_on(const std::filesystem::path& platform) {
  SimOptions o;
  o.platform = platform;
  return o;
}

// One phase whose events come from a function of the rank.
class ScriptedTrace : public core::ScaledTrace {
 public:
  using Script = std::function<void(int rank, std::vector<core::Event>&)>;
  ScriptedTrace(int nprocs, Script script, std::vector<core::Communicator> subcomms = {})
      : nprocs_(nprocs), script_(std::move(script)), subcomms_(std::move(subcomms)) {}
  int nprocs() const override { return nprocs_; }
  const std::vector<core::ScaledPhase>& phases() const override { return phases_; }
  void phase_events(int, int rank, std::vector<core::Event>& out) const override {
    script_(rank, out);
  }
  std::vector<core::Communicator> communicators(int rank) const override {
    core::Communicator world{0, std::vector<std::int32_t>(static_cast<std::size_t>(nprocs_))};
    std::iota(world.members.begin(), world.members.end(), 0);
    std::vector<core::Communicator> comms{world, {1, {rank}}};
    for (const core::Communicator& c : subcomms_) {
      if (std::find(c.members.begin(), c.members.end(), rank) != c.members.end())
        comms.push_back(c);
    }
    return comms;
  }

 private:
  int nprocs_;
  Script script_;
  std::vector<core::Communicator> subcomms_;
  std::vector<core::ScaledPhase> phases_{{"scripted", 10}};
};

inline core::Event event(core::Op op, std::int64_t compute_ns = 0) {
  core::Event e;
  e.op = op;
  e.burst_cpu = compute_ns;
  return e;
}

// Rank 0 sends to rank 1, which receives only after 1 ms of compute.
inline ScriptedTrace late_receiver(std::int64_t bytes) {
  return ScriptedTrace(2, [bytes](int rank, std::vector<core::Event>& out) {
    if (rank == 0) {
      core::Event send = event(core::Op::Send);
      send.dst = 1, send.tag = 0, send.bytes = bytes;
      out.push_back(send);
    } else {
      core::Event recv = event(core::Op::Recv, 1'000'000);
      recv.src = 0, recv.rtag = 0, recv.rbytes = bytes;
      out.push_back(recv);
    }
  });
}

// Every collective p3s runs itself, on the world and on rows of 4 ranks, with compute between
// them that differs by rank so that ranks arrive at different times.
inline ScriptedTrace collectives_trace(int nprocs = 16) {
  std::vector<core::Communicator> rows;
  for (int row = 0; row < nprocs / 4; ++row) {
    rows.push_back({2, {4 * row, 4 * row + 1, 4 * row + 2, 4 * row + 3}});
  }
  return ScriptedTrace(
      nprocs,
      [](int rank, std::vector<core::Event>& out) {
        auto add = [&](core::Op op, std::int32_t comm, std::int32_t root, std::int64_t bytes) {
          core::Event e = event(op, 10'000 * (rank % 5));
          e.comm = comm, e.root = root, e.bytes = e.rbytes = bytes;
          out.push_back(e);
        };
        add(core::Op::Bcast, 0, 3, 100'000);
        add(core::Op::Reduce, 0, 5, 2'000);
        add(core::Op::Barrier, 0, core::kNone, 0);
        add(core::Op::Allreduce, 0, core::kNone, 80'000);
        add(core::Op::Allreduce, 2, core::kNone, 64);
        add(core::Op::Bcast, 2, 4 * (rank / 4) + 1, 70'000);
        add(core::Op::Reduce, 2, 4 * (rank / 4) + 2, 8);
      },
      rows);
}

// Three ranks in a ring, each making the same calls: every kind of call that costs rounds on a
// shared host, and calls that cost none.
inline ScriptedTrace every_kind_of_wait() {
  return ScriptedTrace(3, [](int rank, std::vector<core::Event>& out) {
    const std::int32_t right = (rank + 1) % 3, left = (rank + 2) % 3;
    auto p2p = [&](core::Op op, std::int32_t dst, std::int32_t src, std::int64_t req) {
      core::Event e = event(op);
      e.dst = dst, e.src = src, e.req = req;
      if (dst != core::kNone) e.tag = 5, e.bytes = 8;
      if (src != core::kNone) e.rtag = 5, e.rbytes = 8;
      out.push_back(e);
    };
    auto completion = [&](core::Op op, std::vector<core::RequestRecord> records) {
      core::Event e = event(op);
      e.requests = std::move(records);
      out.push_back(e);
    };
    const core::RequestRecord recv0{0, false, left, 5, 8}, send1{1, true, right, 5, 8},
        recv2{2, false, left, 5, 8}, send3{3, true, right, 5, 8}, recv4{4, false, left, 5, 8},
        send5{5, true, right, 5, 8}, reduce6{6, false, core::kNone, core::kNone, 8};
    p2p(core::Op::Send, right, core::kNone, core::kNone);        // 1 round
    p2p(core::Op::Recv, core::kNone, left, core::kNone);         // 1
    p2p(core::Op::Sendrecv, right, left, core::kNone);           // 1
    p2p(core::Op::Send, core::kNone, core::kNone, core::kNone);  // to MPI_PROC_NULL: 0
    p2p(core::Op::Irecv, core::kNone, left, 0);                  // 0
    p2p(core::Op::Isend, right, core::kNone, 1);                 // 0
    completion(core::Op::Testall, {recv0, send1});               // 0
    p2p(core::Op::Irecv, core::kNone, left, 2);
    p2p(core::Op::Isend, right, core::kNone, 3);
    completion(core::Op::Waitall, {recv2, send3});  // 1
    p2p(core::Op::Irecv, core::kNone, left, 4);
    p2p(core::Op::Isend, right, core::kNone, 5);
    completion(core::Op::Wait, {recv4});             // 1
    completion(core::Op::Wait, {send5});             // 1
    core::Event barrier = event(core::Op::Barrier);  // ceil(log2 3) = 2
    out.push_back(barrier);
    core::Event allreduce = event(core::Op::Allreduce);  // 2
    allreduce.bytes = allreduce.rbytes = 8;
    out.push_back(allreduce);
    core::Event self_bcast = event(core::Op::Bcast);  // on MPI_COMM_SELF: 0
    self_bcast.comm = 1, self_bcast.root = rank, self_bcast.bytes = self_bcast.rbytes = 8;
    out.push_back(self_bcast);
    core::Event iallreduce = event(core::Op::Iallreduce);  // 0
    iallreduce.bytes = iallreduce.rbytes = 8, iallreduce.req = 6;
    out.push_back(iallreduce);
    completion(core::Op::Wait, {reduce6});  // 1
  });
}

// One host of `cores` cores, with kSharedCoreRound = `round` unless it is empty.
inline std::filesystem::path shared_core_platform(int cores, const std::string& round) {
  PlatformSpec spec;
  spec.hosts = 1;
  spec.cores_per_host = cores;
  if (!round.empty()) spec.host_properties[kSharedCoreRound] = round;
  const std::filesystem::path file =
      exact_platform(1).parent_path() / ("shared-" + std::to_string(cores) + "-" + round + ".xml");
  write_shared_platform(spec, file);
  return file;
}

}  // namespace p3s::sim
