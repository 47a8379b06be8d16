#pragma once
// Work run in forked child processes, its results handed back through pipes. SimGrid keeps
// process-wide state that cannot be reset (one engine per process), so every simulation gets a
// fresh process, a simulation that aborts takes down only its child, and simulations run side
// by side in children of their own rather than in threads.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace p3s::core {

// The cores this process may run on (its CPU affinity), at least 1.
std::size_t available_cores();

struct ChildOutput {
  std::string result;             // what the work returned
  std::int64_t peak_rss_kib = 0;  // the child's largest resident size
};

// `work` in one child. An exception it throws is rethrown here as std::runtime_error with its
// message; a child that dies is reported as "`what` was killed by signal N (name)" or stopped
// with its exit status, followed by "; `hint`" when one is given.
ChildOutput run_in_child(const std::function<std::string()>& work, const std::string& what,
                         const std::string& hint = "");

// task(i) for every i in [0, count), at most `jobs` at once, each in a child process; the texts
// they returned, by i. With jobs <= 1 or one task, the tasks run here, one after another. A
// task that throws, or a child that dies ("task i was killed by signal N"), throws
// std::runtime_error for the first such task by i, once every child started has ended; no task
// starts after one failed.
std::vector<std::string> run_in_processes(std::size_t count, std::size_t jobs,
                                          const std::function<std::string(std::size_t)>& task);

}  // namespace p3s::core
