#include <nlohmann/json.hpp>

#include "sim/sim_result.hpp"

namespace p3s::sim {
namespace {

nlohmann::json spread_json(const RankSpread& s) {
  return {{"min", s.min}, {"mean", s.mean}, {"max", s.max}};
}

}  // namespace

nlohmann::json to_json(const SimResult& r) {
  nlohmann::json j = {
      {"format", "p3s-simulation 1"},
      {"nprocs", r.nprocs},
      {"mode", mode_name(r.mode)},
      {"engine", engine_name(r.engine)},
      {"platform", r.platform},
      {"ranks_per_host", r.ranks_per_host},
      {"mapping", mapping_name(r.mapping)},
      {"cpu_speedup", r.cpu_speedup},
      {"pet_seconds", r.pet},
      {"cost",
       {{"events", r.cost.events},
        {"wall_seconds", r.cost.wall_seconds},
        {"engine_seconds", r.cost.engine_seconds},
        {"events_per_second", r.cost.events_per_second},
        {"peak_rss_kib", r.cost.peak_rss_kib}}},
  };
  if (r.mode == SimMode::PerPhase) {
    j["measured_repetitions"] = r.measured_repetitions;
    j["phases"] = nlohmann::json::array();
    for (const PhaseTime& p : r.phases) {
      j["phases"].push_back({{"name", p.name},
                             {"weight", p.weight},
                             {"phase_et_seconds", p.phase_et},
                             {"fill_seconds", p.fill},
                             {"per_rank_seconds", spread_json(p.per_rank)}});
    }
  } else {
    j["rank_end_seconds"] = spread_json(r.rank_end);
  }
  return j;
}

}  // namespace p3s::sim
