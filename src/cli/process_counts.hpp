#pragma once
// The process counts a report command predicts at: "64,256,1024" (core's rank-list syntax, so
// "64-66" works too), every one at least 1.
#include <cstdint>
#include <string>
#include <vector>

namespace p3s::cli {

// Throws UsageError naming `flag` and the bad count.
std::vector<std::int64_t> parse_process_counts(const std::string& text, const std::string& flag);

}  // namespace p3s::cli
