#include "ti/ti_export.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_set>

#include "core/rank_program.hpp"
#include "core/session_plan.hpp"

namespace p3s::ti {
namespace {

using core::Op;

// Appends rank `rank`'s actions for one repetition of a compiled phase. The replay's actions
// (SimGrid 3.32, src/smpi/internals/smpi_replay.cpp) count in MPI_BYTE, the default type when
// `init` has no argument; their peers and roots are world ranks.
class ActionWriter {
 public:
  ActionWriter(int rank, int nprocs, double host_speed, fmt::memory_buffer& out)
      : rank_(rank), nprocs_(nprocs), host_speed_(host_speed), out_(out) {}

  void write(const core::RankProgram& program) {
    for (const core::ProgramStep& s : program.steps) step(s, program);
  }

 private:
  template <typename... Args>
  void line(fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(out_), "{} ", rank_);
    fmt::format_to(std::back_inserter(out_), format, std::forward<Args>(args)...);
    out_.push_back('\n');
  }

  void step(const core::ProgramStep& s, const core::RankProgram& program) {
    if (s.compute_seconds > 0) line("compute {}", s.compute_seconds * host_speed_);
    switch (core::op_kind(s.op)) {
      case core::OpKind::PointToPoint:
        return point_to_point(s);
      case core::OpKind::Completion:
        for (std::uint32_t i = 0; i < s.record_count; ++i)
          wait(program.records[s.first_record + i]);
        return;
      case core::OpKind::Persistent:
        return persistent(s, program);
      case core::OpKind::Collective:
        return collective(s);
      case core::OpKind::CommCreate:
      case core::OpKind::Finalize:
        return;
    }
  }

  void point_to_point(const core::ProgramStep& s) {
    switch (s.op) {
      case Op::Send:
      case Op::Ssend:
      case Op::Bsend:
      case Op::Rsend:
        if (s.dst != core::kNone) line("send {} {} {}", s.dst, s.tag, s.bytes);
        return;
      case Op::Isend:
      case Op::Issend:
        if (s.dst != core::kNone) started(true, s.req, s.dst, s.tag, s.bytes);
        return;
      case Op::Recv:
        if (s.src != core::kNone) line("recv {} {} {}", s.src, s.rtag, s.rbytes);
        return;
      case Op::Irecv:
        if (s.src != core::kNone) started(false, s.req, s.src, s.rtag, s.rbytes);
        return;
      case Op::Sendrecv:
      case Op::SendrecvReplace:
        line("sendRecv {} {} {} {}", s.bytes, s.dst, s.rbytes, s.src);
        return;
      default:
        return;
    }
  }

  // An isend or irecv, remembered so that its completion can name it as the replay's `wait`
  // does: by source, destination and tag.
  void started(bool send, std::int64_t req, std::int32_t peer, std::int32_t tag,
               std::int64_t bytes) {
    line("{} {} {} {}", send ? "isend" : "irecv", peer, tag, bytes);
    p2p_requests_.insert(req);
  }

  void wait(const core::RequestRecord& r) {
    if (p2p_requests_.erase(r.req) == 0) return;  // a collective's, replayed as blocking
    if (r.send) {
      line("wait {} {} {}", rank_, r.peer, r.tag);
    } else {
      line("wait {} {} {}", r.peer, rank_, r.tag);
    }
  }

  void persistent(const core::ProgramStep& s, const core::RankProgram& program) {
    if (s.op == Op::Start) {
      if (s.dst != core::kNone) return started(true, s.req, s.dst, s.tag, s.bytes);
      if (s.src != core::kNone) started(false, s.req, s.src, s.rtag, s.rbytes);
      return;
    }
    if (s.op != Op::Startall) return;
    for (std::uint32_t i = 0; i < s.record_count; ++i) {
      const core::RequestRecord& r = program.records[s.first_record + i];
      if (r.peer != core::kNone) started(r.send, r.req, r.peer, r.tag, r.bytes);
    }
  }

  std::string even(std::int64_t per_peer) const {
    std::string counts;
    for (int i = 0; i < nprocs_; ++i) counts += fmt::format("{}{}", i ? " " : "", per_peer);
    return counts;
  }

  // The same counts the simulator gives SMPI (collective_calls.cpp), so both replay alike.
  void collective(const core::ProgramStep& s) {
    if (s.comm != 0) {
      throw std::invalid_argument(fmt::format(
          "rank {}: a {} on communicator {}: TI traces have collectives on the world only", rank_,
          core::op_name(s.op), s.comm));
    }
    const std::int64_t both = std::max(s.bytes, s.rbytes);
    check_per_peer_volume(s, nprocs_);
    const std::int64_t send_peer = s.bytes / nprocs_, recv_peer = s.rbytes / nprocs_;
    const std::string_view action = core::ti_action_name(s.op);
    if (action.empty()) {
      throw std::invalid_argument(
          fmt::format("rank {}: {} has no TI action", rank_, core::op_name(s.op)));
    }
    // A non-blocking collective is replayed as its blocking form.
    switch (core::blocking_form(s.op)) {
      case Op::Barrier:
        return line("{}", action);
      case Op::Bcast:
        return line("{} {} {}", action, both, s.root);
      case Op::Reduce:
        return line("{} {} 0 {}", action, both, s.root);
      case Op::Allreduce:
      case Op::Scan:
      case Op::Exscan:
        return line("{} {} 0", action, both);
      case Op::Gather:
        return line("{} {} {} {}", action, s.bytes, std::max(s.bytes, recv_peer), s.root);
      case Op::Allgather:
        return line("{} {} {}", action, s.bytes, std::max(s.bytes, recv_peer));
      case Op::Scatter:
        return line("{} {} {} {}", action, std::max(send_peer, s.rbytes), s.rbytes, s.root);
      case Op::Alltoall:
        return line("{} {} {}", action, send_peer, recv_peer);
      case Op::Gatherv:
        return line("{} {} {} {}", action, s.bytes, even(recv_peer), s.root);
      case Op::Allgatherv:
        return line("{} {} {}", action, s.bytes, even(recv_peer));
      case Op::Scatterv:
        return line("{} {} {} {}", action, even(send_peer), s.rbytes, s.root);
      case Op::Alltoallv:
        return line("{} {} {} {} {}", action, s.bytes, even(send_peer), s.rbytes, even(recv_peer));
      case Op::ReduceScatter:
      case Op::ReduceScatterBlock:
        return line("{} {} 0", action, even(s.rbytes));
      default:
        throw std::invalid_argument(fmt::format("rank {}: the TI export has no arguments for {}",
                                                rank_, core::op_name(s.op)));
    }
  }

  int rank_;
  int nprocs_;
  double host_speed_;
  fmt::memory_buffer& out_;
  std::unordered_set<std::int64_t> p2p_requests_;
};

std::filesystem::path write_traces(const core::ScaledTrace& trace, const std::filesystem::path& dir,
                                   const core::SessionPlan& plan, const TiExportOptions& o) {
  std::filesystem::create_directories(dir);
  std::filesystem::path list_path = dir / "ti.list";
  std::ofstream list(list_path);
  std::vector<core::Event> events;
  fmt::memory_buffer text;
  for (int rank = 0; rank < trace.nprocs(); ++rank) {
    const std::filesystem::path rank_path = dir / fmt::format("rank-{:05}.ti", rank);
    list << std::filesystem::absolute(rank_path).string() << '\n';
    text.clear();
    fmt::format_to(std::back_inserter(text), "{} init\n", rank);
    ActionWriter writer(rank, trace.nprocs(), o.host_speed, text);
    for (const core::SessionPlan::Segment& segment : plan.segments) {
      events.clear();
      trace.phase_events(segment.phase, rank, events);
      const core::RankProgram program = core::compile_rank_program(events, o.cpu_speedup);
      for (std::int64_t rep = 0; rep < segment.repetitions; ++rep) writer.write(program);
    }
    fmt::format_to(std::back_inserter(text), "{} finalize\n", rank);
    std::ofstream out(rank_path, std::ios::binary);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!out.flush()) throw std::runtime_error("cannot write " + rank_path.string());
  }
  if (!list.flush()) throw std::runtime_error("cannot write " + list_path.string());
  return list_path;
}

}  // namespace

std::vector<std::filesystem::path> export_ti(const core::ScaledTrace& trace,
                                             const std::filesystem::path& dir,
                                             const TiExportOptions& options) {
  if (!(options.host_speed > 0) || !(options.cpu_speedup > 0)) {
    throw std::invalid_argument("host speed and CPU speedup must be positive");
  }
  if (options.layout == TiLayout::Full) {
    return {write_traces(trace, dir, core::full_plan(trace), options)};
  }
  std::vector<std::filesystem::path> lists;
  lists.reserve(trace.phases().size());
  for (int p = 0; p < static_cast<int>(trace.phases().size()); ++p) {
    lists.push_back(write_traces(trace, dir / fmt::format("phase-{}", p),
                                 core::phase_plan(p, options.measured_repetitions), options));
  }
  return lists;
}

}  // namespace p3s::ti
