#pragma once
// `p3s signature`'s work: every rank of a run directory through the phase analysis, a few
// ranks at a time, then related into one signature.
#include <filesystem>

#include "signature/phase_detector.hpp"
#include "signature/signature.hpp"

namespace p3s::signature {

struct AnalysisOptions {
  PhaseOptions phases;
  // Each worker holds one rank's trace at a time and keeps only its phase summary, so memory
  // grows with one rank's events per worker, not with the run.
  int workers = 2;
  // Strict by default; allow_truncated reads the ranks a killed job cut short (they are marked
  // truncated) instead of refusing the run.
  core::ReadOptions read;
};

// Throws core::FormatError for bad input (missing or malformed run.json or rank file), naming
// the file, the line and the rank.
Signature analyse_run(const std::filesystem::path& run_dir, const AnalysisOptions& options = {});

}  // namespace p3s::signature
