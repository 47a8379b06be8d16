#pragma once
// Where the running executable is, for what sits beside it (the tracer library, p3s-replay)
// and for starting it again (a simulation job).
#include <filesystem>

namespace p3s::core {

// The running executable's path (/proc/self/exe), or an empty path when it cannot be read.
std::filesystem::path this_program();

}  // namespace p3s::core
