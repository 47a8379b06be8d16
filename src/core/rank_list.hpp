#pragma once
// Compact text for lists of ranks: "0-15", "0,4,8,12", "3,7-9".
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace p3s::core {

// Throws std::invalid_argument on malformed text.
std::vector<std::int32_t> parse_rank_list(std::string_view text);
void append_rank_list(std::string& out, const std::vector<std::int32_t>& ranks);

}  // namespace p3s::core
