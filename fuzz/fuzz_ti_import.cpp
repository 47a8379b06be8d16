// SimGrid TI traces: the input is a list then its rank files, separated by NUL bytes (files
// r1.txt, r2.txt, ... in a scratch directory). On success every imported rank must be a trace
// the strict reader takes, and run.json must read back.
#include <fstream>

#include "core/format_error.hpp"
#include "core/run_dir.hpp"
#include "core/trace_format.hpp"
#include "fuzz_input.hpp"
#include "ti/ti_import.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace p3s;
  namespace fs = std::filesystem;
  const std::vector<std::string> parts = fuzz::split_parts(fuzz::as_text(data, size), 65);
  const fs::path dir = fuzz::scratch_dir();
  for (std::size_t i = 0; i < parts.size(); ++i) {
    std::ofstream(dir / (i == 0 ? std::string("trace.txt") : "r" + std::to_string(i) + ".txt"),
                  std::ios::binary)
        << parts[i];
  }
  ti::TiImport import;
  try {
    import = ti::import_ti(dir / "trace.txt", {20000, std::nullopt, dir});
  } catch (const core::FormatError&) {
    return 0;
  }
  for (const core::RankTrace& rank : import.ranks) {
    try {
      core::parse_rank_trace(core::rank_trace_text(rank), "imported rank");
    } catch (const core::FormatError& e) {
      fuzz::broken(std::string("an imported rank does not read back: ") + e.what());
    }
  }
  try {
    core::parse_run_info(core::run_info_text(import.info), "imported run.json");
  } catch (const core::FormatError& e) {
    fuzz::broken(std::string("an imported run.json does not read back: ") + e.what());
  }
  return 0;
}
