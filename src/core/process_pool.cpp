#include "core/process_pool.hpp"

#include <fmt/core.h>
#include <poll.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <optional>
#include <stdexcept>

namespace p3s::core {
namespace {

constexpr char kDone = '+';
constexpr char kFailed = '!';

struct Child {
  std::size_t task = 0;
  pid_t pid = -1;
  int fd = -1;
  std::string received;
};

void write_all(int fd, const std::string& text) {
  std::size_t sent = 0;
  while (sent < text.size()) {
    const ssize_t w = ::write(fd, text.data() + sent, text.size() - sent);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;  // the parent is gone: nothing to tell
    sent += static_cast<std::size_t>(w);
  }
}

// In the child: the task's text after a status byte, then exit without the parent's atexit
// handlers and static destructors (SimGrid's among them), which belong to the parent.
[[noreturn]] void run_child(std::size_t i, int fd,
                            const std::function<std::string(std::size_t)>& task) {
  std::string message;
  try {
    message = kDone + task(i);
  } catch (const std::exception& e) {
    message = kFailed + std::string(e.what());
  } catch (...) {
    message = kFailed + std::string("unknown error");
  }
  write_all(fd, message);
  ::close(fd);
  std::fflush(nullptr);
  ::_exit(0);
}

Child start(std::size_t i, const std::function<std::string(std::size_t)>& task) {
  int fds[2];
  if (::pipe(fds) != 0) {
    throw std::runtime_error(
        fmt::format("cannot start task {}: pipe: {}", i, std::strerror(errno)));
  }
  std::fflush(nullptr);  // or the child would print what the parent has buffered again
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::runtime_error(
        fmt::format("cannot start task {}: fork: {}", i, std::strerror(errno)));
  }
  if (pid == 0) {
    ::close(fds[0]);
    run_child(i, fds[1], task);
  }
  ::close(fds[1]);
  return Child{i, pid, fds[0], {}};
}

// Reads what is there; true at the end of the child's text.
bool read_some(Child& child) {
  char buffer[65536];
  const ssize_t r = ::read(child.fd, buffer, sizeof buffer);
  if (r < 0 && errno == EINTR) return false;
  if (r <= 0) return true;
  child.received.append(buffer, static_cast<std::size_t>(r));
  return false;
}

// The child's text, or why it has none.
std::optional<std::string> finish(Child& child, std::vector<std::string>& results) {
  ::close(child.fd);
  int status = 0;
  while (::waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) {
    return fmt::format("task {} died of signal {} ({})", child.task, WTERMSIG(status),
                       strsignal(WTERMSIG(status)));
  }
  if (child.received.empty()) return fmt::format("task {} ended without a result", child.task);
  if (child.received.front() == kFailed) return child.received.substr(1);
  results[child.task] = child.received.substr(1);
  return std::nullopt;
}

}  // namespace

std::size_t available_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  const int count = CPU_COUNT(&set);
  return count > 0 ? static_cast<std::size_t>(count) : 1;
}

namespace {

// Waits until some child has more to say, then reads it; the children that ended are finished
// and dropped, and the first failure by task kept.
void serve(std::vector<Child>& running, std::vector<std::string>& results,
           std::optional<std::pair<std::size_t, std::string>>& failure) {
  std::vector<pollfd> fds;
  fds.reserve(running.size());
  for (const Child& c : running) fds.push_back({c.fd, POLLIN, 0});
  if (::poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR) {
    throw std::runtime_error(fmt::format("waiting for tasks: poll: {}", std::strerror(errno)));
  }
  for (std::size_t k = running.size(); k-- > 0;) {
    if (fds[k].revents == 0 || !read_some(running[k])) continue;
    if (auto why = finish(running[k], results)) {
      if (!failure || running[k].task < failure->first) failure = {running[k].task, *why};
    }
    running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
  }
}

}  // namespace

std::vector<std::string> run_in_processes(std::size_t count, std::size_t jobs,
                                          const std::function<std::string(std::size_t)>& task) {
  std::vector<std::string> results(count);
  if (jobs <= 1 || count <= 1) {
    for (std::size_t i = 0; i < count; ++i) results[i] = task(i);
    return results;
  }
  std::vector<Child> running;
  std::optional<std::pair<std::size_t, std::string>> failure;  // the first by task
  std::size_t next = 0;
  // After a failure no task starts; those running are waited for.
  while ((next < count && !failure) || !running.empty()) {
    while (next < count && running.size() < jobs && !failure)
      running.push_back(start(next++, task));
    serve(running, results, failure);
  }
  if (failure) throw std::runtime_error(failure->second);
  return results;
}

}  // namespace p3s::core
