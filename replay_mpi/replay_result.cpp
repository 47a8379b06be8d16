#include "replay_mpi/replay_result.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/json_read.hpp"

namespace p3s::replay {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

ordered_json spread_json(const Spread& s) {
  return {{"min", s.min}, {"mean", s.mean}, {"max", s.max}};
}

const std::vector<std::string> kMessageColumns = {"phase", "step", "rank",    "peer",     "side",
                                                  "bytes", "link", "seconds", "in_flight"};

MessageResult message_of(const json& row) {
  core::json_require(row.is_array() && row.size() == kMessageColumns.size(), row,
                     "a message row has one value per column (9)");
  MessageResult m;
  m.phase = core::json_int32(row[0], 0);
  m.step = core::json_int32(row[1], 0);
  m.rank = core::json_int32(row[2], 0);
  m.peer = core::json_int32(row[3], 0);
  core::json_require(row[4] == "send" || row[4] == "recv", row[4], "side is send or recv");
  m.send = row[4] == "send";
  m.bytes = core::json_integer(row[5], 0);
  core::json_require(row[6] == "node" || row[6] == "network", row[6], "link is node or network");
  m.same_node = row[6] == "node";
  m.seconds = core::json_number(row[7], 0);
  m.in_flight = core::json_int32(row[8], 1);
  return m;
}

// A phase's yes-or-no verdict `flag` and, when no, its reason `because` (absent: yes, "").
std::string verdict(const json& phase, const char* flag, const char* because) {
  if (!phase.contains(flag)) return {};
  core::json_require(phase.at(flag).is_boolean(), phase.at(flag), "true or false");
  if (phase.at(flag).get<bool>()) return {};
  std::string reason = phase.at(because).get<std::string>();
  core::json_require(!reason.empty(), phase.at(because), "a reason");
  return reason;
}

}  // namespace

std::string fit_misses_because(const CollectiveResult& c) {
  if (c.fit.follows_points()) return {};
  std::vector<std::string> sizes;
  for (const int p : c.fit_sizes) sizes.push_back(std::to_string(p));
  return fmt::format(
      "{} of {} bytes: no law a + b P + c floor(log2 P) follows its times at P = {} (the "
      "closest misses one by {:.0f} %): the MPI likely changes algorithm with P, and {:.4g} us "
      "at N = {} extrapolates none of them",
      c.op, c.bytes, fmt::join(sizes, ", "), 100 * c.fit.max_relative_residual,
      1e6 * c.at_n_seconds, c.members);
}

ordered_json to_json(const ReplayResult& r) {
  ordered_json phases = ordered_json::array();
  for (const PhaseResult& p : r.phases) {
    phases.push_back({{"name", p.name},
                      {"weight", p.weight},
                      {"phase_et_seconds", p.phase_et},
                      {"per_rank_seconds", spread_json(p.per_rank)},
                      {"phase_et_by_repetition_seconds", spread_json(p.by_repetition)},
                      {"compute_seconds", p.compute_seconds},
                      {"steps", p.steps},
                      {"collectives", p.collectives},
                      {"app_network_messages", p.app_network_messages},
                      {"replay_network_messages", p.replay_network_messages},
                      {"noise_messages", p.noise_messages},
                      {"held", p.not_held.empty()},
                      {"collective_fit_holds", p.collective_fit_misses.empty()},
                      {"overlap_allowance_seconds", p.overlap_allowance}});
    if (!p.not_held.empty()) phases.back()["not_held_because"] = p.not_held;
    if (!p.collective_fit_misses.empty())
      phases.back()["collective_fit_misses_because"] = p.collective_fit_misses;
  }
  ordered_json collectives = ordered_json::array();
  for (const CollectiveResult& c : r.collectives) {
    collectives.push_back({{"op", c.op},
                           {"bytes", c.bytes},
                           {"members", c.members},
                           {"sizes", c.sizes},
                           {"seconds", c.seconds},
                           {"fit_sizes", c.fit_sizes},
                           {"fit", c.fit.equation()},
                           {"coefficients", {c.fit.a, c.fit.b, c.fit.c}},
                           {"max_residual", c.fit.max_relative_residual},
                           {"at_n_seconds", c.at_n_seconds},
                           {"exit_spreads", c.exit_spreads},
                           {"exit_spread_at_n_seconds", c.exit_spread_at_n}});
  }
  ordered_json steps = ordered_json::array();
  for (const StepResult& s : r.step_log) {
    steps.push_back({{"phase", s.phase},
                     {"ranks", s.ranks},
                     {"warmup_repetitions", s.warmup_repetitions},
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
  ordered_json units = ordered_json::array();
  for (const UnitResult& u : r.units) {
    units.push_back({u.phase, u.rank, u.call, u.unit, u.step, u.timed, u.seconds});
  }
  ordered_json out = {{"format", "p3s-replay 1"},
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
                      {"messages", {{"columns", kMessageColumns}, {"rows", rows}}},
                      {"warnings", r.warnings}};
  if (!r.units.empty()) {
    out["units"] = {{"columns", {"phase", "rank", "call", "unit", "step", "timed", "seconds"}},
                    {"rows", units}};
  }
  return out;
}

ReplayResult read_replay_result(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ReplayResult r;
  core::read_json_document(file.string(), text, [&](const json& j) { r = replay_result_of(j); });
  return r;
}

ReplayResult replay_result_of(const json& j) {
  ReplayResult r;
  core::json_require(j.is_object() && j.value("format", "") == "p3s-replay 1", j,
                     "not a p3s-replay 1 file");
  j.at("source").get_to(r.source);
  r.nprocs = core::json_int32(j.at("nprocs"), 1);
  r.processes = core::json_int32(j.at("processes"), 1);
  r.measurable = core::json_int32(j.at("measurable"), 1);
  r.black_holes = core::json_int32(j.at("black_holes"), 0);
  r.noise_pairs = core::json_int32(j.at("noise_pairs"), 0);
  r.ranks_per_node = core::json_integer(j.at("ranks_per_node"), 1);
  j.at("mapping").get_to(r.mapping);
  j.at("placement_kept").get_to(r.placement_kept);
  j.at("placement").get_to(r.placement);
  j.at("compute").get_to(r.compute);
  r.repetitions = core::json_int32(j.at("measured_repetitions"), 1);
  r.steps = core::json_int32(j.at("steps"), 0);
  r.pet = core::json_number(j.at("pet_seconds"), 0);
  r.synet = core::json_number(j.at("synet_seconds"), 0);
  j.at("warnings").get_to(r.warnings);
  for (const json& p : j.at("phases")) {
    core::json_within(p, [&] {
      PhaseResult ph;
      p.at("name").get_to(ph.name);
      ph.weight = core::json_number(p.at("weight"), 0);
      ph.phase_et = core::json_number(p.at("phase_et_seconds"), 0);
      const json& s = p.at("per_rank_seconds");
      ph.per_rank.min = core::json_number(s.at("min"), 0);
      ph.per_rank.mean = core::json_number(s.at("mean"), 0);
      ph.per_rank.max = core::json_number(s.at("max"), 0);
      const json& by_rep = p.at("phase_et_by_repetition_seconds");
      ph.by_repetition.min = core::json_number(by_rep.at("min"), 0);
      ph.by_repetition.mean = core::json_number(by_rep.at("mean"), 0);
      ph.by_repetition.max = core::json_number(by_rep.at("max"), 0);
      ph.compute_seconds = core::json_number(p.at("compute_seconds"), 0);
      ph.steps = core::json_int32(p.at("steps"), 0);
      p.at("collectives").get_to(ph.collectives);
      ph.app_network_messages = core::json_integer(p.at("app_network_messages"), 0);
      ph.replay_network_messages = core::json_number(p.at("replay_network_messages"), 0);
      ph.noise_messages = core::json_number(p.at("noise_messages"), 0);
      // Absent in results written before the replay gave these verdicts: none.
      ph.not_held = verdict(p, "held", "not_held_because");
      ph.collective_fit_misses =
          verdict(p, "collective_fit_holds", "collective_fit_misses_because");
      // Absent in results written before the replay gave it: none.
      if (p.contains("overlap_allowance_seconds"))
        ph.overlap_allowance = core::json_number(p.at("overlap_allowance_seconds"), 0);
      r.phases.push_back(ph);
    });
  }
  for (const json& c : j.at("collectives")) {
    core::json_within(c, [&] {
      CollectiveResult col;
      c.at("op").get_to(col.op);
      col.bytes = core::json_integer(c.at("bytes"), 0);
      col.members = core::json_integer(c.at("members"), 1);
      c.at("sizes").get_to(col.sizes);
      for (const json& t : c.at("seconds")) col.seconds.push_back(core::json_number(t, 0));
      // Absent in results written before the fit took the sizes of N's kind: all of them.
      if (c.contains("fit_sizes")) {
        c.at("fit_sizes").get_to(col.fit_sizes);
      } else {
        col.fit_sizes = col.sizes;
      }
      const json& k = c.at("coefficients");
      core::json_require(k.is_array() && k.size() == 3, k, "three coefficients a, b, c");
      col.fit = {core::json_number(k[0]), core::json_number(k[1]), core::json_number(k[2])};
      col.fit.max_relative_residual = core::json_number(c.at("max_residual"), 0);
      col.at_n_seconds = core::json_number(c.at("at_n_seconds"), 0);
      // Absent in results written before the replay measured them: none.
      if (c.contains("exit_spreads")) {
        for (const json& t : c.at("exit_spreads"))
          col.exit_spreads.push_back(core::json_number(t, 0));
        col.exit_spread_at_n = core::json_number(c.at("exit_spread_at_n_seconds"), 0);
      }
      r.collectives.push_back(std::move(col));
    });
  }
  const json& messages = j.at("messages");
  core::json_require(messages.at("columns") == json(kMessageColumns), messages.at("columns"),
                     "the message columns are not p3s-replay 1's");
  for (const json& row : messages.at("rows")) r.messages.push_back(message_of(row));
  return r;
}

}  // namespace p3s::replay
