#include "sim/overhead_table.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <sstream>
#include <stdexcept>
#include <string_view>

namespace p3s::sim {
namespace {

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, separator);) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

// A duration as SimGrid writes them: a number, optionally followed by s, ms, us, ns or ps.
double parse_seconds(const std::string& text, const std::string& spec) {
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc()) throw std::invalid_argument("bad time '" + text + "' in '" + spec + "'");
  std::string_view unit(end, static_cast<std::size_t>(text.data() + text.size() - end));
  if (unit.empty() || unit == "s") return value;
  if (unit == "ms") return value * 1e-3;
  if (unit == "us") return value * 1e-6;
  if (unit == "ns") return value * 1e-9;
  if (unit == "ps") return value * 1e-12;
  throw std::invalid_argument("bad time unit '" + std::string(unit) + "' in '" + spec + "'");
}

}  // namespace

OverheadTable::OverheadTable(const std::string& spec) {
  for (const std::string& chunk : split(spec, ';')) {
    std::vector<std::string> fields = split(chunk, ':');
    if (fields.size() < 3) {
      throw std::invalid_argument(
          fmt::format("'{}' in '{}' is not SIZE:BASE:PER_BYTE", chunk, spec));
    }
    Piece piece;
    auto [end, ec] =
        std::from_chars(fields[0].data(), fields[0].data() + fields[0].size(), piece.size);
    if (ec != std::errc() || end != fields[0].data() + fields[0].size() || piece.size < 0) {
      throw std::invalid_argument("bad size '" + fields[0] + "' in '" + spec + "'");
    }
    piece.base = parse_seconds(fields[1], spec);
    piece.per_byte = parse_seconds(fields[2], spec);
    if (piece.base != 0 || piece.per_byte != 0) zero_ = false;
    pieces_.push_back(piece);
  }
  std::stable_sort(pieces_.begin(), pieces_.end(),
                   [](const Piece& a, const Piece& b) { return a.size < b.size; });
}

double OverheadTable::seconds(std::int64_t bytes) const {
  if (zero_) return 0;
  const auto size = static_cast<double>(bytes);
  // SMPI starts from the first piece and moves to a piece once the size exceeds its bound.
  double current = pieces_.front().base + pieces_.front().per_byte * size;
  for (const Piece& piece : pieces_) {
    if (bytes <= piece.size) return current;
    current = piece.base + piece.per_byte * size;
  }
  return current;
}

}  // namespace p3s::sim
