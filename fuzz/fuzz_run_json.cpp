// run.json: parse; on success the description must write back to the same description.
#include "core/format_error.hpp"
#include "core/run_dir.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace p3s;
  core::RunInfo info;
  try {
    info = core::parse_run_info(std::string(fuzz::as_text(data, size)), "run.json");
  } catch (const core::FormatError&) {
    return 0;
  }
  try {
    if (core::parse_run_info(core::run_info_text(info), "rewritten") != info) {
      fuzz::broken("an accepted run.json reads back different");
    }
  } catch (const core::FormatError& e) {
    fuzz::broken(std::string("an accepted run.json does not read back: ") + e.what());
  }
  return 0;
}
