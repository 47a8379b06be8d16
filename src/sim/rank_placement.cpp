#include "sim/rank_placement.hpp"

#include <cctype>
#include <stdexcept>
#include <string_view>

namespace p3s::sim {
namespace {

bool is_digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

// The run of digits of `s` from `from` on, without its leading zeros (a lone 0 stays); `end`
// is set past the run.
std::string_view digit_run(const std::string& s, std::size_t from, std::size_t& end) {
  end = from;
  while (end < s.size() && is_digit(s[end])) ++end;
  std::size_t first = from;
  while (first + 1 < end && s[first] == '0') ++first;
  return {s.data() + first, end - first};
}

}  // namespace

bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (is_digit(a[i]) && is_digit(b[j])) {
      // Compare digit runs as numbers: without leading zeros, the longer run is larger.
      std::size_t i_end = i, j_end = j;
      const std::string_view x = digit_run(a, i, i_end), y = digit_run(b, j, j_end);
      if (x.size() != y.size()) return x.size() < y.size();
      if (x != y) return x < y;
      i = i_end, j = j_end;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i, ++j;
  }
  return a.size() - i < b.size() - j;
}

std::vector<int> place_ranks(int nprocs, int hosts, int ranks_per_host, Mapping mapping) {
  if (ranks_per_host < 1) throw std::invalid_argument("ranks per host must be at least 1");
  const auto used = static_cast<int>(core::nodes_used(nprocs, ranks_per_host));
  if (used > hosts) {
    throw std::invalid_argument(
        std::to_string(nprocs) + " ranks at " + std::to_string(ranks_per_host) + " per host need " +
        std::to_string(used) + " hosts; the platform has " + std::to_string(hosts));
  }
  std::vector<int> host(static_cast<std::size_t>(nprocs));
  for (int r = 0; r < nprocs; ++r) {
    host[static_cast<std::size_t>(r)] =
        static_cast<int>(core::node_of_rank(r, nprocs, ranks_per_host, mapping));
  }
  return host;
}

}  // namespace p3s::sim
