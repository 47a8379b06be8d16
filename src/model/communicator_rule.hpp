#pragma once
// Which ranks a sub-communicator holds, at any n and for any rank: a row or a column of a
// process grid (MPI_Comm_split by grid coordinate, MPI_Cart_sub), a block of consecutive ranks
// (a node's ranks, MPI_Comm_split_type), or the ranks that share r mod k. Members are listed
// in increasing world rank, the order MPI_Comm_split gives with the world rank as key; a
// collective's root is a member's place in that list.
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/integer_formula.hpp"
#include "model/process_grid.hpp"

namespace p3s::model {

enum class CommunicatorKind : std::uint8_t {
  GridSlice,  // the ranks of a process grid that share the coordinates not in `keep`
  Blocks,     // ranks with the same r / size
  Strides,    // ranks with the same r mod size
};

struct CommunicatorRule {
  CommunicatorKind kind = CommunicatorKind::Blocks;
  GridShape shape = GridShape::Balanced2D;  // GridSlice
  GridOrder order = GridOrder::RowMajor;    // GridSlice
  std::vector<bool> keep;                   // GridSlice: the dimensions that vary within it
  IntegerFormula size;                      // Blocks and Strides

  // The members of `rank`'s communicator at n, in increasing world rank. Throws
  // std::domain_error where the rule is undefined at n (a square grid at n = 12, a block size
  // that does not divide n).
  std::vector<std::int64_t> members_of(std::int64_t rank, std::int64_t n) const;
  std::string text() const;  // "the row of the MPI_Dims_create(n, 2) grid"
  bool operator==(const CommunicatorRule&) const = default;
};

// One sub-communicator slot in one run: every rank's members (empty for a rank without it).
struct CommunicatorSample {
  std::int64_t n = 0;
  std::vector<std::vector<std::int64_t>> members;  // per rank, world ranks in its order
};

// The simplest rule that gives every rank of every run its members exactly; nothing when none
// does.
std::optional<CommunicatorRule> infer_communicator_rule(std::span<const CommunicatorSample> runs);

void to_json(nlohmann::json& out, const CommunicatorRule& rule);
void from_json(const nlohmann::json& in, CommunicatorRule& rule);

}  // namespace p3s::model
