#include "core/format_error.hpp"

namespace p3s::core {
namespace {
std::string where(const std::string& file, std::size_t line) {
  return line == 0 ? file : file + ":" + std::to_string(line);
}
}  // namespace

FormatError::FormatError(const std::string& file, std::size_t line, const std::string& reason)
    : std::runtime_error(where(file, line) + ": " + reason), file_(file), line_(line) {}

}  // namespace p3s::core
