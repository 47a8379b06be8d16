#include "core/rank_list.hpp"

#include <charconv>
#include <stdexcept>

namespace p3s::core {
namespace {

std::int32_t to_rank(std::string_view s) {
  std::int32_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || ptr != s.data() + s.size() || v < 0) {
    throw std::invalid_argument("bad rank '" + std::string(s) + "'");
  }
  return v;
}

}  // namespace

std::vector<std::int32_t> parse_rank_list(std::string_view text, std::int64_t max_count) {
  std::vector<std::int32_t> ranks;
  auto too_many = [&](std::int64_t count) {
    if (count > max_count) {
      throw std::invalid_argument("more than " + std::to_string(max_count) + " ranks in the list");
    }
  };
  while (!text.empty()) {
    std::size_t comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    std::size_t dash = item.find('-');
    if (dash == std::string_view::npos) {
      too_many(static_cast<std::int64_t>(ranks.size()) + 1);
      ranks.push_back(to_rank(item));
    } else {
      std::int32_t first = to_rank(item.substr(0, dash));
      std::int32_t last = to_rank(item.substr(dash + 1));
      if (last < first) throw std::invalid_argument("descending range '" + std::string(item) + "'");
      too_many(static_cast<std::int64_t>(ranks.size()) + (std::int64_t{last} - first + 1));
      // Counted in 64 bits: a range ending at INT32_MAX must not wrap.
      for (std::int64_t r = first; r <= last; ++r) ranks.push_back(static_cast<std::int32_t>(r));
    }
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
    if (text.empty()) throw std::invalid_argument("trailing comma");
  }
  if (ranks.empty()) throw std::invalid_argument("empty rank list");
  return ranks;
}

void append_rank_list(std::string& out, const std::vector<std::int32_t>& ranks) {
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    if (i > 0) out.push_back(',');
    out.append(std::to_string(ranks[i]));
    if (j > i) out.append("-").append(std::to_string(ranks[j]));
    i = j + 1;
  }
}

}  // namespace p3s::core
