// app.slt: parse; on success the model must write back to a file that reads again, and
// instantiating it at small N (every option) must either refuse N (std::domain_error, as
// documented) or give every rank events whose peers are ranks, which the consistency check
// then judges.
#include <stdexcept>

#include "core/format_error.hpp"
#include "fuzz_input.hpp"
#include "model/slt_json.hpp"
#include "model/slt_scaled_trace.hpp"
#include "model/trace_consistency.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace p3s;
  using nlohmann::json;
  model::Slt slt;
  try {
    const json j = json::parse(fuzz::as_text(data, size));
    slt = model::slt_from_json(j, "app.slt");
  } catch (const json::exception&) {
    return 0;  // not JSON (a parse error, or a number no double holds)
  } catch (const core::FormatError&) {
    return 0;
  }
  try {
    const json again = json::parse(model::slt_to_json(slt).dump());
    model::slt_from_json(again, "rewritten");
  } catch (const std::exception& e) {
    fuzz::broken(std::string("an accepted SLT does not read back: ") + e.what());
  }
  for (const int n : {1, 2, 3, 4, 8, 9, 16}) {
    for (const bool carry : {false, true}) {
      std::optional<model::SltScaledTrace> trace;
      try {
        trace.emplace(slt, n,
                      model::InstantiateOptions{.carry_nearest = carry, .omit_unavailable = carry});
      } catch (const std::domain_error&) {
        continue;
      }
      std::vector<core::Event> events;
      for (int p = 0; p < static_cast<int>(trace->phases().size()); ++p) {
        for (int r = 0; r < n; ++r) {
          events.clear();
          trace->phase_events(p, r, events);
          // A model the reader accepted has at most a few thousand events per repetition here.
          if (events.size() > (std::size_t{1} << 20)) fuzz::broken("runaway event count");
          for (const core::Event& e : events) {
            for (const std::int32_t peer : {e.dst, e.src, e.root}) {
              if (peer < core::kNone || peer >= n) {
                fuzz::broken("an instantiated event names a peer outside the ranks");
              }
            }
            if (e.bytes < 0 || e.rbytes < 0 || e.burst_cpu < 0) {
              fuzz::broken("negative bytes or compute in an instantiated event");
            }
          }
        }
      }
      model::check_consistency(*trace);
    }
  }
  return 0;
}
