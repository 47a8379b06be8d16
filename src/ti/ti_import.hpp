#pragma once
// `p3s trace import-ti`: the time-independent traces that SimGrid's `smpirun -trace-ti` writes,
// as a p3s run directory, so that runs simulated under SMPI are analysed like traced ones.
#include <filesystem>
#include <optional>
#include <vector>

#include "core/event.hpp"
#include "core/run_dir.hpp"

namespace p3s::ti {

struct TiImportOptions {
  double flops_per_second = 0;  // host speed turning TI compute (flops) into CPU time; > 0
  std::optional<core::Workload> workload;
  std::filesystem::path cwd;  // where a relative list entry is also looked for
};

// A TI trace read and converted in full, ready to be written.
struct TiImport {
  core::RunInfo info;
  std::vector<core::RankTrace> ranks;
  bool shared_file = false;  // SMPI wrote every rank into one file (ti-one-file)
};

// Reads LIST and its rank files and converts every rank; nothing is written, so a trace that
// turns out bad halfway leaves no half-made run directory. Throws FormatError on bad input.
TiImport import_ti(const std::filesystem::path& list, const TiImportOptions& options);

// Writes the rank traces and run.json into `run_dir`, which must exist.
void write_ti_import(const std::filesystem::path& run_dir, const TiImport& import);

}  // namespace p3s::ti
