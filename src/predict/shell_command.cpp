#include "predict/shell_command.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <stdexcept>

namespace p3s::predict {
namespace {

std::string shell_quoted(const std::string& word) {
  std::string out = "'";
  for (const char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

int exit_status(int status) {
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

std::string shell_command(const std::string& launcher, const std::vector<std::string>& words) {
  std::string command = launcher;
  for (const std::string& w : words) command += " " + shell_quoted(w);
  return command;
}

int run_shell(const std::string& command) {
  std::fflush(stdout);  // or the child would write what this process has buffered again
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("cannot start /bin/sh for: " + command);
  if (pid == 0) {
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("waiting for /bin/sh failed for: " + command);
  }
  return exit_status(status);
}

CommandOutput run_shell_captured(const std::string& command) {
  std::fflush(stdout);  // or the child would write what this process has buffered again
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("cannot start /bin/sh for: " + command);
  CommandOutput out;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    out.output.append(buffer.data(), n);
  out.exit_code = exit_status(::pclose(pipe));
  return out;
}

}  // namespace p3s::predict
