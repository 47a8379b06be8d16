// p3s calibrate: SimGrid SMPI's network and CPU model fitted to the calibration benchmark's
// measurements, written as a platform file (p3s platform's writer) with a report.
#include <fmt/core.h>
#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <filesystem>

#include "calibrate/calibration.hpp"
#include "calibrate/calibration_platform.hpp"
#include "calibrate/calibration_report.hpp"
#include "calibrate/measurements.hpp"
#include "cli/commands.hpp"
#include "cli/parse_options.hpp"
#include "report/report_files.hpp"
#include "sim/platform_spec.hpp"

namespace p3s::cli {
namespace {

namespace fs = std::filesystem;

// What the user wrote is replaced only when asked.
void refuse_overwrite(const fs::path& file, bool force) {
  if (fs::exists(file) && !force) {
    throw UsageError(fmt::format("{} exists; give --force to replace it", file.string()));
  }
}

}  // namespace

int run_calibrate(const Args& args) {
  namespace po = boost::program_options;
  std::vector<std::string> files;
  std::string out, report_dir, topology = "flat";
  calibrate::PlatformChoices choices;
  bool force = false;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help")("output,o", po::value(&out)->required(),
                                                 "platform file to write")(
      "hosts", po::value(&choices.hosts)->default_value(choices.hosts),
      "number of hosts (a topology may round it up)")(
      "cores-per-host", po::value(&choices.cores_per_host)->default_value(1), "cores of each host")(
      "topology", po::value(&topology)->default_value(topology),
      "flat, fat-tree, torus or dragonfly")(
      "report", po::value(&report_dir),
      "also write calibration.txt, calibration.json and calibration.svg here")(
      "network-as-same-node", po::bool_switch(&choices.network_as_same_node),
      "without cross-node measurements, give the network the same-node path's latency and "
      "bandwidth (this machine, larger) instead of p3s platform's default")(
      "force", po::bool_switch(&force), "replace the platform and report files if they exist");
  po::options_description hidden;
  hidden.add_options()("measurements", po::value(&files)->multitoken());
  po::positional_options_description pos;
  pos.add("measurements", -1);
  const auto parsed = parse_options(
      args, desc,
      "usage: p3s calibrate MEASUREMENTS... -o PLATFORM.xml [--hosts H] [--cores-per-host C]\n"
      "                     [--topology flat|fat-tree|torus|dragonfly] [--report DIR]\n\n"
      "Fits SimGrid SMPI's point-to-point model (latency and bandwidth of the network and of\n"
      "a host's loopback, smpi/bw-factor and smpi/lat-factor with breakpoints found by\n"
      "search, smpi/os, smpi/or, smpi/ois, the eager threshold) and the host speed to the\n"
      "output of p3s-calibrate-bench (calibrate/README.md), and writes a platform of H hosts\n"
      "with those values. Prints each parameter, the fit per size segment and what was not\n"
      "measured; exits 1 on measurements nothing can be fitted to. MEASUREMENTS may also be\n"
      "p3s-replay results (replay-N.json): beside the benchmark's output their messages are\n"
      "compared with the fit; alone, each link kind gets one latency and one bandwidth through\n"
      "the application's own message sizes (calibrate/README.md says what they cannot show).\n\n",
      pos, &hidden);
  if (!parsed) return 0;
  if (files.empty()) throw UsageError("no measurement file given");
  if (choices.hosts < 1) throw UsageError("--hosts must be at least 1");
  if (choices.cores_per_host < 1) throw UsageError("--cores-per-host must be at least 1");
  try {
    choices.topology = sim::topology_from_name(topology);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  refuse_overwrite(out, force);
  const fs::path dir(report_dir);
  if (!report_dir.empty()) {
    if (fs::exists(dir) && !fs::is_directory(dir)) {
      throw UsageError(fmt::format("--report {}: exists and is not a directory", report_dir));
    }
    for (const char* name : {"calibration.txt", "calibration.json", "calibration.svg"}) {
      refuse_overwrite(dir / name, force);
    }
  }

  std::vector<fs::path> paths(files.begin(), files.end());
  const calibrate::Measurements measurements = calibrate::read_measurements(paths);
  calibrate::Calibration calibration;
  try {
    calibration = calibrate::calibrate(measurements);
  } catch (const calibrate::CalibrationError& e) {
    fmt::print(stderr, "p3s calibrate: error: {}\n", e.what());
    return 1;
  }
  calibrate::ReportInput in;
  in.calibration = &calibration;
  in.measurements = &measurements;
  in.platform_file = out;
  sim::PlatformSpec spec = calibrate::calibrated_platform(calibration, choices, in.assumed);
  spec.comment = fmt::format(
      "Written by p3s calibrate from {} measurement file(s): {}. See the calibration report for "
      "the fit and for what was not measured.",
      files.size(), fmt::join(files, ", "));
  in.platform = &spec;
  sim::write_platform(spec, out);
  const std::string text = calibrate::calibration_text(in);
  fmt::print("{}", text);
  if (!report_dir.empty()) {
    fs::create_directories(dir);
    report::write_text(dir / "calibration.txt", text);
    report::write_text(dir / "calibration.json", calibrate::calibration_json(in).dump(2) + "\n");
    report::write_text(dir / "calibration.svg", calibrate::calibration_svg(in));
    fmt::print("report: {}/calibration.{{txt,json,svg}}\n", report_dir);
  }
  return 0;
}

}  // namespace p3s::cli
