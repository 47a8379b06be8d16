#pragma once
// Runs a piece of work in a forked child process and hands back its result. SimGrid keeps
// process-wide state that cannot be reset (one engine per process), so every simulation gets a
// fresh process, and a simulation that aborts takes down only its child.
#include <cstdint>
#include <functional>
#include <string>

namespace p3s::sim {

struct ChildOutput {
  std::string result;             // what the work returned
  std::int64_t peak_rss_kib = 0;  // the child's largest resident size
};

// An exception `work` throws is rethrown here as std::runtime_error with its message; a child
// that dies (SimGrid aborts on bad input) is reported with its exit status or signal.
ChildOutput run_in_child(const std::function<std::string()>& work);

}  // namespace p3s::sim
