#include "replay_mpi/replay_setup.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

namespace p3s::replay {
namespace {

// Processes grouped by physical node, nodes in the order of their lowest process.
std::vector<std::vector<int>> processes_by_node(const std::vector<int>& node_of_process) {
  std::vector<std::vector<int>> nodes;
  std::map<int, std::size_t> index;
  for (int p = 0; p < static_cast<int>(node_of_process.size()); ++p) {
    const auto [it, fresh] =
        index.emplace(node_of_process[static_cast<std::size_t>(p)], nodes.size());
    if (fresh) nodes.emplace_back();
    nodes[it->second].push_back(p);
  }
  return nodes;
}

std::vector<int> in_node_order(const std::vector<std::vector<int>>& nodes) {
  std::vector<int> out;
  for (const auto& n : nodes) out.insert(out.end(), n.begin(), n.end());
  return out;
}

// The processes that are not measurable: the black holes the plan needs, then noise pairs of
// the rest (when `noise`), those on nodes without measurable processes first.
void assign_black_holes_and_noise(const std::vector<int>& ordered,
                                  const std::vector<int>& node_of_process, bool noise,
                                  Setup& setup) {
  const int processes = static_cast<int>(node_of_process.size());
  std::vector<int> pool;
  for (const int p : ordered)
    if (std::find(setup.measurable.begin(), setup.measurable.end(), p) == setup.measurable.end())
      pool.push_back(p);
  // Black holes and noise on nodes of their own first.
  std::stable_partition(pool.begin(), pool.end(), [&](int p) {
    const int node = node_of_process[static_cast<std::size_t>(p)];
    return std::none_of(setup.measurable.begin(), setup.measurable.end(), [&](int m) {
      return node_of_process[static_cast<std::size_t>(m)] == node;
    });
  });
  const auto holes = static_cast<std::size_t>(setup.plan.black_holes);
  if (holes > pool.size()) {
    throw std::invalid_argument(
        std::to_string(processes) +
        " processes are too few: " + std::to_string(setup.measurable.size()) +
        " measurable processes need " + std::to_string(holes) +
        " black holes (eq. 5: one per measurable process with a message "
        "to a rank not loaded), " +
        std::to_string(pool.size()) + " left; launch at least " +
        std::to_string(setup.measurable.size() + holes) + " or give a smaller --measurable");
  }
  setup.black_holes.assign(pool.begin(), pool.begin() + static_cast<std::ptrdiff_t>(holes));
  if (noise) {
    for (std::size_t i = holes; i + 1 < pool.size(); i += 2)
      setup.noise_pairs.emplace_back(pool[i], pool[i + 1]);
  }
}

}  // namespace

Setup make_setup(const core::ScaledTrace& trace, const std::vector<int>& node_of_process,
                 const SetupOptions& options) {
  const int processes = static_cast<int>(node_of_process.size());
  const int nprocs = trace.nprocs();
  if (options.measurable < 0 || options.measurable > processes)
    throw std::invalid_argument("--measurable " + std::to_string(options.measurable) +
                                " is not between 1 and the " + std::to_string(processes) +
                                " processes launched");
  int measurable =
      options.measurable > 0 ? options.measurable : (nprocs <= processes ? nprocs : processes / 2);
  measurable = std::min(measurable, nprocs);
  if (measurable < 1)
    throw std::invalid_argument(std::to_string(processes) + " process(es) cannot replay " +
                                std::to_string(nprocs) +
                                " ranks: at least one measurable process and one black hole");

  const std::vector<std::vector<int>> nodes = processes_by_node(node_of_process);
  const std::vector<int> ordered = in_node_order(nodes);
  PlanOptions po;
  po.ranks_per_node = options.ranks_per_node;
  po.mapping = options.mapping;
  po.phases = options.phases;
  Setup setup;
  const std::int64_t app_nodes = core::nodes_used(nprocs, options.ranks_per_node);
  bool planned = false;
  if (nodes.size() > 1) {
    // One application node per physical node, as many of its ranks as the node has room for;
    // a node is left to the black holes when some may be needed.
    std::size_t per_node = nodes.front().size();
    for (const auto& n : nodes) per_node = std::min(per_node, n.size());
    const int slots = static_cast<int>(
        std::min<std::int64_t>(options.ranks_per_node, static_cast<std::int64_t>(per_node)));
    std::size_t usable = nodes.size() - (measurable < nprocs ? 1 : 0);
    const auto mp_nodes =
        std::max<std::size_t>(1, std::min(usable, static_cast<std::size_t>(measurable / slots)));
    po.measurable = static_cast<int>(mp_nodes) * slots;
    po.nodes = static_cast<int>(mp_nodes);
    po.node_slots = slots;
    try {
      setup.plan = plan_steps(trace, po);
      for (std::size_t n = 0; n < mp_nodes; ++n)
        setup.measurable.insert(setup.measurable.end(), nodes[n].begin(), nodes[n].begin() + slots);
      setup.placement_kept = true;
      setup.placement = std::to_string(mp_nodes) + " node(s) of measurable processes, " +
                        std::to_string(slots) + " rank(s) of one application node on each (" +
                        std::to_string(options.ranks_per_node) + " per node, " +
                        std::string(core::mapping_name(options.mapping)) + " at N)";
      planned = true;
    } catch (const std::invalid_argument& e) {
      setup.placement = std::string("placement at N NOT kept (") + e.what() + ")";
    }
  } else {
    setup.placement_kept = app_nodes == 1;
    setup.placement = setup.placement_kept
                          ? "one node, as the application's " + std::to_string(nprocs) +
                                " ranks at " + std::to_string(options.ranks_per_node) + " per node"
                          : "placement at N NOT kept: the launcher gave one node, the application "
                            "at N spans " +
                                std::to_string(app_nodes) +
                                " nodes, so messages between nodes are measured within one";
  }
  if (!planned) {
    po.measurable = measurable;
    po.nodes = 0;
    po.node_slots = 0;
    setup.plan = plan_steps(trace, po);
    setup.measurable.assign(ordered.begin(), ordered.begin() + measurable);
  }

  assign_black_holes_and_noise(ordered, node_of_process, options.noise, setup);
  return setup;
}

std::vector<std::int64_t> encode_setup(const Setup& s) {
  std::vector<std::int64_t> out = {s.placement_kept ? 1 : 0,
                                   static_cast<std::int64_t>(s.placement.size())};
  out.insert(out.end(), s.placement.begin(), s.placement.end());
  out.push_back(static_cast<std::int64_t>(s.measurable.size()));
  out.insert(out.end(), s.measurable.begin(), s.measurable.end());
  out.push_back(static_cast<std::int64_t>(s.black_holes.size()));
  out.insert(out.end(), s.black_holes.begin(), s.black_holes.end());
  out.push_back(static_cast<std::int64_t>(s.noise_pairs.size()));
  for (const auto& [a, b] : s.noise_pairs) {
    out.push_back(a);
    out.push_back(b);
  }
  const std::vector<std::int64_t> plan = encode_plan(s.plan);
  out.insert(out.end(), plan.begin(), plan.end());
  return out;
}

Setup decode_setup(const std::vector<std::int64_t>& data) {
  std::size_t at = 0;
  const auto next = [&] {
    if (at >= data.size()) throw std::invalid_argument("truncated replay setup");
    return data[at++];
  };
  Setup s;
  s.placement_kept = next() != 0;
  s.placement.resize(static_cast<std::size_t>(next()));
  for (char& c : s.placement) c = static_cast<char>(next());
  s.measurable.resize(static_cast<std::size_t>(next()));
  for (int& p : s.measurable) p = static_cast<int>(next());
  s.black_holes.resize(static_cast<std::size_t>(next()));
  for (int& p : s.black_holes) p = static_cast<int>(next());
  s.noise_pairs.resize(static_cast<std::size_t>(next()));
  for (auto& [a, b] : s.noise_pairs) {
    a = static_cast<int>(next());
    b = static_cast<int>(next());
  }
  s.plan = decode_plan(
      std::vector<std::int64_t>(data.begin() + static_cast<std::ptrdiff_t>(at), data.end()));
  return s;
}

}  // namespace p3s::replay
