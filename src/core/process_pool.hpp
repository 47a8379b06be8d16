#pragma once
// Independent tasks run side by side in child processes (fork), at most `jobs` at a time: each
// child runs one task and sends back the text it returns. SimGrid keeps one engine per process,
// so simulations cannot share a process's threads; a child of its own gives each a fresh one.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace p3s::core {

// The cores this process may run on (its CPU affinity), at least 1.
std::size_t available_cores();

// task(i) for every i in [0, count), at most `jobs` at once, each in a child process; the texts
// they returned, by i. With jobs <= 1 or one task, the tasks run here, one after another. A
// task that throws, or a child that dies, throws std::runtime_error naming the task (the first
// by i), once every child has ended.
std::vector<std::string> run_in_processes(std::size_t count, std::size_t jobs,
                                          const std::function<std::string(std::size_t)>& task);

}  // namespace p3s::core
