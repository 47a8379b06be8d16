#include "replay_mpi/replay_options.hpp"

#include <boost/program_options.hpp>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/option_arguments.hpp"
#include "core/rank_list.hpp"

namespace p3s::replay {

std::optional<ReplayOptions> parse_replay_options(int argc, char** argv, bool print) {
  namespace po = boost::program_options;
  ReplayOptions o;
  std::string mapping = "block", phases = "all", compute = "spin";
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help")("input", po::value(&o.input),
                                                 "the model (app.slt) or an ST4NP (st4np.txt)")(
      "nprocs,n", po::value(&o.nprocs), "process count N of the ST4NP")(
      "measurable", po::value(&o.measurable),
      "measurable processes per step (default: N when N <= R, else R / 2)")(
      "ranks-per-node", po::value(&o.ranks_per_node)->default_value(1),
      "the application's ranks per node at N")("mapping",
                                               po::value(&mapping)->default_value("block"),
                                               "the application's mapping at N: block or cyclic")(
      "phases", po::value(&phases)->default_value("all"), "phases to replay: all, or 0,2")(
      "repetitions", po::value(&o.repetitions)->default_value(3),
      "measured repetitions per step (after the warm-up ones: one, or with black holes as many as "
      "the step loads ranks, at most 16)")("compute", po::value(&compute)->default_value("spin"),
                                           "compute emulation: spin, sleep or none")(
      "output,o", po::value(&o.output), "JSON result (default replay-N.json)")(
      "force", po::bool_switch(&o.force), "replace an existing output file")(
      "no-noise", "no black-hole noise pairs")("noise-cap",
                                               po::value(&o.noise_cap)->default_value(256),
                                               "noise messages per pair and repetition, at most")(
      "no-messages", "leave the measured messages out of the JSON")(
      "record-units",
      "write every measurement unit the run measured (phase, rank, call, unit, step, how many "
      "repetitions timed it, its mean time) into the JSON: what checks that each was measured "
      "once")("carry-nearest", po::bool_switch(&o.carry_nearest),
              "carry the largest run's pattern for phases that are not modelled")(
      "partial", po::bool_switch(&o.partial),
      "leave out what cannot be instantiated at N (named, with its share of the largest "
      "training run) instead of refusing N")(
      "accept-ambiguous", po::bool_switch(&o.accept_ambiguous),
      "use the model's chosen rules where the training runs leave peers undecided at N");
  po::positional_options_description pos;
  pos.add("input", 1);
  po::variables_map vm;
  core::refuse_option_parser_placeholders(std::vector<std::string>(argv + 1, argv + argc));
  try {
    po::store(po::command_line_parser(argc, argv).options(desc).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw std::invalid_argument(e.what());
  }
  if (vm.count("help")) {
    if (print) {
      std::cout << "usage: mpirun -np R p3s-replay app.slt|st4np.txt -n N [--measurable M]\n"
                   "         [--ranks-per-node K] [--mapping block|cyclic] [--phases all|1,3]\n"
                   "         [--repetitions 3] [--compute spin|sleep|none] [-o replay-N.json]\n\n"
                   "Replays the model instantiated at N ranks on the R launched processes (the\n"
                   "Synthetic Signature): M of them play ranks in steps until every event has\n"
                   "been measured once, black holes stand in for the ranks a step did not load,\n"
                   "noise pairs keep the network as busy. PET = sum of PhaseET x weight.\n\n"
                << desc << "\n";
    }
    return std::nullopt;
  }
  if (o.input.empty())
    throw std::invalid_argument("give the model (app.slt) or ST4NP (st4np.txt) to replay");
  if (o.nprocs < 1) throw std::invalid_argument("-n N: give the process count, at least 1");
  if (o.ranks_per_node < 1) throw std::invalid_argument("--ranks-per-node must be at least 1");
  if (o.repetitions < 1) throw std::invalid_argument("--repetitions must be at least 1");
  if (o.measurable < 0) throw std::invalid_argument("--measurable cannot be negative");
  if (o.noise_cap < 0) throw std::invalid_argument("--noise-cap cannot be negative");
  o.mapping = core::mapping_from_name(mapping);
  o.compute = compute_mode_from_name(compute);
  if (phases != "all") {
    for (const std::int32_t p : core::parse_rank_list(phases)) o.phases.push_back(p);
  }
  o.noise = vm.count("no-noise") == 0;
  o.messages = vm.count("no-messages") == 0;
  o.units = vm.count("record-units") != 0;
  if (o.output.empty()) o.output = "replay-" + std::to_string(o.nprocs) + ".json";
  return o;
}

}  // namespace p3s::replay
