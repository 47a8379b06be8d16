#pragma once
// The general equation of one communication: which rank each rank talks to at any n (002 sec.
// 4). One rule covers every rank, border ranks included: where a rank has no such
// communication the rule says kNoPeer (the papers' null communication).
#include <cstdint>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "model/integer_formula.hpp"
#include "model/process_grid.hpp"

namespace p3s::model {

inline constexpr std::int64_t kNoPeer = -1;

// Every rank: no communication in this slot.
struct NoPeerRule {
  bool operator==(const NoPeerRule&) const = default;
};

// Every rank talks to the same rank (a root): peer = f(n), such as 0 or n - 1.
struct FixedPeerRule {
  IntegerFormula peer;
  bool skips_self = true;  // the root itself has no such communication
  bool operator==(const FixedPeerRule&) const = default;
};

// EC2, a distance: peer = r + d(n), modulo n when periodic, otherwise none outside 0..n-1.
struct ShiftPeerRule {
  IntegerFormula distance;
  bool periodic = false;
  bool operator==(const ShiftPeerRule&) const = default;
};

// EC1, an exchange: peer = r XOR 2^k(n, s); none when that is >= n.
struct XorPeerRule {
  IntegerFormula bit;
  bool operator==(const XorPeerRule&) const = default;
};

// EC1, a permutation the same at every n.
enum class Permutation : std::uint8_t {
  Mirror,       // n - 1 - r
  BitReversal,  // r's log2(n) bits reversed
  RotateLeft,   // r's log2(n) bits rotated left by one (perfect shuffle)
  RotateRight,  // rotated right by one (inverse shuffle)
  // The transpose on a grid of 2^floor(k/2) rows (k = log2(n)) and n / rows columns, square or
  // twice as wide, rank = row * columns + column: (row, column) <-> (column, row) when square;
  // writing column = 2c + h when twice as wide, (row, 2c + h) <-> (c, 2 row + h). The row and
  // column fields of r's bits swap, a lowest odd bit staying.
  TransposeBits,
};

struct PermutationPeerRule {
  Permutation permutation = Permutation::Mirror;
  bool operator==(const PermutationPeerRule&) const = default;
};

// A neighbour on a process grid: peer = the rank at coords(r) + offset, wrapping in the
// periodic dimensions and none outside the others. EC2's repeated distance lists (a 4 x 2
// mesh's {+1, +1, +1, -3} twice) are this rule seen at one n.
struct GridPeerRule {
  GridShape shape = GridShape::Square;
  GridOrder order = GridOrder::RowMajor;
  std::vector<IntegerFormula> offset;  // one per dimension
  std::vector<bool> periodic;          // one per dimension
  // A coarse level of a multigrid: at most `planes` ranks hold points along each dimension.
  // Along one of extent q > planes only every (q / planes)-th rank does, the others are idle
  // (no peer), and offsets count the ranks that hold points. 0: every rank holds points.
  std::int64_t planes = 0;
  bool operator==(const GridPeerRule&) const = default;
};

// The peer of each rank at one n: kNoPeer or a rank in 0..n-1. Rank must be in 0..n-1.
using PeerMap = std::function<std::int64_t(std::int64_t rank)>;

struct PeerRule {
  std::variant<NoPeerRule, FixedPeerRule, ShiftPeerRule, XorPeerRule, PermutationPeerRule,
               GridPeerRule>
      form;
  // Where the form names the rank itself, there is no communication: codes skip a message to
  // themselves (a periodic dimension of extent 1, `if (peer != me)`).
  bool none_for_self = false;

  // Everything that depends only on n and the slot is worked out here, once, so a large N
  // costs a few operations per rank. Throws std::domain_error where the rule is undefined at
  // n (a sqrt(n) grid at n = 120, a bit reversal at n = 12).
  PeerMap at(std::int64_t n, std::int64_t slot = 0) const;
  std::string text() const;  // "peer = (r - 1) mod n"

  bool operator==(const PeerRule&) const = default;
};

// The rule of the other end: where `rule` gives rank r the peer p, its inverse gives p the
// peer r (a shift or grid neighbour the other way; an exchange or a mirror is its own).
// Nothing for a rule whose inverse is no rule of these forms (a root).
std::optional<PeerRule> inverse(const PeerRule& rule);

// Whether `a` and `b` give some rank another peer at n (both defined there).
bool rules_differ_at(const PeerRule& a, const PeerRule& b, std::int64_t n, std::int64_t slot = 0);

std::string_view permutation_name(Permutation permutation);
Permutation permutation_from_name(std::string_view name);  // throws std::invalid_argument

void to_json(nlohmann::json& out, const PeerRule& rule);
void from_json(const nlohmann::json& in, PeerRule& rule);

}  // namespace p3s::model
