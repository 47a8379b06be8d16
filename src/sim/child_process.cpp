#include "sim/child_process.hpp"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <stdexcept>

namespace p3s::sim {
namespace {

// The first byte the child sends says whether `work` returned or threw.
constexpr char kReturned = 'R';
constexpr char kThrew = 'E';

std::string system_error(const char* what) {
  return std::string(what) + ": " + std::strerror(errno);
}

void write_all(int fd, const std::string& data) {
  std::size_t done = 0;
  while (done < data.size()) {
    ssize_t n = write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return;  // the parent is gone: nobody to tell
    done += static_cast<std::size_t>(n);
  }
}

std::string read_all(int fd) {
  std::string data;
  char buffer[1 << 16];
  for (;;) {
    ssize_t n = read(fd, buffer, sizeof buffer);
    if (n == 0) return data;
    if (n < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(system_error("reading the simulation's result"));
    }
    data.append(buffer, static_cast<std::size_t>(n));
  }
}

[[noreturn]] void run_child(int fd, const std::function<std::string()>& work) {
  std::string message;
  try {
    message = kReturned + work();
  } catch (const std::exception& e) {
    message = kThrew + std::string(e.what());
  }
  write_all(fd, message);
  std::fflush(stdout);
  std::fflush(stderr);
  // Skip destructors: tearing down a large simulation only costs time.
  std::_Exit(0);
}

}  // namespace

ChildOutput run_in_child(const std::function<std::string()>& work) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error(system_error("pipe"));
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    throw std::runtime_error(system_error("fork"));
  }
  if (pid == 0) {
    close(fds[0]);
    run_child(fds[1], work);
  }
  close(fds[1]);
  std::string data;
  std::string read_error;
  try {
    data = read_all(fds[0]);
  } catch (const std::exception& e) {
    read_error = e.what();
  }
  close(fds[0]);
  int status = 0;
  rusage usage{};
  while (wait4(pid, &status, 0, &usage) < 0) {
    if (errno != EINTR) throw std::runtime_error(system_error("waiting for the simulation"));
  }
  if (!read_error.empty()) throw std::runtime_error(read_error);
  if (WIFSIGNALED(status)) {
    throw std::runtime_error("the simulation process was killed by signal " +
                             std::to_string(WTERMSIG(status)) + " (see SimGrid's messages above)");
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || data.empty()) {
    throw std::runtime_error("the simulation process stopped with exit status " +
                             std::to_string(WEXITSTATUS(status)) +
                             " (see SimGrid's messages above)");
  }
  if (data[0] == kThrew) throw std::runtime_error(data.substr(1));
  return {data.substr(1), static_cast<std::int64_t>(usage.ru_maxrss)};
}

}  // namespace p3s::sim
