#pragma once
// The directory a report command (p3s predict, p3s whatif) writes into: never one the user
// filled, unless asked (--force), and then only the command's own files are replaced.
#include <chrono>
#include <filesystem>
#include <functional>
#include <string>

namespace p3s::cli {

// Throws UsageError when `dir` is a file, or a non-empty directory and `force` is not given.
// Called before the long work, so that a refusal comes at once.
void check_report_dir(const std::filesystem::path& dir, bool force);

// Checks again, creates the directory, and with `force` removes the files in it whose name
// `own` recognises (the command's earlier report); every other file stays.
void prepare_report_dir(const std::filesystem::path& dir, bool force,
                        const std::function<bool(const std::string& name)>& own);

// A report's renderings, written as DIR/STEM.txt, .csv, .json and DIR/PICTURE.
struct ReportTexts {
  std::string table, csv, json, svg;
};

// Writes them, prints the table, then where the files are and how long it took since `started`.
void write_report(const std::filesystem::path& dir, const std::string& stem,
                  const std::string& picture, const ReportTexts& texts,
                  std::chrono::steady_clock::time_point started);

}  // namespace p3s::cli
