#include "cli/report_dir.hpp"

#include <fmt/core.h>

#include <vector>

#include "cli/commands.hpp"
#include "report/report_files.hpp"

namespace p3s::cli {

namespace fs = std::filesystem;

void check_report_dir(const fs::path& dir, bool force) {
  if (fs::exists(dir) && !fs::is_directory(dir)) {
    throw UsageError(fmt::format("-o {}: exists and is not a directory", dir.string()));
  }
  if (fs::exists(dir) && !fs::is_empty(dir) && !force) {
    throw UsageError(
        fmt::format("-o {}: the directory is not empty; give --force to replace the report in it",
                    dir.string()));
  }
}

void prepare_report_dir(const fs::path& dir, bool force,
                        const std::function<bool(const std::string& name)>& own) {
  check_report_dir(dir, force);
  fs::create_directories(dir);
  if (!force) return;
  std::vector<fs::path> old;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.is_regular_file() && own(entry.path().filename().string())) old.push_back(entry);
  }
  for (const fs::path& file : old) fs::remove(file);
}

void write_report(const fs::path& dir, const std::string& stem, const std::string& picture,
                  const ReportTexts& texts, std::chrono::steady_clock::time_point started) {
  report::write_text(dir / (stem + ".txt"), texts.table);
  report::write_text(dir / (stem + ".csv"), texts.csv);
  report::write_text(dir / (stem + ".json"), texts.json);
  report::write_text(dir / picture, texts.svg);
  fmt::print("\n{}\n", texts.table);
  fmt::print("report: {}/{}.{{txt,csv,json}}   picture: {}   ({:.0f} s)\n", dir.string(), stem,
             (dir / picture).string(),
             std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
}

}  // namespace p3s::cli
