#pragma once
// A CSV text's rows, each split at its commas (p3s's CSV has no quoted fields), for the tests
// that read the prediction report.
#include <sstream>
#include <string>
#include <vector>

namespace p3s::testing {

inline std::vector<std::vector<std::string>> csv_rows(const std::string& csv) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(csv);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::size_t start = 0;
    while (true) {
      const std::size_t comma = line.find(',', start);
      cells.push_back(line.substr(start, comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    rows.push_back(cells);
  }
  return rows;
}

}  // namespace p3s::testing
