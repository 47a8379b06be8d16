#pragma once
// One-line messages from the tracer to the program's stderr.
#include <string_view>

namespace p3s::trace {

// Writes "p3s trace: MESSAGE" as a single write(2), so lines from many ranks do not interleave.
void print_warning(std::string_view message);

}  // namespace p3s::trace
