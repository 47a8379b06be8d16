#include "replay_mpi/replay_result.hpp"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace p3s::replay {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

ordered_json spread_json(const Spread& s) {
  return {{"min", s.min}, {"mean", s.mean}, {"max", s.max}};
}

}  // namespace

ordered_json to_json(const ReplayResult& r) {
  ordered_json phases = ordered_json::array();
  for (const PhaseResult& p : r.phases) {
    phases.push_back({{"name", p.name},
                      {"weight", p.weight},
                      {"phase_et_seconds", p.phase_et},
                      {"per_rank_seconds", spread_json(p.per_rank)},
                      {"phase_et_by_repetition_seconds", spread_json(p.by_repetition)},
                      {"steps", p.steps},
                      {"collectives", p.collectives},
                      {"app_network_messages", p.app_network_messages},
                      {"replay_network_messages", p.replay_network_messages},
                      {"noise_messages", p.noise_messages}});
  }
  ordered_json collectives = ordered_json::array();
  for (const CollectiveResult& c : r.collectives) {
    collectives.push_back({{"op", c.op},
                           {"bytes", c.bytes},
                           {"members", c.members},
                           {"sizes", c.sizes},
                           {"seconds", c.seconds},
                           {"fit", c.fit.equation()},
                           {"coefficients", {c.fit.a, c.fit.b, c.fit.c}},
                           {"max_residual", c.fit.max_relative_residual},
                           {"at_n_seconds", c.at_n_seconds}});
  }
  ordered_json steps = ordered_json::array();
  for (const StepResult& s : r.step_log) {
    steps.push_back({{"phase", s.phase},
                     {"ranks", s.ranks},
                     {"executed", s.executed},
                     {"measured", s.measured},
                     {"black_holes", s.black_holes},
                     {"noise_messages", s.noise_messages}});
  }
  ordered_json rows = ordered_json::array();
  for (const MessageResult& m : r.messages) {
    rows.push_back({m.phase, m.step, m.rank, m.peer, m.send ? "send" : "recv", m.bytes,
                    m.same_node ? "node" : "network", m.seconds, m.in_flight});
  }
  return {{"format", "p3s-replay 1"},
          {"source", r.source},
          {"nprocs", r.nprocs},
          {"processes", r.processes},
          {"measurable", r.measurable},
          {"black_holes", r.black_holes},
          {"noise_pairs", r.noise_pairs},
          {"ranks_per_node", r.ranks_per_node},
          {"mapping", r.mapping},
          {"placement_kept", r.placement_kept},
          {"placement", r.placement},
          {"compute", r.compute},
          {"measured_repetitions", r.repetitions},
          {"warmup_steps", 1},
          {"steps", r.steps},
          {"pet_seconds", r.pet},
          {"synet_seconds", r.synet},
          {"phases", phases},
          {"collectives", collectives},
          {"step_log", steps},
          {"messages",
           {{"columns",
             {"phase", "step", "rank", "peer", "side", "bytes", "link", "seconds", "in_flight"}},
            {"rows", rows}}},
          {"warnings", r.warnings}};
}

ReplayResult read_replay_result(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  const std::string where = file.string() + ": ";
  json j;
  try {
    j = json::parse(in);
  } catch (const json::parse_error& e) {
    throw std::runtime_error(where + "not JSON (" + e.what() + ")");
  }
  if (!j.is_object() || j.value("format", "") != "p3s-replay 1")
    throw std::runtime_error(where + "not a p3s-replay 1 file");
  ReplayResult r;
  try {
    j.at("source").get_to(r.source);
    j.at("nprocs").get_to(r.nprocs);
    j.at("processes").get_to(r.processes);
    j.at("measurable").get_to(r.measurable);
    j.at("black_holes").get_to(r.black_holes);
    j.at("noise_pairs").get_to(r.noise_pairs);
    j.at("ranks_per_node").get_to(r.ranks_per_node);
    j.at("mapping").get_to(r.mapping);
    j.at("placement_kept").get_to(r.placement_kept);
    j.at("placement").get_to(r.placement);
    j.at("compute").get_to(r.compute);
    j.at("measured_repetitions").get_to(r.repetitions);
    j.at("steps").get_to(r.steps);
    j.at("pet_seconds").get_to(r.pet);
    j.at("synet_seconds").get_to(r.synet);
    j.at("warnings").get_to(r.warnings);
    for (const json& p : j.at("phases")) {
      PhaseResult ph;
      p.at("name").get_to(ph.name);
      p.at("weight").get_to(ph.weight);
      p.at("phase_et_seconds").get_to(ph.phase_et);
      const json& s = p.at("per_rank_seconds");
      s.at("min").get_to(ph.per_rank.min);
      s.at("mean").get_to(ph.per_rank.mean);
      s.at("max").get_to(ph.per_rank.max);
      const json& by_rep = p.at("phase_et_by_repetition_seconds");
      by_rep.at("min").get_to(ph.by_repetition.min);
      by_rep.at("mean").get_to(ph.by_repetition.mean);
      by_rep.at("max").get_to(ph.by_repetition.max);
      p.at("steps").get_to(ph.steps);
      p.at("collectives").get_to(ph.collectives);
      p.at("app_network_messages").get_to(ph.app_network_messages);
      p.at("replay_network_messages").get_to(ph.replay_network_messages);
      p.at("noise_messages").get_to(ph.noise_messages);
      r.phases.push_back(ph);
    }
  } catch (const json::exception& e) {
    throw std::runtime_error(where + e.what());
  }
  return r;
}

}  // namespace p3s::replay
