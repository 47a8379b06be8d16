#pragma once
// SMPI's software overheads: the time a send (smpi/os), a non-blocking send (smpi/ois) or a
// receive of an eager message (smpi/or) keeps a rank busy, as a piecewise-linear function of
// the message size. The simulator applies them itself because its point-to-point messages do
// not go through SMPI's request layer.
#include <cstdint>
#include <string>
#include <vector>

namespace p3s::sim {

class OverheadTable {
 public:
  OverheadTable() = default;
  // SMPI's syntax "SIZE:BASE:PER_BYTE;SIZE:BASE:PER_BYTE;...": from the sizes above SIZE on,
  // the overhead is BASE + PER_BYTE x bytes (seconds, a time unit may follow). Throws on bad
  // syntax.
  explicit OverheadTable(const std::string& spec);

  // The overhead (s) for a message of `bytes`, computed exactly as SMPI 3.32 does.
  double seconds(std::int64_t bytes) const;

 private:
  struct Piece {
    std::int64_t size = 0;
    double base = 0;
    double per_byte = 0;
  };
  std::vector<Piece> pieces_;  // sorted by size
  bool zero_ = true;           // SMPI's default: no overhead at all
};

}  // namespace p3s::sim
