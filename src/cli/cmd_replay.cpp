// p3s replay: the Synthetic Signature (replay_mpi) for one N, launched on the real cluster by
// the launcher the user gives; prints the same per-phase table as `p3s simulate`, then what the
// replay itself was (processes, measurable, black holes, noise, steps, SynET).
#include <fmt/core.h>

#include <boost/program_options.hpp>
#include <filesystem>

#include "cli/commands.hpp"
#include "cli/instantiation_flags.hpp"
#include "cli/parse_options.hpp"
#include "cli/simulation_table.hpp"
#include "predict/replay_launch.hpp"

namespace p3s::cli {

int run_replay(const Args& args) {
  namespace po = boost::program_options;
  std::string slt, launcher, output, compute = "spin", mapping = "block", phases = "all";
  int nprocs = 0, measurable = 0, repetitions = 3;
  std::int64_t ranks_per_node = 1;
  bool force = false, no_noise = false;
  InstantiationFlags instantiation;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help")("slt", po::value(&slt)->required(),
                                                 "the model (app.slt)")(
      "nprocs,n", po::value(&nprocs)->required(), "process count N")(
      "launcher", po::value(&launcher)->required(),
      "how to start R processes, e.g. \"mpirun -np 16 --hostfile H\"")(
      "output,o", po::value(&output), "the result (p3s-replay 1 JSON; default replay-N.json)")(
      "force", po::bool_switch(&force), "replace an existing result")(
      "measurable", po::value(&measurable)->default_value(0),
      "measurable processes per step (0: N when N <= R, else R / 2)")(
      "ranks-per-node", po::value(&ranks_per_node)->default_value(1),
      "the application's ranks per node at N")(
      "mapping", po::value(&mapping)->default_value("block"), "block or cyclic, at N")(
      "phases", po::value(&phases)->default_value("all"), "phases to replay: all, or 0,2")(
      "repetitions", po::value(&repetitions)->default_value(3), "measured repetitions per step")(
      "compute", po::value(&compute)->default_value("spin"), "spin, sleep or none")(
      "no-noise", po::bool_switch(&no_noise), "no black-hole noise pairs");
  add_instantiation_flags(desc, instantiation);
  po::positional_options_description pos;
  pos.add("slt", 1);
  const auto parsed = parse_options(
      args, desc,
      "usage: p3s replay app.slt -n N --launcher \"mpirun -np R [...]\" [-o replay-N.json]\n"
      "                  [--ranks-per-node K] [--mapping block|cyclic] [--measurable M]\n"
      "                  [--phases all|1,3] [--repetitions 3] [--compute spin|sleep|none]\n"
      "                  [--partial] [--accept-ambiguous] [--carry-nearest]\n\n"
      "Replays the model at N ranks on the R processes the launcher starts (the Synthetic\n"
      "Signature, replay_mpi/): measurable processes play ranges of ranks in steps, black\n"
      "holes answer for the ranks a step did not load. PhaseET is the slowest rank's time per\n"
      "repetition, PET = sum of PhaseET x weight.\n\n",
      pos);
  if (!parsed) return 0;
  if (nprocs < 1) throw UsageError("-n must be at least 1");
  if (launcher.empty()) throw UsageError("--launcher is empty");
  if (output.empty()) output = fmt::format("replay-{}.json", nprocs);
  if (std::filesystem::exists(output) && !force) {
    throw UsageError(fmt::format("-o {}: exists; give --force to replace it", output));
  }
  predict::ReplayLaunch launch{launcher, slt, nprocs, output, {}};
  launch.extra = {"--ranks-per-node", std::to_string(ranks_per_node),
                  "--mapping",        mapping,
                  "--phases",         phases,
                  "--repetitions",    std::to_string(repetitions),
                  "--compute",        compute,
                  "--measurable",     std::to_string(measurable)};
  for (const auto& [set, flag] :
       {std::pair{force, "--force"}, std::pair{instantiation.carry_nearest, "--carry-nearest"},
        std::pair{instantiation.partial, "--partial"},
        std::pair{instantiation.accept_ambiguous, "--accept-ambiguous"},
        std::pair{no_noise, "--no-noise"}})
    if (set) launch.extra.push_back(flag);

  fmt::print("replaying {} at N = {} with: {}\n", slt, nprocs, launcher);
  const replay::ReplayResult r = predict::launch_replay(launch);
  std::vector<sim::PhaseTime> phases_out;
  for (const replay::PhaseResult& p : r.phases)
    phases_out.push_back(
        {p.name, p.weight, p.phase_et, {p.per_rank.min, p.per_rank.mean, p.per_rank.max}});
  print_phase_table(phases_out, r.pet, r.nprocs, r.repetitions);
  fmt::print(
      "Synthetic Signature: R = {} processes, M = {} measurable, {} black hole(s), {} noise "
      "pair(s), {} steps; SynET {:.3g} s; compute {}; {}\n",
      r.processes, r.measurable, r.black_holes, r.noise_pairs, r.steps, r.synet, r.compute,
      r.placement);
  for (const std::string& w : r.warnings) fmt::print("WARNING: {}\n", w);
  fmt::print("JSON written to {}\n", output);
  return 0;
}

}  // namespace p3s::cli
