#include "core/process_pool.hpp"

#include <fmt/core.h>
#include <poll.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <optional>
#include <stdexcept>
#include <utility>

namespace p3s::core {
namespace {

// The first byte a child sends says whether its work returned or threw.
constexpr char kReturned = 'R';
constexpr char kThrew = 'E';

std::string system_error(const char* what) {
  return fmt::format("{}: {}", what, std::strerror(errno));
}

void write_all(int fd, const std::string& data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the parent is gone: nobody to tell
    done += static_cast<std::size_t>(n);
  }
}

// In the child: the work's text after its status byte, then exit without the parent's atexit
// handlers and static destructors (SimGrid's among them): tearing down a large simulation only
// costs time, and they belong to the parent.
[[noreturn]] void run_child(int fd, const std::function<std::string()>& work) {
  std::string message;
  try {
    message = kReturned + work();
  } catch (const std::exception& e) {
    message = kThrew + std::string(e.what());
  } catch (...) {
    message = kThrew + std::string("unknown error");
  }
  write_all(fd, message);
  ::close(fd);
  std::fflush(nullptr);
  std::_Exit(0);
}

struct Child {
  pid_t pid = -1;
  int fd = -1;
  std::string received;
  std::size_t task = 0;
};

Child start(const std::function<std::string()>& work) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(system_error("pipe"));
  std::fflush(nullptr);  // or the child would print what the parent has buffered again
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::runtime_error(system_error("fork"));
  }
  if (pid == 0) {
    ::close(fds[0]);
    run_child(fds[1], work);
  }
  ::close(fds[1]);
  return Child{pid, fds[0], {}, 0};
}

// Reads what is there; true at the end of the child's text (or when it cannot be read).
bool read_some(Child& child) {
  char buffer[1 << 16];
  const ssize_t n = ::read(child.fd, buffer, sizeof buffer);
  if (n < 0 && errno == EINTR) return false;
  if (n <= 0) return true;
  child.received.append(buffer, static_cast<std::size_t>(n));
  return false;
}

// Closes the pipe, waits for the child, and gives what its work returned; throws why not.
ChildOutput finish(Child& child, const std::string& what, const std::string& hint) {
  ::close(child.fd);
  int status = 0;
  rusage usage{};
  while (::wait4(child.pid, &status, 0, &usage) < 0) {
    if (errno != EINTR) throw std::runtime_error(system_error("waiting for a child process"));
  }
  const std::string note = hint.empty() ? "" : "; " + hint;
  if (WIFSIGNALED(status)) {
    throw std::runtime_error(fmt::format("{} was killed by signal {} ({}){}", what,
                                         WTERMSIG(status), strsignal(WTERMSIG(status)), note));
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || child.received.empty()) {
    throw std::runtime_error(fmt::format("{} stopped with exit status {} and no result{}", what,
                                         WEXITSTATUS(status), note));
  }
  if (child.received.front() == kThrew) throw std::runtime_error(child.received.substr(1));
  return {child.received.substr(1), static_cast<std::int64_t>(usage.ru_maxrss)};
}

using Failure = std::optional<std::pair<std::size_t, std::string>>;  // the first by task

// Waits until some child has more to say, then reads it; the children that ended are finished
// and dropped, and the first failure by task kept.
void serve(std::vector<Child>& running, std::vector<std::string>& results, Failure& failure) {
  std::vector<pollfd> fds;
  fds.reserve(running.size());
  for (const Child& c : running) fds.push_back({c.fd, POLLIN, 0});
  if (::poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR) {
    throw std::runtime_error(system_error("waiting for tasks: poll"));
  }
  for (std::size_t k = running.size(); k-- > 0;) {
    if (fds[k].revents == 0 || !read_some(running[k])) continue;
    Child& child = running[k];
    try {
      results[child.task] = finish(child, fmt::format("task {}", child.task), "").result;
    } catch (const std::runtime_error& e) {
      if (!failure || child.task < failure->first) failure = {child.task, e.what()};
    }
    running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
  }
}

}  // namespace

std::size_t available_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  const int count = CPU_COUNT(&set);
  return count > 0 ? static_cast<std::size_t>(count) : 1;
}

ChildOutput run_in_child(const std::function<std::string()>& work, const std::string& what,
                         const std::string& hint) {
  Child child = start(work);
  while (!read_some(child)) {
  }
  return finish(child, what, hint);
}

std::vector<std::string> run_in_processes(std::size_t count, std::size_t jobs,
                                          const std::function<std::string(std::size_t)>& task) {
  std::vector<std::string> results(count);
  if (jobs <= 1 || count <= 1) {
    for (std::size_t i = 0; i < count; ++i) results[i] = task(i);
    return results;
  }
  std::vector<Child> running;
  Failure failure;
  std::size_t next = 0;
  while ((next < count && !failure) || !running.empty()) {
    while (next < count && running.size() < jobs && !failure) {
      const std::size_t i = next++;
      running.push_back(start([&task, i] { return task(i); }));
      running.back().task = i;
    }
    serve(running, results, failure);
  }
  if (failure) throw std::runtime_error(failure->second);
  return results;
}

}  // namespace p3s::core
