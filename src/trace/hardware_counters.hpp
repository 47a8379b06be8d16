#pragma once
// Hardware counters of the compute bursts, through PAPI, where the machine exposes them.
#include <array>
#include <string>
#include <vector>

#include "core/event.hpp"

namespace p3s::trace {

class HardwareCounters {
 public:
  using Values = std::array<long long, core::kCounterSlots>;

  // Starts counting, on the calling thread, those of instructions, cycles and a cache-miss
  // counter that PAPI offers here. False when it offers none (virtual machines): then the
  // trace has no counter columns and compute is measured as thread CPU time only.
  bool start();
  // PAPI names of the counters being counted, in the order read() reports them.
  const std::vector<std::string>& names() const { return names_; }
  int count() const { return static_cast<int>(names_.size()); }
  // Totals since start(); only the first count() values are set.
  void read(Values& values) const;

 private:
  int event_set_ = -1;  // PAPI_NULL
  std::vector<std::string> names_;
};

}  // namespace p3s::trace
