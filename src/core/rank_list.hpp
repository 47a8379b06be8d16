#pragma once
// Compact text for lists of ranks: "0-15", "0,4,8,12", "3,7-9".
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace p3s::core {

// Throws std::invalid_argument on malformed text, or on a list of more than `max_count` ranks
// (a file's "0-2147483646" must not allocate gigabytes before its owner can say it is wrong).
std::vector<std::int32_t> parse_rank_list(std::string_view text,
                                          std::int64_t max_count = std::int64_t{1} << 24);
void append_rank_list(std::string& out, const std::vector<std::int32_t>& ranks);

}  // namespace p3s::core
