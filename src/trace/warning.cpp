#include "trace/warning.hpp"

#include <unistd.h>

#include <string>

namespace p3s::trace {

void print_warning(std::string_view message) {
  std::string line = "p3s trace: ";
  line.append(message).push_back('\n');
  // A failed write to stderr has nowhere to be reported; the program goes on either way.
  [[maybe_unused]] ssize_t written = write(STDERR_FILENO, line.data(), line.size());
}

}  // namespace p3s::trace
