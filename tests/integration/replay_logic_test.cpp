// The Synthetic Signature's logic on Open MPI, for real (issues 11 and 22): each test app is
// traced at small n and modelled, its ST4NP generated at N, and p3s-replay run on R processes
// under a time bound. From the JSON, counted against the ST4NP text (read by the test itself):
// every rank's every call made in every step that loads it, as many times as the step played
// repetitions (counted by the calls themselves); every measurement unit timed by its call in
// exactly one step, in every measured repetition, none missing, only where its peers were
// loaded, and, when it exchanges messages, for a time above 0 (--record-units: the records the
// measuring call writes); and the black holes of every step equal to an independent count of
// eq. 5.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

#include "collective_rows.hpp"
#include "core/scaled_trace.hpp"
#include "generate/st4np_writer.hpp"
#include "integration/run_helpers.hpp"
#include "integration/st4np_text.hpp"

namespace p3s::testing {
namespace {

namespace fs = std::filesystem;

// A replay that takes longer than this is a hang (the longest here takes a few seconds).
constexpr const char* kHangBound = "120";

struct LogicCase {
  std::string app;
  std::vector<int> training;
  std::string size;
  int iterations;
};

// Traces the app at every training n and models it into WORK/app.slt.
void model_app(const fs::path& work, const LogicCase& c) {
  std::vector<std::string> model_cmd = {p3s_bin(), "model"};
  for (const int n : c.training) {
    const fs::path dir = work / (c.app + "-" + std::to_string(n));
    const CommandResult traced = trace_app(dir, n, c.app, {c.size, std::to_string(c.iterations)});
    ASSERT_EQ(traced.exit_code, 0) << traced.output;
    model_cmd.push_back(dir.string());
  }
  model_cmd.insert(model_cmd.end(), {"-o", (work / "app.slt").string()});
  const CommandResult modelled = run_command(model_cmd);
  ASSERT_EQ(modelled.exit_code, 0) << modelled.output;
}

CommandResult replay(const fs::path& input, int n, int processes, const fs::path& json,
                     const std::vector<std::string>& extra = {},
                     const std::string& compute = "none") {
  // The model (app.slt) or the ST4NP file (st4np.txt): p3s-replay takes either.
  std::vector<std::string> argv = {"timeout",
                                   kHangBound,
                                   P3S_MPIRUN,
                                   "--oversubscribe",
                                   "-np",
                                   std::to_string(processes),
                                   P3S_REPLAY_BIN,
                                   input.string(),
                                   "-n",
                                   std::to_string(n),
                                   "-o",
                                   json.string(),
                                   "--compute",
                                   compute,
                                   "--repetitions",
                                   "2",
                                   "--record-units"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return run_command(argv);
}

bool loaded_all(const std::vector<std::int32_t>& peers, const std::set<std::int32_t>& loaded) {
  return std::all_of(peers.begin(), peers.end(), [&](std::int32_t p) { return loaded.count(p); });
}

std::size_t units_of(const TextCall& c) {
  return c.completion ? std::max<std::size_t>(1, c.completes.size()) : 1;
}

// The ranks unit `unit` of call `c` exchanges messages with: a completion's unit k is its k-th
// distinct peer; any other call's one unit, all its peers.
std::vector<std::int32_t> unit_peers(const TextCall& c, std::size_t unit) {
  if (c.completion && !c.completes.empty()) return {c.completes.at(unit)};
  return c.peers;
}

using UnitKey = std::tuple<int, int, int, int>;  // phase, rank, call, unit

// Every unit record the measuring calls wrote, checked against the ST4NP and the step that
// loaded it; each unit must appear exactly once and none may be missing.
void check_unit_records(const nlohmann::json& j, const St4npText& st4np, int repetitions) {
  ASSERT_TRUE(j.contains("units")) << "--record-units wrote no units";
  std::map<UnitKey, int> seen;
  for (const nlohmann::json& row : j.at("units").at("rows")) {
    const int phase = row[0], rank = row[1], call = row[2], unit = row[3], step = row[4];
    const int timed = row[5];
    const double seconds = row[6];
    const UnitKey key{phase, rank, call, unit};
    ++seen[key];
    const auto calls = st4np.calls.find({phase, rank});
    ASSERT_NE(calls, st4np.calls.end()) << "a unit of phase " << phase << " rank " << rank;
    ASSERT_LT(static_cast<std::size_t>(call), calls->second.size()) << "rank " << rank;
    const TextCall& c = calls->second[static_cast<std::size_t>(call)];
    ASSERT_LT(static_cast<std::size_t>(unit), units_of(c)) << c.op << " of rank " << rank;
    EXPECT_EQ(timed, repetitions) << c.op << " of rank " << rank << ", unit " << unit;
    const std::vector<std::int32_t> peers = unit_peers(c, static_cast<std::size_t>(unit));
    if (!peers.empty()) {
      EXPECT_GT(seconds, 0) << c.op << " of rank " << rank << ": a message in no time";
    }
    const auto ranks = j.at("step_log").at(step).at("ranks").get<std::vector<std::int32_t>>();
    const std::set<std::int32_t> loaded(ranks.begin(), ranks.end());
    EXPECT_TRUE(loaded.count(rank) && loaded_all(peers, loaded))
        << c.op << " of rank " << rank << " measured in step " << step << " without its peers";
  }
  for (const auto& [key, calls] : st4np.calls) {
    for (std::size_t call = 0; call < calls.size(); ++call) {
      for (std::size_t unit = 0; unit < units_of(calls[call]); ++unit) {
        const UnitKey k{key.first, key.second, static_cast<int>(call), static_cast<int>(unit)};
        const auto it = seen.find(k);
        EXPECT_TRUE(it != seen.end() && it->second == 1)
            << "phase " << key.first << " rank " << key.second << " call " << call << " unit "
            << unit << ": measured " << (it == seen.end() ? 0 : it->second) << " times";
      }
    }
  }
}

// Units of `calls` whose peers are all in `loaded`: what a step may measure.
std::size_t measurable_units(const std::vector<TextCall>& calls,
                             const std::set<std::int32_t>& loaded) {
  std::size_t n = 0;
  for (const TextCall& c : calls) {
    if (c.completion && !c.completes.empty()) {
      for (const std::int32_t p : c.completes) n += loaded.count(p);
    } else {
      n += loaded_all(c.peers, loaded) ? 1 : 0;
    }
  }
  return n;
}

void check_replay(const LogicCase& c, const fs::path& work, int n, int processes) {
  SCOPED_TRACE(c.app + " N = " + std::to_string(n) + " on R = " + std::to_string(processes));
  const fs::path slt = work / "app.slt";
  // Each N replaces the ST4NP of the one before.
  const CommandResult generated =
      run_command({p3s_bin(), "generate", slt.string(), "-n", std::to_string(n), "-o",
                   (work / "st4np").string(), "--force"});
  ASSERT_EQ(generated.exit_code, 0) << generated.output;
  const St4npText st4np = read_st4np_text(work / "st4np" / "st4np.txt");
  ASSERT_EQ(st4np.nprocs, n);

  const fs::path json =
      work / ("replay-" + std::to_string(n) + "-" + std::to_string(processes) + ".json");
  const CommandResult run = replay(slt, n, processes, json);
  ASSERT_NE(run.exit_code, 124) << "p3s-replay did not finish within " << kHangBound << " s\n"
                                << run.output;
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::ifstream in(json);
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j.at("format"), "p3s-replay 1");
  EXPECT_EQ(j.at("nprocs"), n);
  EXPECT_EQ(j.at("processes"), processes);
  const int repetitions = j.at("measured_repetitions").get<int>();

  std::map<std::pair<int, int>, std::size_t> measured;
  std::set<std::pair<int, int>> executed;
  int most_holes = 0;
  for (const nlohmann::json& step : j.at("step_log")) {
    const int phase = step.at("phase").get<int>();
    const auto ranks = step.at("ranks").get<std::vector<std::int32_t>>();
    const std::set<std::int32_t> loaded(ranks.begin(), ranks.end());
    int holes = 0;  // eq. 5, counted from the ST4NP: loaded ranks with a peer not loaded
    for (std::size_t slot = 0; slot < ranks.size(); ++slot) {
      if (ranks[slot] < 0) continue;
      const std::vector<TextCall>& calls = st4np.calls.at({phase, ranks[slot]});
      const auto warmups = step.at("warmup_repetitions").get<std::size_t>();
      EXPECT_EQ(step.at("executed")[slot].get<std::size_t>(),
                calls.size() * (warmups + static_cast<std::size_t>(repetitions)))
          << "phase " << phase << " rank " << ranks[slot];
      executed.insert({phase, ranks[slot]});
      const auto here = step.at("measured")[slot].get<std::size_t>();
      EXPECT_LE(here, measurable_units(calls, loaded))
          << "phase " << phase << " rank " << ranks[slot] << ": measured with a peer absent";
      measured[{phase, ranks[slot]}] += here;
      const bool external = std::any_of(calls.begin(), calls.end(), [&](const TextCall& call) {
        return !loaded_all(call.peers, loaded);
      });
      holes += external ? 1 : 0;
    }
    EXPECT_EQ(step.at("black_holes").get<int>(), holes) << "phase " << phase;
    most_holes = std::max(most_holes, holes);
  }
  EXPECT_EQ(j.at("black_holes").get<int>(), most_holes);
  std::printf(
      "%s N=%d R=%d: %d steps, %d measurable, %d black holes (eq. 5, independent count %d)\n",
      c.app.c_str(), n, processes, j.at("steps").get<int>(), j.at("measurable").get<int>(),
      j.at("black_holes").get<int>(), most_holes);
  for (const auto& [key, calls] : st4np.calls) {
    std::size_t units = 0;
    for (const TextCall& call : calls) units += units_of(call);
    if (calls.empty()) continue;
    EXPECT_TRUE(executed.count(key))
        << "phase " << key.first << " rank " << key.second << " never executed";
    EXPECT_EQ(measured[key], units)
        << "phase " << key.first << " rank " << key.second << ": units measured over the steps";
  }
  EXPECT_GT(j.at("pet_seconds").get<double>(), 0);
  check_unit_records(j, st4np, repetitions);

  // The ST4NP file itself replays as the model does: the same steps, the same units measured.
  if (processes >= n) return;
  const fs::path from_file = work / ("replay-file-" + std::to_string(n) + ".json");
  const CommandResult file_run = replay(work / "st4np" / "st4np.txt", n, processes, from_file);
  ASSERT_EQ(file_run.exit_code, 0) << file_run.output;
  std::ifstream file_in(from_file);
  const nlohmann::json f = nlohmann::json::parse(file_in);
  ASSERT_EQ(f.at("step_log").size(), j.at("step_log").size());
  for (std::size_t k = 0; k < f.at("step_log").size(); ++k) {
    EXPECT_EQ(f.at("step_log")[k].at("ranks"), j.at("step_log")[k].at("ranks")) << "step " << k;
    EXPECT_EQ(f.at("step_log")[k].at("measured"), j.at("step_log")[k].at("measured"))
        << "step " << k;
  }
}

// The app modelled once, then replayed at each (N, R).
void check_replays(const LogicCase& c, const std::vector<std::pair<int, int>>& runs) {
  const fs::path work = scratch_dir("replay_logic_" + c.app);
  model_app(work, c);
  if (::testing::Test::HasFatalFailure()) return;
  for (const auto& [n, processes] : runs) check_replay(c, work, n, processes);
}

const LogicCase kStencil{"app_stencil2d", {1, 4, 9, 16}, "8", 20};
const LogicCase kButterfly{"app_butterfly", {2, 4, 8, 16}, "16", 20};
const LogicCase kRing{"app_ring", {2, 3, 4, 5}, "16", 20};
const LogicCase kWavefront{"app_wavefront", {4, 6, 8, 9}, "16", 20};
const LogicCase kHalo{"app_halo_f", {2, 3, 4, 5}, "16", 20};

TEST(ReplayLogic, Stencil) {
  check_replays(kStencil, {{64, 8}, {64, 64}, {1024, 8}});
}
TEST(ReplayLogic, Butterfly) {
  check_replays(kButterfly, {{64, 8}, {64, 64}});
}
TEST(ReplayLogic, Ring) {
  check_replays(kRing, {{64, 8}, {64, 64}});
}
TEST(ReplayLogic, Wavefront) {
  check_replays(kWavefront, {{64, 8}, {64, 64}});
}
TEST(ReplayLogic, HaloFortran) {
  check_replays(kHalo, {{64, 8}, {64, 64}});
}

// Bad input: a clear error, a non-zero exit, and no JSON that claims a result.
TEST(ReplayLogic, RefusesWhatItCannotReplayAndWritesNothing) {
  const fs::path work = scratch_dir("replay_logic_bad");
  model_app(work, kStencil);
  if (::testing::Test::HasFatalFailure()) return;
  const fs::path slt = work / "app.slt";
  const fs::path json = work / "replay.json";

  // 60 is not a square: the stencil's grid is undefined there.
  CommandResult r = replay(slt, 60, 4, json);
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_NE(r.output.find("cannot instantiate"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(json));

  // Two processes: one measurable, one black hole; no message can be measured with its peer.
  r = replay(slt, 64, 2, json);
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_NE(r.output.find("R too small"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(json));

  // A process that dies in the middle of the run (the replay's test hook kills process 3 at
  // step 5).
  const CommandResult killed = run_command(
      {"env", "P3S_REPLAY_FAULT=3:5", "timeout", kHangBound, P3S_MPIRUN, "--oversubscribe", "-np",
       "8", P3S_REPLAY_BIN, slt.string(), "-n", "64", "-o", json.string(), "--compute", "none"});
  EXPECT_NE(killed.exit_code, 0) << killed.output;
  EXPECT_NE(killed.exit_code, 124) << "a dead process left the others hanging\n" << killed.output;
  EXPECT_FALSE(fs::exists(json)) << killed.output;
  EXPECT_FALSE(fs::exists(json.string() + ".partial"));

  // p3s replay: a launcher that fails is named, nothing is written; one that works gives the
  // per-phase table.
  r = run_command(
      {p3s_bin(), "replay", slt.string(), "-n", "64", "--launcher", "false", "-o", json.string()});
  EXPECT_NE(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("the replay failed"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(json));
  r = run_command({p3s_bin(), "replay", slt.string(), "-n", "64", "--launcher",
                   std::string(P3S_MPIRUN) + " --oversubscribe -np 8", "-o", json.string(),
                   "--compute", "none", "--repetitions", "1"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("PhaseET (s)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("step "), std::string::npos) << "no progress shown\n" << r.output;
  EXPECT_NE(r.output.find("4 black hole(s)"), std::string::npos) << r.output;
  fs::remove(json);

  // An existing result is not replaced without --force.
  std::ofstream(json) << "mine\n";
  r = replay(slt, 64, 8, json);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  std::ifstream kept(json);
  std::string first;
  std::getline(kept, first);
  EXPECT_EQ(first, "mine");
}

// --compute spin and sleep under Open MPI: with every rank loaded (R = N, no black holes, one
// rank per core of this machine's two), the slowest rank's time per repetition of the
// imbalanced app's phase is at least the compute the ST4NP gives its slowest rank (the test's
// own sum of BURST_CPU), within how late a woken sleeper may be; without emulation it is not.
TEST(ReplayLogic, ComputeIsEmulatedBySpinningAndBySleeping) {
  const LogicCase c{"app_imbalanced", {2, 3, 4, 5}, "2048", 20};
  const fs::path work = scratch_dir("replay_logic_compute");
  model_app(work, c);
  if (HasFatalFailure()) return;
  const int n = 2;
  const CommandResult generated =
      run_command({p3s_bin(), "generate", (work / "app.slt").string(), "-n", std::to_string(n),
                   "-o", (work / "st4np").string()});
  ASSERT_EQ(generated.exit_code, 0) << generated.output;
  const St4npText st4np = read_st4np_text(work / "st4np" / "st4np.txt");
  std::map<std::string, nlohmann::json> runs;
  for (const std::string mode : {"spin", "sleep", "none"}) {
    const fs::path json = work / ("replay-" + mode + ".json");
    const CommandResult run = replay(work / "app.slt", n, n, json, {"--force"}, mode);
    ASSERT_EQ(run.exit_code, 0) << run.output;
    std::ifstream in(json);
    runs[mode] = nlohmann::json::parse(in);
    EXPECT_EQ(runs[mode].at("compute"), mode);
  }
  for (std::size_t p = 0; p < st4np.phase_names.size(); ++p) {
    double slowest = 0;  // s of compute per repetition, the slowest rank's
    for (int r = 0; r < n; ++r) {
      std::int64_t sum = 0;
      for (const TextCall& call : st4np.calls.at({static_cast<int>(p), r})) sum += call.burst_ns;
      slowest = std::max(slowest, static_cast<double>(sum) * 1e-9);
    }
    if (slowest < 1e-4) continue;  // too little compute to tell emulation from noise
    SCOPED_TRACE(st4np.phase_names[p]);
    const auto phase_et = [&](const std::string& mode) {
      return runs[mode].at("phases")[p].at("phase_et_seconds").get<double>();
    };
    std::printf("%s: compute %.6g s; PhaseET spin %.6g s, sleep %.6g s, none %.6g s\n",
                st4np.phase_names[p].c_str(), slowest, phase_et("spin"), phase_et("sleep"),
                phase_et("none"));
    EXPECT_GE(phase_et("spin"), slowest);
    EXPECT_GE(phase_et("sleep"), 0.99 * slowest);
    // An upper bound on a wall time: the faster repetition, as a stall of the loaded machine
    // (ctest -j) delays one of them by milliseconds.
    EXPECT_LT(
        runs["none"].at("phases")[p].at("phase_et_by_repetition_seconds").at("min").get<double>(),
        0.5 * slowest);
  }
}

// One phase per collective of the operation table (core/op_table.hpp), blocking and
// non-blocking, every rank calling it on the world (collective_rows.hpp).
class EveryCollectiveTrace final : public core::ScaledTrace {
 public:
  explicit EveryCollectiveTrace(int nprocs) : nprocs_(nprocs), rows_(every_collective_row()) {
    for (const CollectiveRow& row : rows_)
      phases_.push_back({std::string(core::op_name(row.op)), 3});
  }
  int nprocs() const override { return nprocs_; }
  const std::vector<core::ScaledPhase>& phases() const override { return phases_; }
  void phase_events(int phase, int rank, std::vector<core::Event>& out) const override {
    append_collective_call(rows_[static_cast<std::size_t>(phase)], rank, nprocs_, 0, out);
  }
  std::vector<core::Communicator> communicators(int) const override {
    core::Communicator world{0, std::vector<std::int32_t>(static_cast<std::size_t>(nprocs_))};
    for (int r = 0; r < nprocs_; ++r) world.members[static_cast<std::size_t>(r)] = r;
    return {world};
  }
  std::size_t rows() const { return rows_.size(); }

 private:
  int nprocs_;
  std::vector<CollectiveRow> rows_;
  std::vector<core::ScaledPhase> phases_;
};

// Every collective row replayed from an ST4NP: run as it is where all its members are loaded
// (N = R = 4), and at N = 8 on R = 4 from the fit of the target MPI's own collective measured
// on 2 to 4 processes. A row the replay's dispatch misses fails here by name.
TEST(ReplayLogic, EveryCollectiveOfTheOperationTableIsReplayed) {
  const fs::path work = scratch_dir("replay_logic_every_collective");
  fs::create_directories(work);
  for (const int n : {4, 8}) {
    SCOPED_TRACE("N = " + std::to_string(n));
    const EveryCollectiveTrace trace(n);
    ASSERT_GE(trace.rows(), 34u);
    const fs::path st4np = work / ("st4np-" + std::to_string(n) + ".txt");
    {
      std::ofstream out(st4np);
      generate::write_st4np(trace, out, 0, n - 1);
    }
    const fs::path json = work / ("replay-" + std::to_string(n) + ".json");
    const CommandResult run = replay(st4np, n, 4, json);
    ASSERT_EQ(run.exit_code, 0) << run.output;
    std::ifstream in(json);
    const nlohmann::json j = nlohmann::json::parse(in);
    ASSERT_EQ(j.at("phases").size(), trace.rows());
    for (std::size_t p = 0; p < trace.rows(); ++p) {
      const nlohmann::json& phase = j.at("phases")[p];
      EXPECT_EQ(phase.at("name"), trace.phases()[p].name);
      EXPECT_GT(phase.at("phase_et_seconds").get<double>(), 0) << trace.phases()[p].name;
    }
    // Fitted only where some members are black holes: one fit per shape, each above 0 at N.
    if (n == 4) {
      EXPECT_TRUE(j.at("collectives").empty()) << j.at("collectives").dump();
      continue;
    }
    EXPECT_FALSE(j.at("collectives").empty());
    for (const nlohmann::json& fit : j.at("collectives")) {
      EXPECT_GT(fit.at("at_n_seconds").get<double>(), 0) << fit.dump();
    }
  }
}

// Collectives on sub-communicators are refused, as replay_mpi/README.md says: exit 3 naming the
// phase, the rank and the call, and no JSON.
TEST(ReplayLogic, SubCommunicatorCollectivesAreRefused) {
  const LogicCase c{"app_subcomm", {4, 6, 8, 9}, "16", 10};
  const fs::path work = scratch_dir("replay_logic_subcomm");
  model_app(work, c);
  if (HasFatalFailure()) return;
  const fs::path json = work / "replay.json";
  const CommandResult run = replay(work / "app.slt", 16, 4, json);
  EXPECT_EQ(run.exit_code, 3) << run.output;
  EXPECT_NE(run.output.find("on a sub-communicator"), std::string::npos) << run.output;
  EXPECT_FALSE(fs::exists(json));
}

// p3s-replay's options on the stencil (N = 64, R = 8), each held against what it says:
// --measurable M plays M ranks per step and still measures every unit once; --phases 0 replays
// phase 0 alone; --no-noise makes no noise pairs, which the same run has without it (with
// --measurable 2, so that processes are left over for them); --mapping
// cyclic --ranks-per-node 4 places rank r on node r mod 16, which every measured message's
// link must follow. `p3s replay` passes them all on.
TEST(ReplayLogic, OptionsDoWhatTheySay) {
  const fs::path work = scratch_dir("replay_logic_options");
  model_app(work, kStencil);
  if (HasFatalFailure()) return;
  const fs::path slt = work / "app.slt";
  const CommandResult generated = run_command(
      {p3s_bin(), "generate", slt.string(), "-n", "64", "-o", (work / "st4np").string()});
  ASSERT_EQ(generated.exit_code, 0) << generated.output;
  const St4npText st4np = read_st4np_text(work / "st4np" / "st4np.txt");
  const auto run = [&](const std::string& name, const std::vector<std::string>& extra) {
    const fs::path json = work / (name + ".json");
    const CommandResult r = replay(slt, 64, 8, json, extra);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    std::ifstream in(json);
    return nlohmann::json::parse(in);
  };
  {
    SCOPED_TRACE("--measurable 2");
    const nlohmann::json j = run("measurable", {"--measurable", "2"});
    EXPECT_EQ(j.at("measurable"), 2);
    for (const auto& step : j.at("step_log")) EXPECT_EQ(step.at("ranks").size(), 2U);
    check_unit_records(j, st4np, j.at("measured_repetitions").get<int>());
  }
  {
    SCOPED_TRACE("--phases 0");
    const nlohmann::json j = run("phases", {"--phases", "0"});
    ASSERT_EQ(j.at("phases").size(), 1U);
    EXPECT_EQ(j.at("phases")[0].at("name"), st4np.phase_names.at(0));
    for (const auto& step : j.at("step_log")) EXPECT_EQ(step.at("phase"), 0);
  }
  {
    SCOPED_TRACE("--no-noise");  // with 2 measurable of 8, at most 2 black holes: 4 left over
    EXPECT_GT(run("noise", {"--measurable", "2"}).at("noise_pairs").get<int>(), 0);
    EXPECT_EQ(run("no-noise", {"--measurable", "2", "--no-noise"}).at("noise_pairs"), 0);
  }
  {
    SCOPED_TRACE("--mapping cyclic --ranks-per-node 4");
    const nlohmann::json j = run("cyclic", {"--mapping", "cyclic", "--ranks-per-node", "4"});
    EXPECT_EQ(j.at("mapping"), "cyclic");
    const auto& columns = j.at("messages").at("columns");
    const auto column = [&](const std::string& c) {
      return static_cast<std::size_t>(std::find(columns.begin(), columns.end(), c) -
                                      columns.begin());
    };
    ASSERT_FALSE(j.at("messages").at("rows").empty());
    for (const auto& m : j.at("messages").at("rows")) {
      const int rank = m[column("rank")], peer = m[column("peer")];
      const bool same_node = rank % 16 == peer % 16;  // 64 ranks, 4 per node: 16 nodes
      EXPECT_EQ(m[column("link")].get<std::string>(), same_node ? "node" : "network")
          << rank << " -> " << peer;
    }
  }
  {
    SCOPED_TRACE("p3s replay passes them on");
    const fs::path json = work / "cli.json";
    const CommandResult r = run_command(
        {"env",
         std::string("P3S_REPLAY_BIN=") + P3S_REPLAY_BIN,
         p3s_bin(),
         "replay",
         slt.string(),
         "-n",
         "64",
         "--launcher",
         std::string("timeout ") + kHangBound + " " + P3S_MPIRUN + " --oversubscribe -np 8",
         "-o",
         json.string(),
         "--compute",
         "none",
         "--measurable",
         "2",
         "--no-noise",
         "--phases",
         "0",
         "--mapping",
         "cyclic",
         "--ranks-per-node",
         "4"});
    ASSERT_EQ(r.exit_code, 0) << r.output;
    std::ifstream in(json);
    const nlohmann::json j = nlohmann::json::parse(in);
    EXPECT_EQ(j.at("measurable"), 2);
    EXPECT_EQ(j.at("noise_pairs"), 0);
    EXPECT_EQ(j.at("phases").size(), 1U);
    EXPECT_EQ(j.at("mapping"), "cyclic");
    EXPECT_EQ(j.at("ranks_per_node"), 4);
  }
}

}  // namespace
}  // namespace p3s::testing
