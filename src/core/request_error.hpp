#pragma once
#include <stdexcept>

namespace p3s::core {

// What was asked cannot be done as asked (runs that do not belong together, an incomplete run
// not allowed): the caller changes its request, not its input files. The command line reports
// it as a usage error (exit code 2).
class RequestError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace p3s::core
