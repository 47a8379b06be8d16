#include "core/this_program.hpp"

#include <system_error>

namespace p3s::core {

std::filesystem::path this_program() {
  std::error_code ec;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  return exe;
}

}  // namespace p3s::core
