// A rank trace (rank-NNNNN.p3st): strict parse, lenient parse, and on success the trace must
// write back to text that parses to the same trace, and the phase analysis must take it.
#include "core/format_error.hpp"
#include "core/trace_format.hpp"
#include "fuzz_input.hpp"
#include "signature/phase_detector.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace p3s;
  const std::string_view text = fuzz::as_text(data, size);
  for (const bool lenient : {false, true}) {
    core::RankTrace trace;
    try {
      trace = core::parse_rank_trace(text, "fuzz.p3st", {.allow_truncated = lenient});
    } catch (const core::FormatError&) {
      continue;  // a clean refusal
    }
    // What was accepted is a trace p3s itself could have written.
    const std::string again = core::rank_trace_text(trace);
    core::RankTrace back;
    try {
      back = core::parse_rank_trace(again, "rewritten", {.allow_truncated = true});
    } catch (const core::FormatError& e) {
      fuzz::broken(std::string("an accepted trace does not read back: ") + e.what());
    }
    if (back.events != trace.events || back.comms != trace.comms) {
      fuzz::broken("an accepted trace reads back different");
    }
    signature::detect_phases(trace);
  }
  return 0;
}
