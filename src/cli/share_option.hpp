#pragma once
// Options that take a share of something: "1%" or "0.01".
#include <string>

namespace p3s::cli {

// The share `text` gives, from 0 to 1; throws UsageError naming `flag` otherwise.
double parse_share(const std::string& text, const char* flag);

}  // namespace p3s::cli
