#pragma once
// The directory a report command (p3s predict, p3s whatif) writes into: never one the user
// filled, unless asked (--force), and then only the command's own files are replaced.
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

}  // namespace p3s::cli
