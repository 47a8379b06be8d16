#pragma once
// Bytes per (sender, receiver) pair: what the decomposition and growing-pattern tests hold an
// ST4NP's messages against, the apps' own arithmetic.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <utility>

#include "integration/st4np_text.hpp"

namespace p3s::testing {

using PairBytes = std::map<std::pair<int, int>, std::int64_t>;

// The bytes each rank sends each other rank in one repetition of phase `phase` of an ST4NP.
PairBytes phase_pairs(const St4npText& st4np, int phase);

// Bytes the model sends to a (sender, receiver) pair beyond what the app sends there.
std::int64_t misrouted(const PairBytes& app, const PairBytes& model);

// Generates `slt` at N = n into `dir` (generate must call it consistent) and expects the pairs
// `pairs_of` reads from its ST4NP to be exactly `app`'s, none misrouted.
void expect_generated_pairs(const std::filesystem::path& slt, int n,
                            const std::filesystem::path& dir,
                            const std::function<PairBytes(const St4npText&)>& pairs_of,
                            const PairBytes& app);

}  // namespace p3s::testing
