#include "integration/interval_coverage.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "integration/run_helpers.hpp"

namespace p3s::testing {

namespace fs = std::filesystem;

void cover(const CoverageCase& c, const SmpiCompute& compute, std::vector<CoveragePoint>& out) {
  std::string name = c.app;
  for (const std::string& a : c.args) name += "-" + a;
  SCOPED_TRACE(name);
  const fs::path dir = scratch_dir("interval-coverage-" + name);
  SmpiTraining t;
  train_from_smpi(dir, c.app, c.args, c.training, t, compute);
  if (::testing::Test::HasFatalFailure()) return;
  std::map<std::int64_t, double> truth;
  std::string targets;
  for (const int n : c.held_out) {
    const CommandResult r =
        smpirun_truth(dir / ("truth" + std::to_string(n)), n, c.app, c.args, compute);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const std::optional<double> t_n = smpi_simulated_time(r.output);
    ASSERT_TRUE(t_n) << r.output;
    truth[n] = *t_n;
    targets += (targets.empty() ? "" : ",") + std::to_string(n);
  }
  const fs::path report = dir / "report";
  std::vector<std::string> argv = {p3s_bin(), "predict", "--runs"};
  argv.insert(argv.end(), t.runs.begin(), t.runs.end());
  argv.insert(argv.end(), {"--targets", targets, "--platform", default_platform(), "-o",
                           report.string(), "--force"});
  const CommandResult r = run_command(argv);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(report / "prediction.json");
  const nlohmann::json j = nlohmann::json::parse(in);
  for (const auto& [n, t_n] : truth) {
    const auto pt = std::find_if(j.at("points").begin(), j.at("points").end(),
                                 [n = n](const nlohmann::json& p) { return p.at("n") == n; });
    ASSERT_NE(pt, j.at("points").end()) << "N = " << n << " not predicted:\n" << r.output;
    ASSERT_TRUE(pt->contains("pet_low_seconds")) << "N = " << n << " has no interval:\n"
                                                 << r.output;
    out.push_back({name, n, t_n, pt->at("pet_seconds").get<double>(),
                   pt->at("pet_low_seconds").get<double>(),
                   pt->at("pet_high_seconds").get<double>()});
  }
}

double median_width_pct(const std::vector<CoveragePoint>& points) {
  std::vector<double> widths;
  for (const CoveragePoint& p : points) widths.push_back(p.width_pct());
  if (widths.empty()) return 0;
  std::sort(widths.begin(), widths.end());
  const std::size_t m = widths.size() / 2;
  return widths.size() % 2 ? widths[m] : (widths[m - 1] + widths[m]) / 2;
}

double print_coverage(const std::vector<CoveragePoint>& points, double level) {
  std::map<std::string, std::vector<CoveragePoint>> by_app;
  int inside = 0;
  for (const CoveragePoint& p : points) {
    std::printf(
        "%-22s N=%-5lld truth %.6g PET %.6g (%+6.1f %%) interval [%+6.1f %%, %+6.1f %%], width "
        "%5.1f %%: %s\n",
        p.name.c_str(), static_cast<long long>(p.n), p.truth, p.pet,
        100 * (p.pet - p.truth) / p.truth, 100 * (p.low - p.pet) / p.pet,
        100 * (p.high - p.pet) / p.pet, p.width_pct(), p.inside() ? "inside" : "OUTSIDE");
    by_app[p.name].push_back(p);
    inside += p.inside() ? 1 : 0;
  }
  std::printf("\n%-22s %-14s %5s %10s %13s\n", "app", "N", "level", "coverage", "median width");
  for (const auto& [name, app] : by_app) {
    std::string counts;
    int in = 0;
    for (const CoveragePoint& p : app) {
      counts += (counts.empty() ? "" : ",") + std::to_string(p.n);
      in += p.inside() ? 1 : 0;
    }
    std::printf("%-22s %-14s %4.0f%% %6d of %d %12.1f%%\n", name.c_str(), counts.c_str(),
                100 * level, in, static_cast<int>(app.size()), median_width_pct(app));
  }
  std::printf("%-22s %-14s %4.0f%% %6d of %d %12.1f%%\n", "all", "", 100 * level, inside,
              static_cast<int>(points.size()), median_width_pct(points));
  return points.empty() ? 0 : static_cast<double>(inside) / static_cast<double>(points.size());
}

}  // namespace p3s::testing
