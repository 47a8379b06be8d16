#include "trace/hardware_counters.hpp"

#include <papi.h>

#include <initializer_list>

namespace p3s::trace {
namespace {

struct Candidate {
  int code;
  const char* name;
};

// Each slot takes the first of its candidates the machine has.
const std::initializer_list<Candidate> kInstructions = {{PAPI_TOT_INS, "PAPI_TOT_INS"}};
const std::initializer_list<Candidate> kCycles = {{PAPI_TOT_CYC, "PAPI_TOT_CYC"}};
const std::initializer_list<Candidate> kCacheMisses = {{PAPI_L2_TCM, "PAPI_L2_TCM"},
                                                       {PAPI_L3_TCM, "PAPI_L3_TCM"}};

void destroy(int& event_set) {
  PAPI_cleanup_eventset(event_set);
  PAPI_destroy_eventset(&event_set);
}

}  // namespace

bool HardwareCounters::start() {
  if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) return false;
  int event_set = PAPI_NULL;
  if (PAPI_create_eventset(&event_set) != PAPI_OK) return false;
  for (const auto& slot : {kInstructions, kCycles, kCacheMisses}) {
    for (const Candidate& candidate : slot) {
      if (PAPI_query_event(candidate.code) == PAPI_OK &&
          PAPI_add_event(event_set, candidate.code) == PAPI_OK) {
        names_.emplace_back(candidate.name);
        break;
      }
    }
  }
  if (names_.empty() || PAPI_start(event_set) != PAPI_OK) {
    names_.clear();
    destroy(event_set);
    return false;
  }
  event_set_ = event_set;
  return true;
}

void HardwareCounters::read(Values& values) const {
  if (event_set_ == PAPI_NULL) return;
  // A failed read keeps the previous totals, so that burst reads as zero rather than garbage.
  Values now = values;
  if (PAPI_read(event_set_, now.data()) == PAPI_OK) values = now;
}

}  // namespace p3s::trace
