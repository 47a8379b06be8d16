#include "sim/shared_core.hpp"

#include <fmt/core.h>

#include <bit>
#include <map>
#include <optional>
#include <simgrid/s4u/Host.hpp>
#include <stdexcept>

#include "sim/platform_spec.hpp"

namespace p3s::sim {

std::map<const simgrid::s4u::Host*, int> ranks_on_hosts(
    const std::vector<simgrid::s4u::Host*>& hosts, const std::vector<int>& host_of) {
  std::map<const simgrid::s4u::Host*, int> ranks_on;
  for (int h : host_of) ++ranks_on[hosts[static_cast<std::size_t>(h)]];
  return ranks_on;
}

std::vector<double> shared_core_round_delays(const std::vector<simgrid::s4u::Host*>& hosts,
                                             const std::vector<int>& host_of) {
  std::map<const simgrid::s4u::Host*, double> delay_of;
  for (const auto& [host, ranks] : ranks_on_hosts(hosts, host_of)) {
    const char* value = host->get_property(kSharedCoreRound);
    if (!value) continue;
    const std::optional<double> seconds = shared_core_round_seconds(value);
    if (!seconds) {
      throw std::runtime_error(
          fmt::format("host {}: property {} '{}' is not a finite number of seconds >= 0",
                      host->get_name(), kSharedCoreRound, value));
    }
    const int cores = host->get_core_count();
    if (ranks > cores) {
      delay_of[host] = *seconds * (static_cast<double>(ranks) / cores - 1);
    }
  }
  std::vector<double> delays(host_of.size(), 0.0);
  for (std::size_t rank = 0; rank < host_of.size(); ++rank) {
    const auto it = delay_of.find(hosts[static_cast<std::size_t>(host_of[rank])]);
    if (it != delay_of.end()) delays[rank] = it->second;
  }
  return delays;
}

std::int64_t blocking_rounds(core::Op op, bool has_peer, std::uint32_t completed, int comm_size) {
  switch (core::op_kind(op)) {
    case core::OpKind::PointToPoint:
      if (op == core::Op::Probe || op == core::Op::Iprobe || core::is_nonblocking(op)) return 0;
      return has_peer ? 1 : 0;
    case core::OpKind::Completion:
      switch (op) {
        case core::Op::Wait:
        case core::Op::Waitall:
        case core::Op::Waitany:
        case core::Op::Waitsome:
          return completed > 0 ? 1 : 0;
        default:  // the test family returns at once
          return 0;
      }
    case core::OpKind::Collective:
      if (core::is_nonblocking(op) || comm_size < 2) return 0;
      // ceil(log2 m): the rounds of a tree or recursive-doubling collective.
      return std::bit_width(static_cast<unsigned>(comm_size - 1));
    case core::OpKind::Persistent:
    case core::OpKind::CommCreate:
    case core::OpKind::Finalize:
      return 0;
  }
  return 0;
}

std::int64_t step_rounds(const core::ProgramStep& s, int comm_size) {
  return blocking_rounds(s.op, s.dst != core::kNone || s.src != core::kNone, s.record_count,
                         comm_size);
}

}  // namespace p3s::sim
