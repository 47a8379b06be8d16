#pragma once
// Instruction groups (IG, 001 sec. 3.3): the ranks of a phase whose compute is alike. A group
// here is a block of consecutive ranks, so that it can be found again at any n as the same
// share of the ranks (the paper's fig. 10, where ranks 0-1 of 4 spread their work over ranks
// 0-3 of 8), or a class of ranks by r mod m.
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace p3s::model {

struct GroupSimilarity {
  double ratio = 0.95;  // below this ratio, two neighbouring values are at different levels
  double floor = 0;     // differences below this are measurement noise, whatever the ratio
};

// Levels of compute among a run's ranks: the values sorted and split wherever two
// neighbours are apart (their gap beyond the floor and their ratio below the similarity), so
// that the noise of ranks doing the same work stays within a level and a rank doing three
// times the work does not. level[r] numbers rank r's level from the lowest.
std::vector<std::int32_t> compute_levels(std::span<const double> values,
                                         const GroupSimilarity& similarity);

// First rank of each block of consecutive ranks at one level.
std::vector<std::int64_t> group_starts(std::span<const double> values,
                                       const GroupSimilarity& similarity);

struct RunGroups {
  std::int64_t n = 0;
  std::vector<std::int64_t> starts;  // group_starts of the run
};

// The groups of every run as shares of n, [share_j, share_j+1) with a final 1: block j starts
// at rank round(share_j * n) in every run, shares taken from the largest run. nullopt when
// the runs have different blocks.
std::optional<std::vector<double>> common_group_shares(std::span<const RunGroups> runs);

// Ranks [first, end) at n of the group with shares [first_share, end_share).
std::pair<std::int64_t, std::int64_t> group_ranks(double first_share, double end_share,
                                                  std::int64_t n);

// Classes of ranks by r mod modulus: each class lists its residues.
struct RankClasses {
  std::int64_t modulus = 1;
  std::vector<std::vector<std::int64_t>> residues;
};

// The smallest modulus (2 to 8) whose residues split every run's ranks into the same classes
// of levels, at least two, confirmed by two runs with every residue on two ranks or more (a
// run of n < 2m cannot tell a rule of the rank from noise); nullopt when none does. `runs` are
// per-rank values; a run with fewer ranks than the modulus says nothing about it.
std::optional<RankClasses> common_rank_classes(std::span<const std::vector<double>> runs,
                                               const GroupSimilarity& similarity);

}  // namespace p3s::model
