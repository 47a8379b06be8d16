#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>

namespace p3s::core {

// Bad input, with where it was found: "FILE:LINE: reason" (LINE omitted when 0).
class FormatError : public std::runtime_error {
 public:
  FormatError(const std::string& file, std::size_t line, const std::string& reason);
  const std::string& file() const { return file_; }
  std::size_t line() const { return line_; }

 private:
  std::string file_;
  std::size_t line_;
};

}  // namespace p3s::core
