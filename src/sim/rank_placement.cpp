#include "sim/rank_placement.hpp"

#include <cctype>
#include <stdexcept>

namespace p3s::sim {
namespace {

bool is_digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

}  // namespace

bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (is_digit(a[i]) && is_digit(b[j])) {
      std::size_t i_end = i, j_end = j;
      while (i_end < a.size() && is_digit(a[i_end])) ++i_end;
      while (j_end < b.size() && is_digit(b[j_end])) ++j_end;
      // Compare digit runs as numbers: skip leading zeros, then the longer run is larger.
      std::size_t i_first = i, j_first = j;
      while (i_first + 1 < i_end && a[i_first] == '0') ++i_first;
      while (j_first + 1 < j_end && b[j_first] == '0') ++j_first;
      std::string_view x(a.data() + i_first, i_end - i_first),
          y(b.data() + j_first, j_end - j_first);
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
  // Rounded up without nprocs + ranks_per_host - 1, which overflows for a huge ranks_per_host.
  const int used = nprocs / ranks_per_host + (nprocs % ranks_per_host != 0 ? 1 : 0);
  if (used > hosts) {
    throw std::invalid_argument(
        std::to_string(nprocs) + " ranks at " + std::to_string(ranks_per_host) + " per host need " +
        std::to_string(used) + " hosts; the platform has " + std::to_string(hosts));
  }
  std::vector<int> host(static_cast<std::size_t>(nprocs));
  for (int r = 0; r < nprocs; ++r) {
    host[static_cast<std::size_t>(r)] = mapping == Mapping::Block ? r / ranks_per_host : r % used;
  }
  return host;
}

}  // namespace p3s::sim
