#include "model/peer_rule.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <stdexcept>

#include "core/checked_math.hpp"
#include "model/integer_math.hpp"
#include "model/overloaded.hpp"

namespace p3s::model {
namespace {

constexpr std::array<std::string_view, 5> kPermutationNames = {
    "mirror", "bit_reversal", "rotate_left", "rotate_right", "transpose_bits"};
constexpr std::array<char, 3> kCoordNames = {'i', 'j', 'k'};

std::int64_t inside_or_none(std::int64_t peer, std::int64_t n) {
  return peer >= 0 && peer < n ? peer : kNoPeer;
}

std::int64_t permuted(Permutation permutation, std::int64_t r, std::int64_t n, std::int64_t bits) {
  if (permutation == Permutation::Mirror) return n - 1 - r;
  if (bits == 0) return r;  // n = 1: the only rank is its own image
  const std::int64_t top = bits - 1;
  switch (permutation) {
    case Permutation::BitReversal: {
      std::int64_t out = 0;
      for (std::int64_t b = 0; b < bits; ++b) out |= ((r >> b) & 1) << (top - b);
      return out;
    }
    case Permutation::RotateLeft:
      return ((r << 1) | (r >> top)) & (n - 1);
    case Permutation::RotateRight:
      return (r >> 1) | ((r & 1) << top);
    case Permutation::TransposeBits: {
      const std::int64_t half = bits / 2, odd = bits - 2 * half;
      const std::int64_t h = r & ((std::int64_t{1} << odd) - 1);
      const std::int64_t rest = r >> odd;
      const std::int64_t row = rest >> half, column = rest & ((std::int64_t{1} << half) - 1);
      return (((column << half) | row) << odd) | h;
    }
    case Permutation::Mirror:
      break;
  }
  return r;
}

PeerMap bind_permutation(Permutation permutation, std::int64_t n) {
  std::int64_t bits = 0;
  if (permutation != Permutation::Mirror) {
    const std::optional<std::int64_t> log = exact_log2(n);
    if (!log) {
      throw std::domain_error(fmt::format("{} needs a power-of-two process count, not n = {}",
                                          permutation_name(permutation), n));
    }
    bits = *log;
  }
  return [permutation, n, bits](std::int64_t r) { return permuted(permutation, r, n, bits); };
}

// The ranks apart that hold points along each dimension of `extent` on a grid coarsened to
// `planes` (1 everywhere when it is not); throws std::domain_error where a dimension's ranks
// do not split evenly among its planes.
GridCoords coarse_strides(const std::vector<std::int64_t>& extent, std::int64_t planes) {
  GridCoords stride{1, 1, 1};
  for (std::size_t d = 0; d < extent.size() && planes > 0; ++d) {
    if (extent[d] <= planes) continue;
    if (extent[d] % planes != 0) {
      throw std::domain_error(fmt::format(
          "a grid dimension of {} ranks does not split evenly among {} planes", extent[d], planes));
    }
    stride[d] = extent[d] / planes;
  }
  return stride;
}

// A grid rule worked out at one n and slot: what each dimension does to a coordinate.
struct BoundGrid {
  std::vector<std::int64_t> extent;
  GridCoords stride{};
  GridCoords offset{};
  std::vector<bool> periodic;
  bool outside = false;  // a non-periodic offset as long as the grid: every peer is outside

  // The peer's coordinate along d of a rank at coordinate c there, or kNoPeer: every peer
  // outside, idle on this level, or past a non-periodic edge.
  std::int64_t along(std::size_t d, std::int64_t c) const {
    if (outside || c % stride[d] != 0) return kNoPeer;
    c += offset[d];
    if (periodic[d]) return floor_mod(c, extent[d]);
    return c < 0 || c >= extent[d] ? kNoPeer : c;
  }
};

BoundGrid bound_grid(const GridPeerRule& rule, std::int64_t n, std::int64_t slot) {
  std::optional<std::vector<std::int64_t>> extent = grid_extent(rule.shape, n);
  if (!extent) {
    throw std::domain_error(
        fmt::format("n = {} does not make a {} grid", n, grid_shape_name(rule.shape)));
  }
  BoundGrid b;
  b.stride = coarse_strides(*extent, rule.planes);
  b.periodic = rule.periodic;
  for (std::size_t d = 0; d < rule.offset.size(); ++d) {
    // Reduced once, in ranks that hold points, so that adding it to a coordinate cannot
    // overflow whatever the SLT says.
    const std::int64_t side = (*extent)[d] / b.stride[d];
    const std::int64_t value = rule.offset[d].at(n, slot);
    if (rule.periodic[d]) {
      b.offset[d] = floor_mod(value, side) * b.stride[d];
    } else if (value <= -side || value >= side) {
      b.outside = true;
    } else {
      b.offset[d] = value * b.stride[d];
    }
  }
  b.extent = std::move(*extent);
  return b;
}

PeerMap bind_grid(const GridPeerRule& rule, std::int64_t n, std::int64_t slot) {
  const BoundGrid bound = bound_grid(rule, n, slot);
  if (bound.outside) return [](std::int64_t) { return kNoPeer; };
  ProcessGrid grid(bound.extent, rule.order);
  return [grid, bound](std::int64_t r) {
    GridCoords c = grid.coords_of(r);
    for (std::size_t d = 0; d < bound.extent.size(); ++d) {
      c[d] = bound.along(d, c[d]);
      if (c[d] == kNoPeer) return kNoPeer;
    }
    return grid.rank_of(c);
  };
}

// What one coordinate along a dimension is under two grid rules, all that decides whether a
// rank's peers under them differ: no peer under each, itself under each, the same coordinate
// under both. Bits of a class code.
enum AxisClass : unsigned {
  kANone = 1U,
  kASelf = 2U,
  kBNone = 4U,
  kBSelf = 8U,
  kSame = 16U,
};
constexpr unsigned kAxisClasses = 32;

unsigned axis_class(const BoundGrid& x, const BoundGrid& y, std::size_t d, std::int64_t c) {
  const std::int64_t a = x.along(d, c);
  const std::int64_t b = y.along(d, c);
  unsigned code = 0;
  if (a == kNoPeer) code |= kANone;
  if (a == c) code |= kASelf;
  if (b == kNoPeer) code |= kBNone;
  if (b == c) code |= kBSelf;
  if (a != kNoPeer && a == b) code |= kSame;
  return code;
}

// Whether a rank whose coordinates have these classes gets other peers under the two rules.
bool classes_differ(const std::vector<unsigned>& classes, bool a_skips_self, bool b_skips_self) {
  unsigned all = ~0U;
  unsigned any = 0;
  for (const unsigned c : classes) {
    all &= c;
    any |= c;
  }
  const bool a_peer = (any & kANone) == 0 && !(a_skips_self && (all & kASelf) != 0);
  const bool b_peer = (any & kBNone) == 0 && !(b_skips_self && (all & kBSelf) != 0);
  return a_peer != b_peer || (a_peer && (all & kSame) == 0);
}

// The classes (axis_class) the coordinates along each dimension fall in, each once.
std::vector<std::vector<unsigned>> classes_met(const BoundGrid& x, const BoundGrid& y) {
  std::vector<std::vector<unsigned>> seen(x.extent.size());
  for (std::size_t d = 0; d < x.extent.size(); ++d) {
    std::array<bool, kAxisClasses> met{};
    for (std::int64_t c = 0; c < x.extent[d]; ++c) met[axis_class(x, y, d, c)] = true;
    for (unsigned k = 0; k < kAxisClasses; ++k) {
      if (met[k]) seen[d].push_back(k);
    }
  }
  return seen;
}

// Whether some combination of one class per dimension gives a rank other peers, the
// combinations taken as an odometer.
bool some_combination_differs(const std::vector<std::vector<unsigned>>& seen, bool a_skips_self,
                              bool b_skips_self) {
  std::vector<std::size_t> pick(seen.size(), 0);
  std::vector<unsigned> classes(seen.size());
  while (true) {
    for (std::size_t d = 0; d < seen.size(); ++d) classes[d] = seen[d][pick[d]];
    if (classes_differ(classes, a_skips_self, b_skips_self)) return true;
    std::size_t d = 0;
    while (d < seen.size() && ++pick[d] == seen[d].size()) pick[d++] = 0;
    if (d == seen.size()) return false;
  }
}

// Two grid rules on the same grid at n, compared without visiting its n ranks: a rank's peer
// under a rule depends on its coordinates one dimension at a time (none where any dimension
// gives none, itself where every one gives its own coordinate, else the rank at the coordinates
// they give), so the classes the coordinates fall in along each dimension (axis_class), taken
// in every combination, say whether some rank gets other peers. A rule of no peers is taken as
// the other's grid with every peer outside. Nothing where the rules are not two grid rules of
// one order whose grids have the same extents at n, or one such and no peers.
std::optional<bool> grids_differ_at(const PeerRule& a, const PeerRule& b, std::int64_t n,
                                    std::int64_t slot) {
  const auto* ga = std::get_if<GridPeerRule>(&a.form);
  const auto* gb = std::get_if<GridPeerRule>(&b.form);
  const bool a_none = std::holds_alternative<NoPeerRule>(a.form);
  const bool b_none = std::holds_alternative<NoPeerRule>(b.form);
  if ((ga == nullptr && !(a_none && gb != nullptr)) ||
      (gb == nullptr && !(b_none && ga != nullptr)) ||
      (ga != nullptr && gb != nullptr && ga->order != gb->order)) {
    return std::nullopt;
  }
  BoundGrid x = bound_grid(ga != nullptr ? *ga : *gb, n, slot);
  BoundGrid y = bound_grid(gb != nullptr ? *gb : *ga, n, slot);
  // Two shapes (MPI_Dims_create's and the least-surface one) are one grid at most n.
  if (x.extent != y.extent) return std::nullopt;
  x.outside = x.outside || a_none;
  y.outside = y.outside || b_none;
  return some_combination_differs(classes_met(x, y), a.none_for_self, b.none_for_self);
}

// "r + sqrt(n)", "r - 1", "r + (n - sqrt(n))": a formula added to a name.
std::string plus_formula(std::string_view name, const IntegerFormula& f) {
  if (f.terms.empty()) {
    if (f.constant == 0) return std::string(name);
    return fmt::format("{} {} {}", name, f.constant < 0 ? '-' : '+', core::magnitude(f.constant));
  }
  if (f.terms.size() == 1 && f.constant == 0) {
    const std::string t = f.text();
    return t.front() == '-' ? fmt::format("{} - {}", name, t.substr(1))
                            : fmt::format("{} + {}", name, t);
  }
  return fmt::format("{} + ({})", name, f.text());
}

std::string grid_text(const GridPeerRule& rule) {
  std::vector<std::string> coords;
  std::vector<std::string> wraps;
  for (std::size_t d = 0; d < rule.offset.size(); ++d) {
    const std::string name(1, kCoordNames[d]);
    coords.push_back(plus_formula(name, rule.offset[d]));
    if (rule.periodic[d]) wraps.push_back(name);
  }
  std::string extent;
  switch (rule.shape) {
    case GridShape::Square:
      extent = "sqrt(n) x sqrt(n)";
      break;
    case GridShape::Cube:
      extent = "cbrt(n) x cbrt(n) x cbrt(n)";
      break;
    case GridShape::Balanced2D:
      extent = "MPI_Dims_create(n, 2)";
      break;
    case GridShape::Balanced3D:
      extent = "MPI_Dims_create(n, 3)";
      break;
    case GridShape::Compact2D:
      extent = "most square 2D";
      break;
    case GridShape::Compact3D:
      extent = "least-surface 3D";
      break;
  }
  return fmt::format(
      "peer = ({}) on the {} grid, {}; {}{}", fmt::join(coords, ", "), extent,
      rule.order == GridOrder::RowMajor ? "row-major" : "column-major",
      wraps.empty() ? std::string("none outside the grid")
                    : fmt::format("periodic in {}", fmt::join(wraps, ", ")) +
                          (wraps.size() == rule.offset.size() ? "" : ", none outside the others"),
      rule.planes > 0
          ? fmt::format("; at most {} ranks per dimension hold points, counted in offsets, the "
                        "others idle",
                        rule.planes)
          : "");
}

}  // namespace

std::optional<PeerRule> inverse(const PeerRule& rule) {
  PeerRule other = rule;
  if (auto* shift = std::get_if<ShiftPeerRule>(&other.form)) {
    shift->distance = negated(shift->distance);
    return other;
  }
  if (auto* grid = std::get_if<GridPeerRule>(&other.form)) {
    for (IntegerFormula& offset : grid->offset) offset = negated(offset);
    return other;
  }
  if (std::holds_alternative<XorPeerRule>(other.form) ||
      std::holds_alternative<NoPeerRule>(other.form)) {
    return other;
  }
  if (auto* permutation = std::get_if<PermutationPeerRule>(&other.form)) {
    Permutation& p = permutation->permutation;
    if (p == Permutation::RotateLeft) {
      p = Permutation::RotateRight;
    } else if (p == Permutation::RotateRight) {
      p = Permutation::RotateLeft;
    }
    return other;  // a mirror, a bit reversal and a transpose are their own inverses
  }
  return std::nullopt;
}

PeerMap PeerRule::at(std::int64_t n, std::int64_t slot) const {
  PeerMap map = std::visit(
      Overloaded{
          [](const NoPeerRule&) -> PeerMap { return [](std::int64_t) { return kNoPeer; }; },
          [n, slot](const FixedPeerRule& r) -> PeerMap {
            const std::int64_t peer = inside_or_none(r.peer.at(n, slot), n);
            return [peer, skips = r.skips_self](std::int64_t rank) {
              return skips && rank == peer ? kNoPeer : peer;
            };
          },
          [n, slot](const ShiftPeerRule& r) -> PeerMap {
            // Reduced once, so that rank + d cannot overflow whatever the SLT says.
            const std::int64_t distance = r.distance.at(n, slot);
            if (r.periodic) {
              const std::int64_t d = floor_mod(distance, n);
              return [d, n](std::int64_t rank) { return floor_mod(rank + d, n); };
            }
            if (distance <= -n || distance >= n) return [](std::int64_t) { return kNoPeer; };
            return [d = distance, n](std::int64_t rank) { return inside_or_none(rank + d, n); };
          },
          [n, slot](const XorPeerRule& r) -> PeerMap {
            const std::int64_t k = r.bit.at(n, slot);
            // A bit at or above log2(n) pairs every rank with one that does not exist.
            if (k < 0 || k > 62) return [](std::int64_t) { return kNoPeer; };
            const std::int64_t mask = std::int64_t{1} << k;
            return [mask, n](std::int64_t rank) { return inside_or_none(rank ^ mask, n); };
          },
          [n](const PermutationPeerRule& r) { return bind_permutation(r.permutation, n); },
          [n, slot](const GridPeerRule& r) { return bind_grid(r, n, slot); },
      },
      form);
  if (!none_for_self) return map;
  return [map = std::move(map)](std::int64_t rank) {
    const std::int64_t peer = map(rank);
    return peer == rank ? kNoPeer : peer;
  };
}

std::string PeerRule::text() const {
  const std::string text = std::visit(
      Overloaded{
          [](const NoPeerRule&) -> std::string { return "none"; },
          [](const FixedPeerRule& r) {
            return fmt::format("peer = {}{}", r.peer.text(),
                               r.skips_self ? " (none for that rank itself)" : "");
          },
          [](const ShiftPeerRule& r) {
            return r.periodic ? fmt::format("peer = ({}) mod n", plus_formula("r", r.distance))
                              : fmt::format("peer = {}, none outside 0..n-1",
                                            plus_formula("r", r.distance));
          },
          [](const XorPeerRule& r) {
            const bool bare =
                r.bit.terms.empty() ||
                (r.bit.terms.size() == 1 && r.bit.constant == 0 && r.bit.terms[0].coefficient == 1);
            const std::string k = bare ? r.bit.text() : "(" + r.bit.text() + ")";
            return fmt::format("peer = r XOR 2^{}, none if >= n", k);
          },
          [](const PermutationPeerRule& r) -> std::string {
            switch (r.permutation) {
              case Permutation::Mirror:
                return "peer = n - 1 - r";
              case Permutation::BitReversal:
                return "peer = r with its log2(n) bits reversed";
              case Permutation::RotateLeft:
                return "peer = r's log2(n) bits rotated left by 1";
              case Permutation::RotateRight:
                return "peer = r's log2(n) bits rotated right by 1";
              case Permutation::TransposeBits:
                return "peer = the transpose of r on the 2^floor(log2(n)/2)-row grid";
            }
            return "";
          },
          [](const GridPeerRule& r) { return grid_text(r); },
      },
      form);
  return none_for_self ? text + ", none where that is the rank itself" : text;
}

bool rules_differ_at(const PeerRule& a, const PeerRule& b, std::int64_t n, std::int64_t slot) {
  PeerMap pa, pb;
  try {
    if (const std::optional<bool> differ = grids_differ_at(a, b, n, slot)) return *differ;
    pa = a.at(n, slot);
    pb = b.at(n, slot);
  } catch (const std::domain_error&) {
    return false;
  }
  for (std::int64_t r = 0; r < n; ++r) {
    if (pa(r) != pb(r)) return true;
  }
  return false;
}

std::string_view permutation_name(Permutation permutation) {
  return kPermutationNames[static_cast<std::size_t>(permutation)];
}

Permutation permutation_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kPermutationNames.size(); ++i) {
    if (kPermutationNames[i] == name) return static_cast<Permutation>(i);
  }
  throw std::invalid_argument("unknown permutation '" + std::string(name) + "'");
}

}  // namespace p3s::model
