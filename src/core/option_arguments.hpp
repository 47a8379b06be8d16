#pragma once
// Command-line arguments before Boost.Program_options sees them. Boost 1.74 formats an error by
// replacing each %name% placeholder (%option%, %value%...) until none is left, so an option or
// a value that holds one itself never ends. No option or value of p3s has that shape.
#include <span>
#include <string>

namespace p3s::core {

// Throws std::invalid_argument naming the first argument that holds a placeholder.
void refuse_option_parser_placeholders(std::span<const std::string> args);

}  // namespace p3s::core
