#include "cli/simulation_setup.hpp"

#include <fmt/core.h>

#include <boost/program_options.hpp>
#include <cmath>
#include <filesystem>

#include "cli/commands.hpp"

namespace p3s::cli {

void add_simulation_flags(boost::program_options::options_description& desc,
                          SimulationFlags& flags) {
  namespace po = boost::program_options;
  desc.add_options()("platform", po::value(&flags.platform)->required(),
                     "SimGrid platform file (see simgrid_platforms/)")(
      "cpu-speedup", po::value(&flags.cpu_speedup)->default_value(1.0),
      "divide the traced machine's compute times by this");
  add_engine_flags(desc, flags);
}

void add_engine_flags(boost::program_options::options_description& desc, SimulationFlags& flags) {
  namespace po = boost::program_options;
  desc.add_options()("ranks-per-host", po::value(&flags.ranks_per_host)->default_value(1),
                     "ranks on each host")("mapping",
                                           po::value(&flags.mapping)->default_value("block"),
                                           "block (rank r on host r/k) or cyclic (host r % hosts)")(
      "hostfile", po::value(&flags.hostfile), "host names in placement order, one per line")(
      "cfg", po::value(&flags.cfg)->composing(), "a SimGrid setting KEY:VALUE (repeatable)")(
      "log", po::value(&flags.log)->composing(), "a SimGrid log setting (repeatable)")(
      "full", po::bool_switch(&flags.full), "simulate the whole phase sequence with its weights")(
      "repetitions", po::value(&flags.repetitions)->default_value(3),
      "measured repetitions of each phase (per-phase mode)")(
      "smpi-collectives", po::bool_switch(&flags.smpi_collectives),
      "run every collective in SMPI instead of p3s's rebuilt default algorithms")(
      "engine", po::value(&flags.engine)->default_value("simgrid"),
      "simgrid (one SMPI process per rank) or fluid (one event loop, the same network model "
      "with max-min settled around each change; far cheaper at large N; p3s's rebuilt "
      "collectives only)");
}

sim::SimOptions simulation_options(const SimulationFlags& flags) {
  sim::SimOptions o;
  if (!std::filesystem::is_regular_file(flags.platform)) {
    throw UsageError(fmt::format("--platform: no file '{}'", flags.platform));
  }
  o.platform = flags.platform;
  if (!flags.hostfile.empty() && !std::filesystem::is_regular_file(flags.hostfile)) {
    throw UsageError(fmt::format("--hostfile: no file '{}'", flags.hostfile));
  }
  o.hostfile = flags.hostfile;
  if (flags.ranks_per_host < 1) throw UsageError("--ranks-per-host must be at least 1");
  o.ranks_per_host = flags.ranks_per_host;
  try {
    o.mapping = sim::mapping_from_name(flags.mapping);
  } catch (const std::invalid_argument&) {
    throw UsageError(fmt::format("--mapping '{}' is neither block nor cyclic", flags.mapping));
  }
  if (!(flags.cpu_speedup > 0) || !std::isfinite(flags.cpu_speedup)) {
    throw UsageError("--cpu-speedup must be a positive number");
  }
  o.cpu_speedup = flags.cpu_speedup;
  o.mode = flags.full ? sim::SimMode::Full : sim::SimMode::PerPhase;
  if (flags.repetitions < 1) throw UsageError("--repetitions must be at least 1");
  o.measured_repetitions = flags.repetitions;
  o.native_collectives = !flags.smpi_collectives;
  try {
    o.engine = sim::engine_from_name(flags.engine);
  } catch (const std::invalid_argument&) {
    throw UsageError(fmt::format("--engine '{}' is neither simgrid nor fluid", flags.engine));
  }
  if (o.engine == sim::SimEngine::Fluid && flags.smpi_collectives) {
    throw UsageError(
        "--engine fluid runs p3s's own collectives: it cannot take --smpi-collectives");
  }
  constexpr std::string_view kEager = "smpi/send-is-detached-thresh:";
  for (const std::string& c : flags.cfg) {
    if (c.find(':') == std::string::npos) {
      throw UsageError(fmt::format("--cfg '{}' is not KEY:VALUE", c));
    }
    if (c.rfind(kEager, 0) == 0) {
      try {
        o.eager_threshold = std::stoll(c.substr(kEager.size()));
      } catch (const std::logic_error&) {
        throw UsageError(fmt::format("--cfg '{}': the threshold is not a byte count", c));
      }
      if (*o.eager_threshold < 0) throw UsageError(fmt::format("--cfg '{}' is negative", c));
      continue;  // p3s applies it to its own messages; SMPI's detached sends stay off
    }
    o.simgrid_args.push_back("--cfg=" + c);
  }
  for (const std::string& l : flags.log) o.simgrid_args.push_back("--log=" + l);
  return o;
}

}  // namespace p3s::cli
