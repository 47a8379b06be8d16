// p3s-replay: the Synthetic Signature (001 sec. 4). Launched on R processes by any MPI launcher,
// it replays the SLT instantiated at N ranks: process 0 plans the steps and roles, the
// collectives that need all N members are measured at several sizes and fitted, then every
// step runs (measurable processes, black holes, noise pairs), and process 0 gathers what was
// measured and writes the p3s-replay 1 JSON. See README.md beside this file.
#include <mpi.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "model/slt_json.hpp"
#include "model/slt_scaled_trace.hpp"
#include "replay_mpi/black_hole.hpp"
#include "replay_mpi/collective_bench.hpp"
#include "replay_mpi/measurable_process.hpp"
#include "replay_mpi/noise_pair.hpp"
#include "replay_mpi/replay_options.hpp"
#include "replay_mpi/replay_result.hpp"
#include "replay_mpi/replay_setup.hpp"
#include "replay_mpi/st4np_file.hpp"

namespace p3s::replay {
namespace {

namespace fs = std::filesystem;

// Exit codes: 2 bad options, 3 the model cannot be replayed at N with these processes.
constexpr int kUsage = 2;
constexpr int kCannotReplay = 3;

int self_process() {
  int self = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &self);
  return self;
}

void broadcast(std::vector<std::int64_t>& data) {
  auto size = static_cast<std::int64_t>(data.size());
  MPI_Bcast(&size, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  data.resize(static_cast<std::size_t>(size));
  MPI_Bcast(data.data(), static_cast<int>(size), MPI_INT64_T, 0, MPI_COMM_WORLD);
}

// Process 0's verdict (empty: go on) on every process.
std::string broadcast_error(std::string error) {
  std::vector<std::int64_t> text(error.begin(), error.end());
  broadcast(text);
  return std::string(text.begin(), text.end());
}

// Every process's node, as the lowest process on it (MPI_COMM_TYPE_SHARED: same memory).
std::vector<int> node_of_processes() {
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, self_process(), MPI_INFO_NULL, &node);
  int self = self_process(), leader = 0, processes = 0;
  MPI_Allreduce(&self, &leader, 1, MPI_INT, MPI_MIN, node);
  MPI_Comm_free(&node);
  MPI_Comm_size(MPI_COMM_WORLD, &processes);
  // Gather and broadcast rather than allgather: SMPI's default allgather costs O(R^3).
  std::vector<int> nodes(static_cast<std::size_t>(processes));
  MPI_Gather(&leader, 1, MPI_INT, nodes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(nodes.data(), processes, MPI_INT, 0, MPI_COMM_WORLD);
  return nodes;
}

// The world collectives of the phases replayed, as distinct shapes.
std::vector<CollectiveShape> collective_shapes(const core::ScaledTrace& trace,
                                               const std::vector<int>& phases) {
  std::set<CollectiveShape> shapes;
  std::vector<core::Event> events;
  for (const int p : phases) {
    for (int r = 0; r < trace.nprocs(); ++r) {
      events.clear();
      trace.phase_events(p, r, events);
      for (const core::Event& e : events) {
        if (!is_replayed_collective(e.op)) continue;
        if (e.comm != 0)
          throw std::invalid_argument(
              "phase " + std::to_string(p) + ", rank " + std::to_string(r) + ": " +
              std::string(core::op_name(e.op)) +
              " on a sub-communicator: the replay runs collectives on the world only");
        shapes.insert({e.op, e.bytes, e.rbytes, trace.nprocs()});
      }
    }
  }
  return {shapes.begin(), shapes.end()};
}

std::vector<std::int64_t> encode_shapes(const std::vector<CollectiveShape>& shapes) {
  std::vector<std::int64_t> out;
  for (const CollectiveShape& s : shapes)
    out.insert(out.end(), {static_cast<std::int64_t>(s.op), s.bytes, s.rbytes, s.members});
  return out;
}

std::vector<CollectiveShape> decode_shapes(const std::vector<std::int64_t>& data) {
  std::vector<CollectiveShape> out;
  for (std::size_t i = 0; i + 3 < data.size(); i += 4)
    out.push_back({static_cast<core::Op>(data[i]), data[i + 1], data[i + 2], data[i + 3]});
  return out;
}

// Gathers every process's doubles on process 0 (concatenated in process order).
std::vector<double> gather(const std::vector<double>& mine) {
  int processes = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &processes);
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(processes)), offsets(counts.size());
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    offsets[i] = total;
    total += counts[i];
  }
  std::vector<double> all(static_cast<std::size_t>(self_process() == 0 ? total : 0));
  MPI_Gatherv(mine.data(), count, MPI_DOUBLE, all.data(), counts.data(), offsets.data(), MPI_DOUBLE,
              0, MPI_COMM_WORLD);
  return all;
}

// Test hook: P3S_REPLAY_FAULT=PROCESS:STEP kills that process at the start of that step (-1 is
// the warm-up), as a node failure would, so tests can check that nothing claims a result then.
int fault_field(int which) {
  const char* spec = std::getenv("P3S_REPLAY_FAULT");
  if (!spec) return -2;
  const std::string s(spec);
  const auto colon = s.find(':');
  if (colon == std::string::npos) return -2;
  return std::atoi((which == 0 ? s.substr(0, colon) : s.substr(colon + 1)).c_str());
}
int fault_process() {
  return fault_field(0);
}
int fault_step() {
  return fault_field(1);
}

struct Progress {
  double last = 0;
  void step(int done, int total, const std::string& phase) {
    const double t = MPI_Wtime();
    if (done != total && t - last < 1.0) return;
    last = t;
    std::printf("step %d of %d (%s)\n", done, total, phase.c_str());
    std::fflush(stdout);
  }
};

// What the measurable processes report of each step they played: step, slot, executed,
// measured, noise messages and network messages per repetition.
constexpr std::size_t kStepFields = 6;
constexpr std::size_t kMessageFields = 9;

void write_json_atomically(const fs::path& file, const nlohmann::ordered_json& j) {
  const fs::path tmp = file.string() + ".partial";
  {
    std::ofstream out(tmp);
    out << j.dump(1) << "\n";
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
  }
  fs::rename(tmp, file);
}

int replay(int argc, char** argv) {
  const double started = MPI_Wtime();
  const int self = self_process();
  int processes = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &processes);
  const auto fail = [&](int code, const std::string& what) {
    if (self == 0) std::fprintf(stderr, "p3s-replay: %s\n", what.c_str());
    return code;
  };

  std::optional<ReplayOptions> parsed;
  try {
    parsed = parse_replay_options(argc, argv, self == 0);
  } catch (const std::exception& e) {
    return fail(kUsage, std::string(e.what()) + " (--help lists the options)");
  }
  if (!parsed) return 0;
  const ReplayOptions& o = *parsed;
  std::string error;
  if (self == 0 && fs::exists(o.output) && !o.force)
    error = o.output + " exists; give --force to replace it";
  error = broadcast_error(error);
  if (!error.empty()) return fail(kUsage, error);

  // Every process instantiates the model itself: a rank's events cost a few operations each.
  // An ST4NP file (p3s generate's) is read whole instead.
  std::unique_ptr<model::Slt> slt;
  std::unique_ptr<core::ScaledTrace> trace;
  std::vector<std::string> trace_warnings;
  try {
    if (St4npFile::is_st4np(o.input)) {
      trace = std::make_unique<St4npFile>(o.input);
      if (trace->nprocs() != o.nprocs)
        throw std::domain_error("the ST4NP has " + std::to_string(trace->nprocs()) + " ranks");
    } else {
      slt = std::make_unique<model::Slt>(model::read_slt(o.input));
      auto instantiated = std::make_unique<model::SltScaledTrace>(
          *slt, o.nprocs,
          model::InstantiateOptions{.carry_nearest = o.carry_nearest,
                                    .omit_unavailable = o.partial});
      trace_warnings = instantiated->warnings();
      trace = std::move(instantiated);
    }
    if (trace->phases().empty()) throw std::domain_error("no phase can be instantiated at N");
  } catch (const std::exception& e) {
    return fail(kCannotReplay, "cannot instantiate " + o.input +
                                   " at N = " + std::to_string(o.nprocs) + ": " + e.what());
  }

  ReplayComms comms;
  comms.node_of_process = node_of_processes();
  SetupOptions so;
  so.measurable = o.measurable;
  so.ranks_per_node = o.ranks_per_node;
  so.mapping = o.mapping;
  so.phases = o.phases;
  so.noise = o.noise;
  std::vector<std::int64_t> encoded, shape_data;
  if (self == 0) {
    try {
      const Setup made = make_setup(*trace, comms.node_of_process, so);
      encoded = encode_setup(made);
      std::vector<int> phases = o.phases;
      if (phases.empty())
        for (int p = 0; p < static_cast<int>(trace->phases().size()); ++p) phases.push_back(p);
      shape_data = encode_shapes(collective_shapes(*trace, phases));
    } catch (const std::exception& e) {
      error = std::string("cannot replay N = ") + std::to_string(o.nprocs) + " on " +
              std::to_string(processes) + " processes: " + e.what();
    }
  }
  error = broadcast_error(error);
  if (!error.empty()) return fail(kCannotReplay, error);
  broadcast(encoded);
  broadcast(shape_data);
  const Setup setup = decode_setup(encoded);
  const std::vector<CollectiveShape> shapes = decode_shapes(shape_data);
  const int measurable = static_cast<int>(setup.measurable.size());
  const bool live = measurable >= o.nprocs;

  const auto slot_it = std::find(setup.measurable.begin(), setup.measurable.end(), self);
  const int slot =
      slot_it == setup.measurable.end() ? -1 : static_cast<int>(slot_it - setup.measurable.begin());
  MPI_Comm_dup(MPI_COMM_WORLD, &comms.data);
  MPI_Comm_dup(MPI_COMM_WORLD, &comms.control);
  MPI_Comm_dup(MPI_COMM_WORLD, &comms.noise);
  MPI_Comm_split(MPI_COMM_WORLD, slot >= 0 ? 0 : MPI_UNDEFINED, slot, &comms.measurable);

  std::vector<CollectiveResult> collective_results;
  std::map<CollectiveShape, double> fitted;
  if (!live && !shapes.empty()) {
    if (self == 0) {
      std::printf("measuring %zu collective(s) on 2..%d processes\n", shapes.size(), processes);
      std::fflush(stdout);
    }
    fitted = measure_collectives(shapes, std::max(3, o.repetitions), collective_results);
  }

  MeasurableOptions mo;
  mo.repetitions = o.repetitions;
  mo.collectives_live = live;
  mo.fitted = &fitted;
  mo.ranks_per_node = o.ranks_per_node;
  mo.mapping = o.mapping;
  mo.record_messages = o.messages;
  mo.noise_cap = o.noise_cap;
  std::unique_ptr<MeasurableProcess> mp;
  if (slot >= 0)
    mp = std::make_unique<MeasurableProcess>(*trace, setup, comms, ComputeEmulation(o.compute), mo);
  const auto hole_it = std::find(setup.black_holes.begin(), setup.black_holes.end(), self);
  const int hole = hole_it == setup.black_holes.end()
                       ? -1
                       : static_cast<int>(hole_it - setup.black_holes.begin());
  BlackHole black_hole(comms.data, comms.control);
  NoisePair noise(comms.noise, comms.control);

  const int steps = static_cast<int>(setup.plan.steps.size());
  std::vector<double> step_reports;
  Progress progress;
  if (self == 0) {
    std::printf(
        "replaying N = %d on %d processes: %d measurable, %zu black hole(s), %zu noise "
        "pair(s), %d steps after a warm-up step\n",
        o.nprocs, processes, measurable, setup.black_holes.size(), setup.noise_pairs.size(), steps);
    std::fflush(stdout);
  }
  const int fault = fault_process();
  for (int k = -1; k < steps; ++k) {
    if (self == fault && k == fault_step()) std::raise(SIGKILL);
    const int index = std::max(k, 0);
    const PlannedStep& step = setup.plan.steps[static_cast<std::size_t>(index)];
    if (slot >= 0) {
      const StepCounts c = mp->run_step(index, slot, k < 0);
      if (k >= 0)
        step_reports.insert(
            step_reports.end(),
            {static_cast<double>(k), static_cast<double>(slot), static_cast<double>(c.executed),
             static_cast<double>(c.measured), static_cast<double>(c.noise_messages),
             static_cast<double>(c.network_messages)});
    }
    if (hole >= 0) {
      const auto served = std::find(step.black_hole.begin(), step.black_hole.end(), hole);
      if (served != step.black_hole.end())
        black_hole.serve(
            setup.measurable[static_cast<std::size_t>(served - step.black_hole.begin())]);
    }
    for (const auto& [sender, receiver] : setup.noise_pairs) {
      if (self == sender) noise.send(setup.measurable.front(), receiver);
      if (self == receiver) noise.receive(sender);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (self == 0 && k >= 0)
      progress.step(k + 1, steps, trace->phases()[static_cast<std::size_t>(step.phase)].name);
  }
  const double synet = MPI_Wtime() - started;

  // Per measured repetition: [phase, rank, seconds x R] and [phase, rank, call, compute x R,
  // latest x R], R the measured repetitions.
  const auto reps = static_cast<std::size_t>(o.repetitions);
  std::vector<double> seconds, completions, messages, repetition_seconds, repetition_completions;
  if (mp) {
    for (const auto& [key, by_rep] : mp->rank_repetition_seconds()) {
      repetition_seconds.insert(repetition_seconds.end(),
                                {static_cast<double>(key.first), static_cast<double>(key.second)});
      repetition_seconds.insert(repetition_seconds.end(), by_rep.begin(), by_rep.end());
    }
    for (const auto& [key, part] : mp->completions()) {
      repetition_completions.insert(
          repetition_completions.end(),
          {static_cast<double>(std::get<0>(key)), static_cast<double>(std::get<1>(key)),
           static_cast<double>(std::get<2>(key))});
      repetition_completions.insert(repetition_completions.end(),
                                    part.compute_by_repetition.begin(),
                                    part.compute_by_repetition.end());
      repetition_completions.insert(repetition_completions.end(), part.latest_by_repetition.begin(),
                                    part.latest_by_repetition.end());
    }
    for (const auto& [key, value] : mp->rank_seconds())
      seconds.insert(seconds.end(),
                     {static_cast<double>(key.first), static_cast<double>(key.second), value});
    for (const auto& [key, part] : mp->completions())
      completions.insert(
          completions.end(),
          {static_cast<double>(std::get<0>(key)), static_cast<double>(std::get<1>(key)),
           static_cast<double>(std::get<2>(key)), part.compute, part.latest});
    for (const MessageResult& m : mp->messages())
      messages.insert(
          messages.end(),
          {static_cast<double>(m.phase), static_cast<double>(m.step), static_cast<double>(m.rank),
           static_cast<double>(m.peer), m.send ? 1.0 : 0.0, static_cast<double>(m.bytes),
           m.same_node ? 1.0 : 0.0, m.seconds, static_cast<double>(m.in_flight)});
  }
  const std::vector<double> all_seconds = gather(seconds);
  const std::vector<double> all_completions = gather(completions);
  const std::vector<double> all_repetition_seconds = gather(repetition_seconds);
  const std::vector<double> all_repetition_completions = gather(repetition_completions);
  const std::vector<double> all_steps = gather(step_reports);
  const std::vector<double> all_messages = gather(messages);
  if (self != 0) return 0;

  ReplayResult r;
  r.source = o.input;
  r.nprocs = o.nprocs;
  r.processes = processes;
  r.measurable = measurable;
  r.black_holes = static_cast<int>(setup.black_holes.size());
  r.noise_pairs = static_cast<int>(setup.noise_pairs.size());
  r.ranks_per_node = o.ranks_per_node;
  r.mapping = std::string(core::mapping_name(o.mapping));
  r.placement_kept = setup.placement_kept;
  r.placement = setup.placement;
  r.compute = std::string(compute_mode_name(o.compute));
  r.repetitions = o.repetitions;
  r.steps = steps;
  r.synet = synet;
  r.collectives = collective_results;
  r.warnings = trace_warnings;
  if (!setup.placement_kept) r.warnings.push_back(setup.placement);

  for (const PlannedStep& s : setup.plan.steps) {
    StepResult sr;
    sr.phase = s.phase;
    sr.ranks = s.ranks;
    sr.executed.assign(s.ranks.size(), 0);
    sr.measured.assign(s.ranks.size(), 0);
    sr.black_holes = s.black_holes;
    r.step_log.push_back(sr);
  }
  std::map<int, std::vector<double>> own_network;  // per step: per slot
  for (std::size_t i = 0; i + kStepFields <= all_steps.size(); i += kStepFields) {
    StepResult& sr = r.step_log[static_cast<std::size_t>(all_steps[i])];
    const auto s = static_cast<std::size_t>(all_steps[i + 1]);
    sr.executed[s] = static_cast<std::int64_t>(all_steps[i + 2]);
    sr.measured[s] = static_cast<std::int64_t>(all_steps[i + 3]);
    if (s == 0) sr.noise_messages = static_cast<std::int64_t>(all_steps[i + 4]);
    own_network[static_cast<int>(all_steps[i])].push_back(all_steps[i + 5]);
  }
  std::map<int, std::vector<double>> per_rank;
  for (std::size_t i = 0; i + 3 <= all_seconds.size(); i += 3) {
    std::vector<double>& v = per_rank[static_cast<int>(all_seconds[i])];
    if (v.empty()) v.assign(static_cast<std::size_t>(o.nprocs), 0.0);
    v[static_cast<std::size_t>(all_seconds[i + 1])] += all_seconds[i + 2];
  }
  // A completion call: its compute (measured once) plus the latest of its peers' units.
  std::map<std::tuple<int, int, int>, std::pair<double, double>> calls;
  for (std::size_t i = 0; i + 5 <= all_completions.size(); i += 5) {
    auto& [compute, latest] =
        calls[{static_cast<int>(all_completions[i]), static_cast<int>(all_completions[i + 1]),
               static_cast<int>(all_completions[i + 2])}];
    compute += all_completions[i + 3];
    latest = std::max(latest, all_completions[i + 4]);
  }
  for (const auto& [key, value] : calls) {
    std::vector<double>& v = per_rank[std::get<0>(key)];
    if (v.empty()) v.assign(static_cast<std::size_t>(o.nprocs), 0.0);
    v[static_cast<std::size_t>(std::get<1>(key))] += value.first + value.second;
  }
  // The same per measured repetition: per phase, per repetition, per rank.
  std::map<int, std::vector<std::vector<double>>> per_rank_by_rep;
  auto rank_by_rep = [&](int phase, std::size_t rep) -> std::vector<double>& {
    auto& v = per_rank_by_rep[phase];
    if (v.empty()) v.assign(reps, std::vector<double>(static_cast<std::size_t>(o.nprocs), 0.0));
    return v[rep];
  };
  for (std::size_t i = 0; i + 2 + reps <= all_repetition_seconds.size(); i += 2 + reps) {
    const int phase = static_cast<int>(all_repetition_seconds[i]);
    const auto rank = static_cast<std::size_t>(all_repetition_seconds[i + 1]);
    for (std::size_t rep = 0; rep < reps; ++rep)
      rank_by_rep(phase, rep)[rank] += all_repetition_seconds[i + 2 + rep];
  }
  std::map<std::tuple<int, int, int>, std::vector<std::pair<double, double>>> calls_by_rep;
  for (std::size_t i = 0; i + 3 + 2 * reps <= all_repetition_completions.size();
       i += 3 + 2 * reps) {
    auto& parts = calls_by_rep[{static_cast<int>(all_repetition_completions[i]),
                                static_cast<int>(all_repetition_completions[i + 1]),
                                static_cast<int>(all_repetition_completions[i + 2])}];
    parts.resize(reps);
    for (std::size_t rep = 0; rep < reps; ++rep) {
      parts[rep].first += all_repetition_completions[i + 3 + rep];
      parts[rep].second =
          std::max(parts[rep].second, all_repetition_completions[i + 3 + reps + rep]);
    }
  }
  for (const auto& [key, parts] : calls_by_rep) {
    for (std::size_t rep = 0; rep < reps; ++rep) {
      rank_by_rep(std::get<0>(key), rep)[static_cast<std::size_t>(std::get<1>(key))] +=
          parts[rep].first + parts[rep].second;
    }
  }
  std::vector<int> phases = o.phases;
  if (phases.empty())
    for (int p = 0; p < static_cast<int>(trace->phases().size()); ++p) phases.push_back(p);
  for (const int p : phases) {
    PhaseResult ph;
    ph.name = trace->phases()[static_cast<std::size_t>(p)].name;
    ph.weight = trace->phases()[static_cast<std::size_t>(p)].weight;
    std::vector<double>& v = per_rank[p];
    if (v.empty()) v.assign(static_cast<std::size_t>(o.nprocs), 0.0);
    ph.per_rank = spread_of(v);
    ph.phase_et = ph.per_rank.max;
    // The slowest rank's time in each measured repetition, and their spread.
    std::vector<double> slowest;
    for (std::size_t rep = 0; rep < reps; ++rep) {
      const std::vector<double>& ranks = rank_by_rep(p, rep);
      slowest.push_back(*std::max_element(ranks.begin(), ranks.end()));
    }
    ph.by_repetition = spread_of(slowest);
    double own = 0, noise_sum = 0;
    for (std::size_t k = 0; k < r.step_log.size(); ++k) {
      if (r.step_log[k].phase != p) continue;
      ++ph.steps;
      for (const double x : own_network[static_cast<int>(k)]) own += x;
      noise_sum += static_cast<double>(r.step_log[k].noise_messages);
    }
    std::vector<core::Event> events;
    trace->phase_events(p, 0, events);
    const bool has_collectives =
        std::any_of(events.begin(), events.end(),
                    [](const core::Event& e) { return is_replayed_collective(e.op); });
    ph.collectives = !has_collectives ? "none" : live ? "live" : "fit";
    ph.app_network_messages = setup.plan.traffic[static_cast<std::size_t>(p)].network_messages;
    ph.replay_network_messages = ph.steps > 0 ? own / ph.steps : 0;
    ph.noise_messages = ph.steps > 0 ? noise_sum / ph.steps : 0;
    r.pet += ph.phase_et * ph.weight;
    r.phases.push_back(ph);
  }
  for (std::size_t i = 0; i + kMessageFields <= all_messages.size(); i += kMessageFields) {
    MessageResult m;
    m.phase = static_cast<int>(all_messages[i]);
    m.step = static_cast<int>(all_messages[i + 1]);
    m.rank = static_cast<std::int32_t>(all_messages[i + 2]);
    m.peer = static_cast<std::int32_t>(all_messages[i + 3]);
    m.send = all_messages[i + 4] != 0;
    m.bytes = static_cast<std::int64_t>(all_messages[i + 5]);
    m.same_node = all_messages[i + 6] != 0;
    m.seconds = all_messages[i + 7];
    m.in_flight = static_cast<int>(all_messages[i + 8]);
    r.messages.push_back(m);
  }
  write_json_atomically(o.output, to_json(r));
  for (const PhaseResult& ph : r.phases)
    std::printf("%s: PhaseET %.6g s x %.6g\n", ph.name.c_str(), ph.phase_et, ph.weight);
  std::printf("PET %.6g s at N = %d; SynET %.3g s; written to %s\n", r.pet, r.nprocs, r.synet,
              o.output.c_str());
  return 0;
}

}  // namespace
}  // namespace p3s::replay

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int code = 0;
  try {
    code = p3s::replay::replay(argc, argv);
  } catch (const std::exception& e) {
    // One process failed where the others cannot know: stop them all, write nothing.
    std::fprintf(stderr, "p3s-replay: process %d: %s\n", p3s::replay::self_process(), e.what());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 4);
  }
  MPI_Finalize();
  return code;
}
