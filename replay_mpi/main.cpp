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
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "generate/instantiation.hpp"
#include "generate/st4np_file.hpp"
#include "model/slt_json.hpp"
#include "replay_mpi/black_hole.hpp"
#include "replay_mpi/collective_bench.hpp"
#include "replay_mpi/measurable_process.hpp"
#include "replay_mpi/measurement_records.hpp"
#include "replay_mpi/noise_pair.hpp"
#include "replay_mpi/replay_options.hpp"
#include "replay_mpi/replay_result.hpp"
#include "replay_mpi/replay_setup.hpp"

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

void write_json_atomically(const fs::path& file, const nlohmann::ordered_json& j) {
  const fs::path tmp = file.string() + ".partial";
  {
    std::ofstream out(tmp);
    out << j.dump(1) << "\n";
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
  }
  fs::rename(tmp, file);
}

// The phases replayed: those asked, else all of the trace's.
std::vector<int> replayed_phases(const ReplayOptions& o, const core::ScaledTrace& trace) {
  std::vector<int> phases = o.phases;
  if (phases.empty())
    for (int p = 0; p < static_cast<int>(trace.phases().size()); ++p) phases.push_back(p);
  return phases;
}

// The trace replayed: an ST4NP read whole, or the SLT instantiated at N by this process (a
// rank's events cost a few operations each), which it refers to.
struct ReplayedTrace {
  std::unique_ptr<model::Slt> slt;
  std::unique_ptr<core::ScaledTrace> trace;
  std::vector<std::string> warnings;
};

ReplayedTrace instantiate(const ReplayOptions& o) {
  ReplayedTrace r;
  if (generate::St4npFile::is_st4np(o.input)) {
    r.trace = std::make_unique<generate::St4npFile>(o.input);
    if (r.trace->nprocs() != o.nprocs)
      throw std::domain_error("the ST4NP has " + std::to_string(r.trace->nprocs()) + " ranks");
  } else {
    r.slt = std::make_unique<model::Slt>(model::read_slt(o.input));
    generate::Instantiation inst = generate::instantiate(*r.slt, o.nprocs,
                                                         {.carry_nearest = o.carry_nearest,
                                                          .partial = o.partial,
                                                          .accept_undecided = o.accept_ambiguous});
    r.warnings = inst.warnings;
    if (!inst.left_out.empty()) r.warnings.push_back("the ST4NP " + inst.coverage_text());
    r.trace = std::move(inst.trace);
  }
  if (r.trace->phases().empty()) throw std::domain_error("no phase can be instantiated at N");
  return r;
}

// Process 0's plan, encoded to be broadcast: the setup, and the collective shapes to measure.
struct EncodedPlan {
  std::vector<std::int64_t> setup, shapes;
};

EncodedPlan plan_replay(const ReplayOptions& o, const core::ScaledTrace& trace,
                        const std::vector<int>& node_of_process) {
  SetupOptions so;
  so.measurable = o.measurable;
  so.ranks_per_node = o.ranks_per_node;
  so.mapping = o.mapping;
  so.phases = o.phases;
  so.noise = o.noise;
  EncodedPlan plan;
  plan.setup = encode_setup(make_setup(trace, node_of_process, so));
  plan.shapes = encode_shapes(collective_shapes(trace, replayed_phases(o, trace)));
  return plan;
}

// The index of `process` in `processes`, -1 when it is not there.
int index_of(const std::vector<int>& processes, int process) {
  const auto it = std::find(processes.begin(), processes.end(), process);
  return it == processes.end() ? -1 : static_cast<int>(it - processes.begin());
}

MeasurableOptions measurable_options(const ReplayOptions& o, bool live,
                                     const std::map<CollectiveShape, double>& fitted) {
  MeasurableOptions mo;
  mo.repetitions = o.repetitions;
  mo.collectives_live = live;
  mo.fitted = &fitted;
  mo.ranks_per_node = o.ranks_per_node;
  mo.mapping = o.mapping;
  mo.record_messages = o.messages;
  mo.record_units = o.units;
  mo.noise_cap = o.noise_cap;
  return mo;
}

// Each phase's PhaseET and the replay's verdicts on it.
void print_phases(const ReplayResult& r) {
  for (const PhaseResult& ph : r.phases) {
    std::printf("%s: PhaseET %.6g s x %.6g\n", ph.name.c_str(), ph.phase_et, ph.weight);
    if (!ph.not_held.empty())
      std::printf("  WARNING: not held at this R: %s\n", ph.not_held.c_str());
    if (ph.overlap_allowance > 0)
      std::printf(
          "  may be up to %.3g s long: its collectives' members leave them spread out at N\n",
          ph.overlap_allowance);
    if (!ph.collective_fit_misses.empty())
      std::printf("  WARNING: its collectives' time at N is a guess: %s\n",
                  ph.collective_fit_misses.c_str());
  }
}

// This process's part in the run: a measurable process (slot >= 0), a black hole (hole >= 0),
// perhaps a noise sender or receiver, or nothing but the barriers.
struct Roles {
  int self = 0;
  int slot = -1;
  int hole = -1;
  MeasurableProcess* measurable = nullptr;
  BlackHole* black_hole = nullptr;
  NoisePair* noise = nullptr;
};

// The warm-up step (the first step again, not measured), then every step, a barrier after each.
void play_steps(const Setup& setup, const core::ScaledTrace& trace, const Roles& roles,
                MeasurementRecords& records) {
  const int steps = static_cast<int>(setup.plan.steps.size());
  Progress progress;
  const int fault = fault_process();
  for (int k = -1; k < steps; ++k) {
    if (roles.self == fault && k == fault_step()) std::raise(SIGKILL);
    const int index = std::max(k, 0);
    const PlannedStep& step = setup.plan.steps[static_cast<std::size_t>(index)];
    if (roles.slot >= 0) {
      const StepCounts c = roles.measurable->run_step(index, roles.slot, k < 0);
      if (k >= 0) record_step(k, roles.slot, c, records);
    }
    if (roles.hole >= 0) {
      const auto served = std::find(step.black_hole.begin(), step.black_hole.end(), roles.hole);
      if (served != step.black_hole.end())
        roles.black_hole->serve(
            setup.measurable[static_cast<std::size_t>(served - step.black_hole.begin())]);
    }
    for (const auto& [sender, receiver] : setup.noise_pairs) {
      if (roles.self == sender) roles.noise->send(setup.measurable.front(), receiver);
      if (roles.self == receiver) roles.noise->receive(sender);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (roles.self == 0 && k >= 0)
      progress.step(k + 1, steps, trace.phases()[static_cast<std::size_t>(step.phase)].name);
  }
}

// Every process's records, concatenated in process order on process 0.
MeasurementRecords gather(const MeasurementRecords& mine) {
  MeasurementRecords all;
  all.seconds = gather(mine.seconds);
  all.compute = gather(mine.compute);
  all.completions = gather(mine.completions);
  all.repetition_seconds = gather(mine.repetition_seconds);
  all.repetition_completions = gather(mine.repetition_completions);
  all.steps = gather(mine.steps);
  all.messages = gather(mine.messages);
  all.units = gather(mine.units);
  return all;
}

// What the result says of the run's setup, before the measurements.
ReplayResult result_of_setup(const ReplayOptions& o, int processes, const Setup& setup) {
  ReplayResult r;
  r.source = o.input;
  r.nprocs = o.nprocs;
  r.processes = processes;
  r.measurable = static_cast<int>(setup.measurable.size());
  r.black_holes = static_cast<int>(setup.black_holes.size());
  r.noise_pairs = static_cast<int>(setup.noise_pairs.size());
  r.ranks_per_node = o.ranks_per_node;
  r.mapping = std::string(core::mapping_name(o.mapping));
  r.placement_kept = setup.placement_kept;
  r.placement = setup.placement;
  r.compute = std::string(compute_mode_name(o.compute));
  r.repetitions = o.repetitions;
  r.steps = static_cast<int>(setup.plan.steps.size());
  return r;
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

  // Every process instantiates the model itself; an ST4NP file (p3s generate's) is read whole.
  ReplayedTrace replayed;
  try {
    replayed = instantiate(o);
  } catch (const std::exception& e) {
    return fail(kCannotReplay, "cannot instantiate " + o.input +
                                   " at N = " + std::to_string(o.nprocs) + ": " + e.what());
  }
  const core::ScaledTrace& trace = *replayed.trace;

  ReplayComms comms;
  comms.node_of_process = node_of_processes();
  EncodedPlan plan;
  if (self == 0) {
    try {
      plan = plan_replay(o, trace, comms.node_of_process);
    } catch (const std::exception& e) {
      error = std::string("cannot replay N = ") + std::to_string(o.nprocs) + " on " +
              std::to_string(processes) + " processes: " + e.what();
    }
  }
  error = broadcast_error(error);
  if (!error.empty()) return fail(kCannotReplay, error);
  broadcast(plan.setup);
  broadcast(plan.shapes);
  const Setup setup = decode_setup(plan.setup);
  const std::vector<CollectiveShape> shapes = decode_shapes(plan.shapes);
  const int measurable = static_cast<int>(setup.measurable.size());
  const bool live = measurable >= o.nprocs;

  Roles roles;
  roles.self = self;
  roles.slot = index_of(setup.measurable, self);
  roles.hole = index_of(setup.black_holes, self);
  MPI_Comm_dup(MPI_COMM_WORLD, &comms.data);
  MPI_Comm_dup(MPI_COMM_WORLD, &comms.control);
  MPI_Comm_dup(MPI_COMM_WORLD, &comms.noise);
  MPI_Comm_split(MPI_COMM_WORLD, roles.slot >= 0 ? 0 : MPI_UNDEFINED, roles.slot,
                 &comms.measurable);

  std::vector<CollectiveResult> collective_results;
  std::map<CollectiveShape, double> fitted;
  if (!live && !shapes.empty()) {
    if (self == 0) {
      std::printf("measuring %zu collective(s) on 2..%d processes\n", shapes.size(), processes);
      std::fflush(stdout);
    }
    fitted = measure_collectives(shapes, std::max(3, o.repetitions), collective_results);
  }

  std::unique_ptr<MeasurableProcess> mp;
  if (roles.slot >= 0) {
    mp = std::make_unique<MeasurableProcess>(trace, setup, comms, ComputeEmulation(o.compute),
                                             measurable_options(o, live, fitted));
  }
  BlackHole black_hole(comms.data, comms.control);
  NoisePair noise(comms.noise, comms.control);
  roles.measurable = mp.get();
  roles.black_hole = &black_hole;
  roles.noise = &noise;

  if (self == 0) {
    std::printf(
        "replaying N = %d on %d processes: %d measurable, %zu black hole(s), %zu noise "
        "pair(s), %d steps after a warm-up step\n",
        o.nprocs, processes, measurable, setup.black_holes.size(), setup.noise_pairs.size(),
        static_cast<int>(setup.plan.steps.size()));
    std::fflush(stdout);
  }
  MeasurementRecords records;
  play_steps(setup, trace, roles, records);
  const double synet = MPI_Wtime() - started;

  if (mp) record_measurements(*mp, records);
  const MeasurementRecords all = gather(records);
  if (self != 0) return 0;

  ReplayResult r = result_of_setup(o, processes, setup);
  r.synet = synet;
  r.collectives = collective_results;
  r.warnings = replayed.warnings;
  if (!setup.placement_kept) r.warnings.push_back(setup.placement);
  const std::vector<int> phases = replayed_phases(o, trace);
  add_measurements(all, trace, setup, phases, live, r);
  judge_fitted_phases(trace, phases, r);
  write_json_atomically(o.output, to_json(r));
  print_phases(r);
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
